package org.rdma.shell.internal;

import java.io.PrintStream;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.shell.internal.perf.RcPair;
import org.rdma.shell.internal.perf.WriteBw;
import org.rdma.verbs.IbCore;

/**
 * {@code ib_write_bw -d DEV [-i PORT] --peer-device DEV2 [-s SIZE] [-n ITERS] [-D SECONDS]
 * [-q QPS] [-t TX_DEPTH] [-g GIDIDX] [-m MTU]}: perftest's {@code ib_write_bw}
 * ({@code src/write_bw.c}) with both ends in this runtime: RC RDMA WRITE from {@code -d} into
 * {@code --peer-device}. It prints perftest's header block and address lines, a progress line
 * about once a second while it runs, and the result table:
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
 * The destination buffer is read back and checked at the end. Bad options are {@code EINVAL},
 * an unknown device {@code ENODEV}. The work is {@link RcPair} and {@link WriteBw}; this class
 * parses and prints.
 */
@Component(service = WriteBwCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ib_write_bw"})
public class WriteBwCommand {
    static final String USAGE = "ib_write_bw -d DEV [-i PORT] --peer-device DEV2 [-i PORT2|--peer-port PORT2]"
            + " [-s SIZE] [-n ITERS] [-D SECONDS] [-q QPS] [-t TX_DEPTH] [-g GIDIDX] [-m MTU]";

    private final IbCore core;

    /** A command using the devices of {@code core}. */
    @Activate
    public WriteBwCommand(@Reference IbCore core) {
        this.core = core;
    }

    /** {@code ib_write_bw [options]}, printed to the session's output. */
    @Descriptor("RC RDMA WRITE bandwidth between two local device ports (perftest ib_write_bw)")
    public void ib_write_bw(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        Options o = RcPingpongCommand.options(USAGE).option('D', "duration", true).option('q', "qp", true)
                .option('t', "tx-depth", true).parse(args);
        RcPair.Config c = RcPingpongCommand.pairConfig(o);
        int size = (int) o.number("size", 65536, 1, 1 << 30);
        long iters = o.number("iters", 5000, 5, Long.MAX_VALUE / 2);
        int seconds = (int) o.number("duration", 0, 1, 3600);
        int qps = (int) o.number("qp", 1, 1, 1024);
        int txDepth = (int) o.number("tx-depth", 128, 1, 16384);
        if (o.has("duration") && o.has("iters")) {
            throw o.error("-D and -n cannot be used together");
        }
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
}
