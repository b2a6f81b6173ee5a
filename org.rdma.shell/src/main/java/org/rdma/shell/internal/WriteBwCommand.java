package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.shell.internal.perf.CqModeration;
import org.rdma.shell.internal.perf.PerftestMsg;
import org.rdma.shell.internal.perf.RcPair;
import org.rdma.shell.internal.perf.Uverbs;
import org.rdma.shell.internal.perf.WriteBw;
import org.rdma.shell.internal.perf.WriteBwPeer;
import org.rdma.verbs.IbCore;

/**
 * {@code ib_write_bw}: perftest's {@code ib_write_bw} ({@code src/write_bw.c}), RC RDMA WRITE
 * bandwidth, in two modes.
 *
 * <ul>
 *   <li>Against another process or host, as perftest: {@code ib_write_bw [-d DEV] [-i PORT]
 *       [-x GIDIDX] [--ipv6] [-s SIZE] [-n ITERS | -D SECONDS] [-q QPS] [-t TX_DEPTH]
 *       [-Q CQ_MOD] [-l POST_LIST] [-m MTU] [-p TCPPORT]} is the server, waiting on TCP port
 *       18515 ({@code -p}); with a host operand it is the client, which writes. The exchange is
 *       perftest's ({@link PerftestMsg}), so either end may be perftest on a Linux host. The
 *       work is {@link WriteBwPeer}.</li>
 *   <li>Both ends in this runtime: {@code -d DEV [-i PORT] --peer-device DEV2 [-i PORT2]}: RC
 *       RDMA WRITE from {@code -d} into {@code --peer-device}, whose buffer is read back and
 *       checked at the end, with a progress line about once a second ({@link RcPair},
 *       {@link WriteBw}).</li>
 * </ul>
 *
 * Both print perftest's header block and address lines and the result table:
 *
 * <pre>
 * ---------------------------------------------------------------------------------------
 *                     RDMA_Write BW Test
 *  ...
 *  #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
 *  65536      5000             3165.43            3165.12		     0.050642
 * ---------------------------------------------------------------------------------------
 * </pre>
 *
 * {@code -Q, --cq-mod N} ({@value CqModeration#MIN_CQ_MOD}..{@value CqModeration#MAX_CQ_MOD})
 * signals only every N-th WRITE and {@code -l, --post_list N} posts chains of N WRITEs, with
 * perftest's defaults and rules ({@link CqModeration}: moderation 100, but 1 above 8192-byte
 * messages; with a post list, the post list's size); the notices perftest prints about them
 * come first. ({@code -g} is accepted as well as perftest's {@code -x} for the GID index.) Bad
 * options are {@code EINVAL}, an unknown device {@code ENODEV}; this class parses and prints.
 */
