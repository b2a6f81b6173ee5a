package org.rdma.shell.internal;

import java.io.PrintStream;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import java.util.List;
import org.rdma.shell.internal.perf.Pingpong;
import org.rdma.shell.internal.perf.PingpongEnd;
import org.rdma.shell.internal.perf.PingpongMsg;
import org.rdma.shell.internal.perf.PingpongPeer;
import org.rdma.shell.internal.perf.RcPair;
import org.rdma.shell.internal.perf.Uverbs;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * {@code ibv_rc_pingpong}: rdma-core's {@code ibv_rc_pingpong}
 * ({@code libibverbs/examples/rc_pingpong.c}) in two modes.
 *
 * <ul>
 *   <li>Against another process or host, as the tool: {@code ibv_rc_pingpong [-d DEV] [-i PORT]
 *       [-g GIDIDX] [-s SIZE] [-n ITERS] [-m MTU] [-r RXDEPTH] [-l SL] [-e] [-c] [-p TCPPORT]}
 *       is the server, waiting on TCP port 18515 ({@code -p}); with a host operand it is the
 *       client. The addresses are exchanged in the tool's TCP format ({@link PingpongMsg}), so
 *       either end may be rdma-core's tool (on RoCE both ends need {@code -g}). The work is
 *       {@link PingpongPeer}.</li>
 *   <li>Both ends in this runtime: {@code -d DEV [-i PORT] --peer-device DEV2 [-i PORT2]}: the
 *       tool's client on {@code -d}, its server on {@code --peer-device} (a {@code -i} after
 *       {@code --peer-device}, or {@code --peer-port}, is the peer's port; the same device with
 *       another port works too); every message is checked byte for byte ({@link RcPair},
 *       {@link Pingpong}).</li>
 * </ul>
 *
 * Both print the tool's address lines and its two result lines:
 *
 * <pre>
 *   local address:  LID 0x0000, QPN 0x000011, PSN 0x1a2b3c, GID ::ffff:127.0.0.1
 *   remote address: LID 0x0000, QPN 0x000012, PSN 0x0b1d2c, GID ::ffff:127.0.0.1
 * 8192000 bytes in 0.05 seconds = 1310.72 Mbit/sec
 * 1000 iters in 0.05 seconds = 50.00 usec/iter
 * </pre>
 *
 * Bad options are {@code EINVAL}, an unknown device {@code ENODEV}; this class parses and
 * prints.
 */
