package org.rdma.shell.internal;

import java.io.PrintStream;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.shell.internal.perf.Pingpong;
import org.rdma.shell.internal.perf.RcPair;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.Mtu;

/**
 * {@code ibv_rc_pingpong -d DEV [-i PORT] --peer-device DEV2 [-i PORT2] [-s SIZE] [-n ITERS]
 * [-g GIDIDX] [-m MTU]}: rdma-core's {@code ibv_rc_pingpong}
 * ({@code libibverbs/examples/rc_pingpong.c}) with both ends in this runtime: the tool's client
 * on {@code -d}, its server on {@code --peer-device} (a {@code -i} after {@code --peer-device},
 * or {@code --peer-port}, is the peer's port; the same device with another port works too). It
 * prints the address lines and the two result lines of the tool:
 *
 * <pre>
 *   local address:  LID 0x0001, QPN 0x000011, PSN 0x3a3f1e, GID ::
 *   remote address: LID 0x0002, QPN 0x000012, PSN 0x0b1d2c, GID ::
 * 8192000 bytes in 0.05 seconds = 1310.72 Mbit/sec
 * 1000 iters in 0.05 seconds = 50.00 usec/iter
 * </pre>
 *
 * Every message is checked byte for byte. Bad options are {@code EINVAL}, an unknown device
 * {@code ENODEV}. The work is {@link RcPair} and {@link Pingpong}; this class parses and prints.
 */
@Component(service = RcPingpongCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=ibv_rc_pingpong"})
public class RcPingpongCommand {
    static final String USAGE = "ibv_rc_pingpong -d DEV [-i PORT] --peer-device DEV2 [-i PORT2|--peer-port PORT2]"
            + " [-s SIZE] [-n ITERS] [-g GIDIDX] [-m MTU] [-r RXDEPTH]";

    private final IbCore core;

    /** A command using the devices of {@code core}. */
    @Activate
    public RcPingpongCommand(@Reference IbCore core) {
        this.core = core;
    }

    /** {@code ibv_rc_pingpong [options]}, printed to the session's output. */
    @Descriptor("RC ping-pong between two local device ports, data checked (ibv_rc_pingpong)")
    public void ibv_rc_pingpong(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        Options o = options(USAGE).option('r', "rx-depth", true).parse(args);
        RcPair.Config c = pairConfig(o);
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
                    + "' (there is no server host: give --peer-device)");
        }
        return c;
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