@Component(service = WriteBwCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ib_write_bw"})
public class WriteBwCommand {
    static final String USAGE = "ib_write_bw [-d DEV] [-i PORT] [-x GIDIDX] [--ipv6] [-s SIZE] [-n ITERS|-D SECONDS]"
            + " [-q QPS] [-t TX_DEPTH] [-Q CQ_MOD] [-l POST_LIST] [-m MTU] [-p TCPPORT] [HOST]"
            + " | ib_write_bw -d DEV [-i PORT] --peer-device DEV2 [-i PORT2|--peer-port PORT2]"
            + " [-s SIZE] [-n ITERS] [-D SECONDS] [-q QPS] [-t TX_DEPTH] [-Q CQ_MOD] [-l POST_LIST] [-g GIDIDX]"
            + " [-m MTU]";

    private final IbCore core;
    private final Uverbs uverbs;

    /** A command whose runs {@code uverbs} disassociates from the devices of {@code core} that go. */
    @Activate
    public WriteBwCommand(@Reference IbCore core, @Reference Uverbs uverbs) {
        this.core = core;
        this.uverbs = uverbs;
    }

    /** For embedding and tests: runs on a device that goes leave their objects to the core. */
    public WriteBwCommand(IbCore core) {
        this(core, null);
    }

    /** {@code ib_write_bw [options]}, printed to the session's output. */
    @Descriptor("RC RDMA WRITE bandwidth with a peer process (server, or client of HOST) or between two local "
            + "ports (perftest ib_write_bw)")
    public void ib_write_bw(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    /** Runs {@code ib_write_bw args} printing to {@code out} (the entry point for embedding and tests). */
    public void run(PrintStream out, String... args) {
        Options o = RcPingpongCommand.options(USAGE).option('D', "duration", true).option('q', "qp", true)
                .option('t', "tx-depth", true).option('Q', "cq-mod", true).option('l', "post_list", true)
                .option('x', "gid-index", true).option('p', "port", true).option((char) 0, "ipv6", false).parse(args);
        if (o.has("duration") && o.has("iters")) {
            throw o.error("-D and -n cannot be used together");
        }
        boolean local = o.has("peer-device");
        for (String two : new String[] {"port", "ipv6", "gid-index"}) {
            if (local && o.has(two)) {
                throw o.error("--" + two + " needs a peer process, not --peer-device");
            }
        }
        int size = (int) o.number("size", 65536, 1, 1 << 30);
        long iters = o.number("iters", 5000, 5, Long.MAX_VALUE / 2);
        int seconds = (int) o.number("duration", 0, 1, 3600);
        int txDepth = (int) o.number("tx-depth", 128, 1, 16384);
        CqModeration m = CqModeration.resolve(size, iters, seconds > 0, txDepth,
                (int) o.number("cq-mod", 0, CqModeration.MIN_CQ_MOD, CqModeration.MAX_CQ_MOD),
                (int) o.number("post_list", 1, 1, Integer.MAX_VALUE), o::error);
        WriteBw.Params p = new WriteBw.Params(size, iters, seconds, m.txDepth(), m.cqMod(), m.postList(),
                System.nanoTime());
        int qps = (int) o.number("qp", 1, 1, 1024);
        if (local) {
            RcPair.Config c = RcPingpongCommand.pairConfig(o);
            c.uverbs = uverbs;
            m.notices().forEach(out::println);
            runLocal(out, o, c, p, qps);
        } else {
            WriteBwPeer.Config c = peerConfig(o, p, qps);
            m.notices().forEach(out::println);
            WriteBwPeer.run(core, c, out);
        }
    }

    private void runLocal(PrintStream out, Options o, RcPair.Config c, WriteBw.Params p, int qps) {
        if ((long) p.size() * qps > Integer.MAX_VALUE - 8) {
            throw o.error("size * qps is too large");
        }
        c.mtu = RcPingpongCommand.mtu(o, null);
        c.qps = qps;
        c.sendDepth = p.txDepth();
        c.recvDepth = 1;
        c.sqSigAll = false;
        c.bufferSize = WriteBw.bufferSize(p.size(), qps);
        c.seed = p.runId();
        try (RcPair pair = RcPair.open(core, c)) {
            WriteBw.header(pair, p).forEach(out::println);
            pair.connect();
            out.println(WriteBw.RESULT_LINE);
            out.println(WriteBw.RESULT_FMT);
            out.flush();
            WriteBw.Result r = WriteBw.run(pair, p, line -> {
                out.println(line);
                out.flush();
            });
            out.println(r.row());
            out.println(WriteBw.RESULT_LINE);
        }
    }

    private WriteBwPeer.Config peerConfig(Options o, WriteBw.Params p, int qps) {
        List<String> operands = o.operands();
        if (operands.size() > 1) {
            throw o.error("unexpected argument '" + operands.get(1) + "'");
        }
        WriteBwPeer.Config c = new WriteBwPeer.Config();
        c.device = RcPingpongCommand.deviceName(core, o);
        c.port = (int) o.number("ib-port", 1, 1, 255);
        c.params = p;
        c.qps = qps;
        c.mtu = RcPingpongCommand.mtu(o, null);
        String gid = o.has("gid-index") ? "gid-index" : "gid-idx";
        c.gidIndex = (int) o.number(gid, -1, 0, 255);
        c.ipv6 = o.has("ipv6");
        c.tcpPort = (int) o.number("port", PerftestMsg.DEFAULT_PORT, 1, 65535);
        c.server = operands.isEmpty() ? null : operands.get(0);
        c.uverbs = uverbs;
        return c;
    }
}
