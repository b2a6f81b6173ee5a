package org.rdma.shell.internal;

import java.io.PrintStream;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.shell.internal.perf.PerftestMsg;
import org.rdma.shell.internal.perf.RcPair;
import org.rdma.shell.internal.perf.WriteBw;
import org.rdma.shell.internal.perf.WriteBwPeer;
import org.rdma.verbs.IbCore;

/**
 * {@code ib_write_bw}: perftest's {@code ib_write_bw} ({@code src/write_bw.c}), RC RDMA WRITE
 * bandwidth, in two modes.
 *
 * <ul>
 *   <li>Against another process or host, as perftest: {@code ib_write_bw [-d DEV] [-i PORT]
 *       [-x GIDIDX] [--ipv6] [-s SIZE] [-n ITERS | -D SECONDS] [-q QPS] [-t TX_DEPTH] [-m MTU]
 *       [-p TCPPORT]} is the server, waiting on TCP port 18515 ({@code -p}); with a host operand
 *       it is the client, which writes. The exchange is perftest's ({@link PerftestMsg}), so
 *       either end may be perftest on a Linux host. The work is {@link WriteBwPeer}.</li>
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
 * ({@code -g} is accepted as well as perftest's {@code -x} for the GID index.) Bad options are
 * {@code EINVAL}, an unknown device {@code ENODEV}; this class parses and prints.
 */
@Component(service = WriteBwCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ib_write_bw"})
public class WriteBwCommand {
    static final String USAGE = "ib_write_bw [-d DEV] [-i PORT] [-x GIDIDX] [--ipv6] [-s SIZE] [-n ITERS|-D SECONDS]"
            + " [-q QPS] [-t TX_DEPTH] [-m MTU] [-p TCPPORT] [HOST]"
            + " | ib_write_bw -d DEV [-i PORT] --peer-device DEV2 [-i PORT2|--peer-port PORT2]"
            + " [-s SIZE] [-n ITERS] [-D SECONDS] [-q QPS] [-t TX_DEPTH] [-g GIDIDX] [-m MTU]";

    private final IbCore core;

    /** A command using the devices of {@code core}. */
    @Activate
    public WriteBwCommand(@Reference IbCore core) {
        this.core = core;
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
                .option('t', "tx-depth", true).option('x', "gid-index", true).option('p', "port", true)
                .option((char) 0, "ipv6", false).parse(args);
        if (o.has("duration") && o.has("iters")) {
            throw o.error("-D and -n cannot be used together");
        }
        if (!o.has("peer-device")) {
            runPeer(out, o);
            return;
        }
        for (String two : new String[] {"port", "ipv6", "gid-index"}) {
            if (o.has(two)) {
                throw o.error("--" + two + " needs a peer process, not --peer-device");
            }
        }
        RcPair.Config c = RcPingpongCommand.pairConfig(o);
        int size = (int) o.number("size", 65536, 1, 1 << 30);
        long iters = o.number("iters", 5000, 5, Long.MAX_VALUE / 2);
        int seconds = (int) o.number("duration", 0, 1, 3600);
        int qps = (int) o.number("qp", 1, 1, 1024);
        int txDepth = (int) o.number("tx-depth", 128, 1, 16384);
        if ((long) size * qps > Integer.MAX_VALUE - 8) {
            throw o.error("size * qps is too large");
        }
        c.mtu = RcPingpongCommand.mtu(o, null);
        c.qps = qps;
        c.sendDepth = txDepth;
        c.recvDepth = 1;
        c.bufferSize = WriteBw.bufferSize(size, qps);
        WriteBw.Params p = new WriteBw.Params(size, iters, seconds, txDepth, c.seed);
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

    private void runPeer(PrintStream out, Options o) {
        List<String> operands = o.operands();
        if (operands.size() > 1) {
            throw o.error("unexpected argument '" + operands.get(1) + "'");
        }
        WriteBwPeer.Config c = new WriteBwPeer.Config();
        c.device = RcPingpongCommand.deviceName(core, o);
        c.port = (int) o.number("ib-port", 1, 1, 255);
        c.size = (int) o.number("size", 65536, 1, 1 << 30);
        c.iters = o.number("iters", 5000, 5, Long.MAX_VALUE / 2);
        c.seconds = (int) o.number("duration", 0, 1, 3600);
        c.qps = (int) o.number("qp", 1, 1, 1024);
        c.txDepth = (int) o.number("tx-depth", 128, 1, 16384);
        c.mtu = RcPingpongCommand.mtu(o, null);
        String gid = o.has("gid-index") ? "gid-index" : "gid-idx";
        c.gidIndex = (int) o.number(gid, -1, 0, 255);
        c.ipv6 = o.has("ipv6");
        c.tcpPort = (int) o.number("port", PerftestMsg.DEFAULT_PORT, 1, 65535);
        c.server = operands.isEmpty() ? null : operands.get(0);
        WriteBwPeer.run(core, c, out);
    }
}