@Component(service = RcPingpongCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ibv_rc_pingpong"})
public class RcPingpongCommand {
    static final String USAGE = "ibv_rc_pingpong [-d DEV] [-i PORT] [-g GIDIDX] [-s SIZE] [-n ITERS] [-m MTU]"
            + " [-r RXDEPTH] [-l SL] [-e] [-c] [-p TCPPORT] [HOST]"
            + " | ibv_rc_pingpong -d DEV [-i PORT] --peer-device DEV2 [-i PORT2|--peer-port PORT2]"
            + " [-s SIZE] [-n ITERS] [-g GIDIDX] [-m MTU] [-r RXDEPTH]";

    private final IbCore core;
    private final Uverbs uverbs;

    /** A command whose runs {@code uverbs} disassociates from the devices of {@code core} that go. */
    @Activate
    public RcPingpongCommand(@Reference IbCore core, @Reference Uverbs uverbs) {
        this.core = core;
        this.uverbs = uverbs;
    }

    /** For embedding and tests: runs on a device that goes leave their objects to the core. */
    public RcPingpongCommand(IbCore core) {
        this(core, null);
    }

    /** {@code ibv_rc_pingpong [options] [host]}, printed to the session's output. */
    @Descriptor("RC ping-pong with a peer process (server, or client of HOST) or between two local ports "
            + "(ibv_rc_pingpong)")
    public void ibv_rc_pingpong(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    /** Runs {@code ibv_rc_pingpong args} printing to {@code out} (the entry point for embedding and tests). */
    public void run(PrintStream out, String... args) {
        Options o = peerOptions(options(USAGE).option('r', "rx-depth", true)).parse(args);
        if (!o.has("peer-device")) {
            runPeer(core, uverbs, out, o, QpType.RC);
            return;
        }
        for (String two : new String[] {"port", "sl", "events"}) {
            if (o.has(two)) {
                throw o.error("--" + two + " needs a peer process, not --peer-device");
            }
        }
        RcPair.Config c = pairConfig(o);
        c.uverbs = uverbs;
        int size = (int) o.number("size", 4096, 1, 1 << 30);
        int iters = (int) o.number("iters", 1000, 1, Integer.MAX_VALUE);
        int rxDepth = (int) o.number("rx-depth", 500, 1, 1 << 20);
        c.mtu = mtu(o, Mtu.MTU_1024);
        c.sendDepth = 1;
        c.recvDepth = Math.min(rxDepth, iters);
        c.bufferSize = Pingpong.bufferSize(size);
        try (RcPair pair = RcPair.open(core, c)) {
            out.println(pair.a().dest(0).pingpongLine("local"));
            out.println(pair.b().dest(0).pingpongLine("remote"));
            pair.connect();
            Pingpong.run(pair, size, iters).lines().forEach(out::println);
        }
    }

    /** The options of the two-process pingpong tools: {@code -p}, {@code -l}, {@code -e}, {@code -c}. */
    static Options peerOptions(Options o) {
        return o.option('p', "port", true).option('l', "sl", true).option('e', "events", false)
                .option('c', "chk", false);
    }

    /**
     * The pingpong tools against a peer process: server without an operand, client of the
     * host operand otherwise ({@code -r} must have been declared).
     */
    static void runPeer(IbCore core, Uverbs uverbs, PrintStream out, Options o, QpType transport) {
        List<String> operands = o.operands();
        if (operands.size() > 1) {
            throw o.error("unexpected argument '" + operands.get(1) + "'");
        }
        if (o.has("peer-port")) {
            throw o.error("--peer-port needs --peer-device");
        }
        PingpongEnd.Config c = new PingpongEnd.Config();
        c.transport = transport;
        c.device = deviceName(core, o);
        c.port = (int) o.number("ib-port", 1, 1, 255);
        c.size = (int) o.number("size", transport == QpType.UD ? 1024 : 4096, 1, 1 << 30);
        c.iters = (int) o.number("iters", 1000, 1, Integer.MAX_VALUE);
        c.rxDepth = (int) o.number("rx-depth", 500, 1, 1 << 20);
        c.mtu = mtu(o, Mtu.MTU_1024);
        c.sl = (int) o.number("sl", 0, 0, 15);
        c.gidIndex = (int) o.number("gid-idx", -1, 0, 255);
        c.events = o.has("events");
        c.validate = o.has("chk");
        c.uverbs = uverbs;
        int tcpPort = (int) o.number("port", PingpongMsg.DEFAULT_PORT, 1, 65535);
        PingpongPeer.run(core, c, operands.isEmpty() ? null : operands.get(0), tcpPort, out);
    }

    /** The options both perf commands share: devices, ports, size, iterations, GID index, MTU. */
    static Options options(String usage) {
        return new Options(usage).option('d', "ib-dev", true).option('i', "ib-port", true)
                .option((char) 0, "peer-device", true).option((char) 0, "peer-port", true)
                .option('s', "size", true).option('n', "iters", true).option('g', "gid-idx", true)
                .option('m', "mtu", true);
    }

    /**
     * Devices, ports and GID index from parsed options: {@code -d} and {@code --peer-device} are
     * required; a {@code -i} before {@code --peer-device} is the local port, after it the peer's.
     */
    static RcPair.Config pairConfig(Options o) {
        RcPair.Config c = new RcPair.Config();
        boolean peerSeen = false;
        boolean peerPortSet = false;
        for (Options.Occurrence occ : o.occurrences()) {
            switch (occ.name()) {
                case "ib-dev":
                    c.deviceA = occ.value();
                    break;
                case "peer-device":
                    c.deviceB = occ.value();
                    peerSeen = true;
                    break;
                case "ib-port":
                    int port = (int) o.number("ib-port", occ.value(), 1, 255);
                    if (peerSeen) {
                        c.portB = port;
                        peerPortSet = true;
                    } else {
                        c.portA = port;
                    }
                    break;
                case "peer-port":
                    c.portB = (int) o.number("peer-port", occ.value(), 1, 255);
                    peerPortSet = true;
                    break;
                default:
                    break;
            }
        }
        if (c.deviceA == null) {
            throw o.error("-d DEV is required");
        }
        if (c.deviceB == null) {
            throw o.error("--peer-device DEV is required (both ends run here)");
        }
        if (!peerPortSet) {
            c.portB = c.deviceA.equals(c.deviceB) ? (c.portA == 1 ? 2 : 1) : c.portA;
        }
        c.gidIndex = (int) o.number("gid-idx", -1, 0, 255);
        if (!o.operands().isEmpty()) {
            throw o.error("unexpected argument '" + o.operands().get(0)
                    + "' (with --peer-device both ends run here)");
        }
        return c;
    }

    /** {@code -d}, or as the tools do without it, the first device; {@code ENODEV} if there is none. */
    static String deviceName(IbCore core, Options o) {
        String name = o.get("ib-dev", null);
        if (name != null) {
            return name;
        }
        List<IbDevice> all = core.devices();
        if (all.isEmpty()) {
            throw new RdmaException(Errno.ENODEV, "No IB devices found");
        }
        return all.get(0).name();
    }

    /** {@code -m}: 256, 512, 1024, 2048 or 4096 ({@code pp_mtu_to_enum()}); EINVAL otherwise. */
    static Mtu mtu(Options o, Mtu def) {
        String v = o.get("mtu", null);
        if (v == null) {
            return def;
        }
        long bytes = o.number("mtu", v, 256, 4096);
        for (Mtu m : Mtu.values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw o.error("invalid MTU " + v + " (256, 512, 1024, 2048 or 4096)");
    }
}
