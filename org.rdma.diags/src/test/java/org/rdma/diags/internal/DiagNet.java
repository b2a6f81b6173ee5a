package org.rdma.diags.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.rdma.mad.internal.umad.UmadLayer;
import org.rdma.mad.internal.umad.UmadWaiter;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The commands on a subnet of the SM's test kit: a ring of switches with hosts, the SM up, and
 * the user-MAD layer as a further client whose readers drive the simulation in virtual time.
 */
final class DiagNet implements AutoCloseable {
    /** The date ibnetdiscover's header shows in tests. */
    static final Clock WALL = Clock.fixed(Instant.parse("2026-11-22T07:51:30Z"), ZoneOffset.UTC);

    /** A command's entry point with an output stream. */
    @FunctionalInterface
    interface Cmd {
        void run(PrintStream out, String... args);
    }

    final SmNet net;
    final UmadLayer umad;
    final Cmd ibstat;
    final Cmd smpquery;
    final Cmd saquery;
    final Cmd perfquery;
    final Cmd ibnetdiscover;

    DiagNet(String topology) {
        net = new SmNet(topology, 60_000).up();
        umad = new UmadLayer(net.mad, net.clock, UmadWaiter.driving(net.clock, net::settle));
        net.addClient(umad);
        ibstat = new IbstatCommand(umad)::run;
        smpquery = new SmpqueryCommand(umad)::run;
        saquery = new SaqueryCommand(umad)::run;
        perfquery = new PerfqueryCommand(umad)::run;
        ibnetdiscover = new IbnetdiscoverCommand(umad, WALL)::run;
    }

    /** The lines {@code cmd} prints for {@code args}. */
    static List<String> lines(Cmd cmd, String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8);
        cmd.run(out, args);
        String s = b.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : List.of(s.split("\n", -1)).subList(0, (int) s.lines().count());
    }

    /** The text {@code cmd} prints for {@code args}. */
    static String text(Cmd cmd, String... args) {
        return String.join("\n", lines(cmd, args)) + "\n";
    }

    /** The errno {@code cmd} fails with. */
    static RdmaException fails(Cmd cmd, String... args) {
        return assertThrows(RdmaException.class, () -> cmd.run(new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), args));
    }

    /** Shorthand: the errno of {@link #fails}. */
    static Errno errno(Cmd cmd, String... args) {
        return fails(cmd, args).errno();
    }

    @Override
    public void close() {
        umad.deactivate();
        net.close();
    }
}
