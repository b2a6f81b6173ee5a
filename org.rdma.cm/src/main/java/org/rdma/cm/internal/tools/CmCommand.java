package org.rdma.cm.internal.tools;

import java.io.PrintStream;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.cm.rdma.RdmaCmIdDTO;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * {@code rdma:cm [DEV]}: every RDMA CM id with its state, as iproute2's {@code rdma res show
 * cm_id} prints them, e.g.
 *
 * <pre>
 * link mlx4_1/2 cm-idn 3 lqpn 19 qp-type RC state CONNECT ps TCP comm [org.rdma.cm] src-addr 192.168.10.2:7174 dst-addr 192.168.10.1:40112
 * </pre>
 *
 * Ids bound to no device yet (an unbound id, a wildcard listener) show {@code link -}. The data
 * come from {@link RdmaCmService#ids()}.
 */
@Component(service = CmCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=cm"})
public class CmCommand {
    static final String USAGE = "rdma:cm [DEV]";
    private final RdmaCmService cm;

    /** A listing of {@code cm}'s ids. */
    @Activate
    public CmCommand(@Reference RdmaCmService cm) {
        this.cm = cm;
    }

    /** {@code rdma:cm [DEV]}. */
    public void cm(String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        if (args.length > 1) {
            throw new RdmaException(Errno.EINVAL, "too many arguments; usage: " + USAGE);
        }
        String dev = args.length == 1 ? args[0] : null;
        boolean any = false;
        for (RdmaCmIdDTO d : cm.ids()) {
            if (dev != null && !dev.equals(d.device)) {
                continue;
            }
            any = true;
            out.println(line(d));
        }
        if (dev != null && !any && cm.ids().stream().noneMatch(d -> dev.equals(d.device))) {
            out.println("no cm_id on " + dev);
        }
    }

    /** One id in {@code rdma res show cm_id}'s format. */
    static String line(RdmaCmIdDTO d) {
        StringBuilder sb = new StringBuilder();
        sb.append("link ").append(d.device == null ? "-" : d.device + "/" + d.port);
        sb.append(" cm-idn ").append(d.cmIdn);
        if (d.lqpn != 0) {
            sb.append(" lqpn ").append(d.lqpn);
        }
        sb.append(" qp-type ").append(d.qpType);
        sb.append(" state ").append(d.state);
        sb.append(" ps ").append(d.ps);
        sb.append(" comm [").append(d.owner).append(']');
        if (d.srcAddr != null) {
            sb.append(" src-addr ").append(d.srcAddr);
        }
        if (d.dstAddr != null) {
            sb.append(" dst-addr ").append(d.dstAddr);
        }
        return sb.toString();
    }
}
