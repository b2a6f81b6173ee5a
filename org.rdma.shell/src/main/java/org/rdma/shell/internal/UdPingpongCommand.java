package org.rdma.shell.internal;

import java.io.PrintStream;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.shell.internal.perf.PingpongEnd;
import org.rdma.shell.internal.perf.PingpongPeer;
import org.rdma.shell.internal.perf.Uverbs;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.QpType;

/**
 * {@code ibv_ud_pingpong [-d DEV] [-i PORT] [-g GIDIDX] [-s SIZE] [-n ITERS] [-r RXDEPTH] [-l SL]
 * [-e] [-c] [-p TCPPORT] [HOST]}: rdma-core's {@code ibv_ud_pingpong}
 * ({@code libibverbs/examples/ud_pingpong.c}) against another process or host: without a host
 * operand the server, waiting on TCP port 18515 ({@code -p}), with one the client. UD QPs with
 * the tool's Q_Key 0x11111111, an address handle to the peer's GID, messages of at most the
 * port's MTU (default 1024 bytes) received behind 40 bytes of GRH room; the TCP exchange is the
 * tool's ({@link org.rdma.shell.internal.perf.PingpongMsg}), so either end may be rdma-core's
 * tool. It prints the tool's lines (its own address line has a colon before "GID", as the
 * tool's):
 *
 * <pre>
 *   local address:  LID 0x0000, QPN 0x000011, PSN 0x1a2b3c: GID ::1
 *   remote address: LID 0x0000, QPN 0x000012, PSN 0x0b1d2c, GID ::1
 * 2048000 bytes in 0.05 seconds = 327.68 Mbit/sec
 * 1000 iters in 0.05 seconds = 50.00 usec/iter
 * </pre>
 *
 * Bad options are {@code EINVAL}, an unknown device {@code ENODEV}. The work is
 * {@link PingpongPeer} and {@link PingpongEnd}; this class parses and prints.
 */
@Component(service = UdPingpongCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ibv_ud_pingpong"})
public class UdPingpongCommand {
    static final String USAGE = "ibv_ud_pingpong [-d DEV] [-i PORT] [-g GIDIDX] [-s SIZE] [-n ITERS] [-r RXDEPTH]"
            + " [-l SL] [-e] [-c] [-p TCPPORT] [HOST]";

    private final IbCore core;
    private final Uverbs uverbs;

    /** A command whose runs {@code uverbs} disassociates from the devices of {@code core} that go. */
    @Activate
    public UdPingpongCommand(@Reference IbCore core, @Reference Uverbs uverbs) {
        this.core = core;
        this.uverbs = uverbs;
    }

    /** For embedding and tests: runs on a device that goes leave their objects to the core. */
    public UdPingpongCommand(IbCore core) {
        this(core, null);
    }

    /** {@code ibv_ud_pingpong [options] [host]}, printed to the session's output. */
    @Descriptor("UD ping-pong with a peer process: server, or client of HOST (ibv_ud_pingpong)")
    public void ibv_ud_pingpong(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    /** Runs {@code ibv_ud_pingpong args} printing to {@code out} (the entry point for embedding and tests). */
    public void run(PrintStream out, String... args) {
        Options o = RcPingpongCommand.peerOptions(new Options(USAGE).option('d', "ib-dev", true)
                .option('i', "ib-port", true).option('s', "size", true).option('n', "iters", true)
                .option('g', "gid-idx", true).option('r', "rx-depth", true)).parse(args);
        RcPingpongCommand.runPeer(core, uverbs, out, o, QpType.UD);
    }
}
