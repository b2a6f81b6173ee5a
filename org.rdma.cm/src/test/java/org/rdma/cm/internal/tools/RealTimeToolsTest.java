package org.rdma.cm.internal.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The Gogo commands as a shell runs them, in real time with the CMs' and the completions' own
 * threads: rping and ucmatose with both ends in this runtime, the listing, and bad options.
 */
class RealTimeToolsTest {
    private RealTimeNet net;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);

    @BeforeEach
    void up() {
        net = new RealTimeNet();
    }

    @AfterEach
    void down() {
        net.close();
    }

    private String text() {
        return buf.toString(StandardCharsets.UTF_8);
    }

    /** A bounded poll for what the CMs' threads finish after the command returned. */
    private static void eventually(BooleanSupplier cond, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!cond.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, what);
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private void assertNothingLeft() throws InterruptedException {
        eventually(() -> net.cm.idsInUse() == 0 && net.cm.portsInUse() == 0, "RDMA CM ids left: " + net.cm.ids());
        eventually(() -> net.ibcm.localIdsInUse() == 0, "IB CM ids left after timewait: " + net.ibcm.cmIds());
    }

    @Test
    void rpingLoopbackThousandValidatedPings() throws Exception {
        new RpingCommand(net.cm).run(out, "--loopback", "-a", "192.168.7.2", "-I", "192.168.7.1", "-C", "1000", "-V",
                "-S", "100");
        String t = text();
        assertTrue(t.contains("client DISCONNECT EVENT..."), t);
        assertTrue(t.contains("server DISCONNECT EVENT..."), t);
        assertTrue(t.contains("rping: 1000 pings of 100 bytes to 192.168.7.2:7174 in "), t);
        assertTrue(t.contains(", 1000 validated"), t);
        assertNothingLeft();
    }

    @Test
    void rpingVerbose() throws Exception {
        new RpingCommand(net.cm).run(out, "--loopback", "-a", "192.168.7.2", "-I", "192.168.7.1", "-C", "2", "-v",
                "-p", "9999");
        String t = text();
        assertTrue(t.contains("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr\n"), t);
        assertTrue(t.contains("server ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrs\n"), t);
        assertNothingLeft();
    }

    @Test
    void ucmatoseLoopbackManyConnections() throws Exception {
        new UcmatoseCommand(net.cm, net.clock).run(out, "--loopback", "-s", "192.168.7.2", "-b", "192.168.7.1", "-c",
                "50", "-C", "10");
        String t = text();
        assertTrue(t.contains("ucmatose -s 192.168.7.2:7471 (server)\ncmatose: starting server\n"
                + "initiating data transfers\ncompleting sends\nreceiving data transfers\ndata transfers complete\n"
                + "cmatose: disconnecting\ndisconnected\ntest complete\nreturn status 0\nstep"), t);
        assertTrue(t.contains("(client)\ncmatose: starting client\ncmatose: connecting\nreceiving data transfers\n"
                + "sending replies\ndata transfers complete\ntest complete\nreturn status 0\nstep"), t);
        assertNothingLeft();
    }

    @Test
    void aServerThatTimesOutSaysItIsTheServer() {
        RdmaException e = assertThrows(RdmaException.class,
                () -> new RpingCommand(net.cm).run(out, "-s", "-a", "192.168.7.2", "--timeout", "1"));
        assertEquals(Errno.ETIMEDOUT, e.errno());
        assertTrue(e.getMessage().contains("rping server failed: timed out after 1 s"), e.getMessage());
    }

    @Test
    void listingAndBadOptions() throws Exception {
        CmCommand list = new CmCommand(net.cm);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> new RpingCommand(net.cm).run(out, "-x"))
                .errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> new RpingCommand(net.cm).run(out, "-c")).errno(), "a client needs -a");
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> new RpingCommand(net.cm).run(out, "-s", "-c")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> new RpingCommand(net.cm).run(out, "-c", "-a", "192.168.7.2", "-S", "10")).errno(),
                "below RPING_MIN_BUFSIZE");
        assertEquals(Errno.EADDRNOTAVAIL, assertThrows(RdmaException.class,
                () -> new RpingCommand(net.cm).run(out, "-s", "-a", "10.9.9.9")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> new UcmatoseCommand(net.cm, net.clock).run(out, "-P", "udp")).errno());
        MckeyCommand mckey = new MckeyCommand(net.cm, net.clock);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> mckey.run(out, "-s")).errno(),
                "mckey needs -m");
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> mckey.run(out, "-M", "ff12::1")).errno(),
                "an unmapped address needs -b");
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> mckey.run(out, "-m", "224.1.2.3", "-p", "0x106")).errno(), "UDP or IPoIB port space");
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> mckey.run(out, "-m", "224.1.2.3", "-l")).errno(), "-l is not taken");

        org.rdma.cm.rdma.RdmaCmId l = net.cm.createId((id, ev) -> 0, null, org.rdma.cm.rdma.RdmaPortSpace.TCP,
                org.rdma.verbs.QpType.RC);
        net.cm.listen(l, 0);
        buf.reset();
        list.run(out);
        List<String> lines = List.of(text().split("\n"));
        assertEquals(3, lines.size(), "the wildcard listener and one per device: " + lines);
        assertTrue(lines.get(0).matches("link - cm-idn \\d+ qp-type RC state LISTEN ps TCP comm \\[.*"), lines.get(0));
        assertTrue(lines.get(0).endsWith("] src-addr 0.0.0.0:" + portOf(lines.get(0))), lines.get(0));
        assertTrue(lines.get(1).matches("link mlx4_0/0 cm-idn \\d+ qp-type RC state LISTEN ps TCP .*"), lines.get(1));
        net.cm.destroyId(l);
        assertNothingLeft();
    }

    private static String portOf(String line) {
        return line.substring(line.lastIndexOf(':') + 1);
    }
}
