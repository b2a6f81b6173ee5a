package org.rdma.fabric.internal.shell;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code rdma:capture [-f FABRIC] start LINK FILE | stop LINK | list}: packet capture on a link
 * of the simulated fabric, what {@code ibdump -w FILE} does on an HCA port (InfiniBand links:
 * pcap with LINKTYPE_ERF, ERF type 21) and {@code tcpdump -w FILE} on a RoCE port (Ethernet
 * pcap). The fabric writes the file; tshark and Wireshark read it.
 *
 * <pre>
 * g! rdma:capture start sw0/3 /tmp/sw0-3.pcap
 * capturing sw0/3 &lt;-&gt; host1/1 to /tmp/sw0-3.pcap
 * g! rdma:capture stop sw0/3
 * default sw0/3 &lt;-&gt; host1/1 file /tmp/sw0-3.pcap packets 42 stopped
 * </pre>
 *
 * LINK is either end, {@code NODE/PORT}. An unknown fabric or link is {@code ENODEV}, bad
 * arguments {@code EINVAL}. The work is {@link FabricTools}'; this class parses and prints.
 */
@Component(service = CaptureCommand.class,
        property = {"osgi.command.scope=rdma", "osgi.command.function=capture"})
public class CaptureCommand {
    static final String USAGE = "rdma:capture [-f FABRIC] start LINK FILE | stop LINK | list";

    private final FabricTools tools;

    /** A command working through {@code tools}. */
    @Activate
    public CaptureCommand(@Reference FabricTools tools) {
        this.tools = tools;
    }

    /** {@code rdma:capture ...}, printed to the session's output. */
    @Descriptor("start or stop a pcap capture of a simulated fabric link (ibdump, tcpdump -w)")
    public void capture(@Descriptor(USAGE) String... args) {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) {
        FabricArgs o = FabricArgs.parse(USAGE, args);
        List<String> a = o.operands();
        String fabric = o.fabric();
        if (a.isEmpty()) {
            throw o.error("start, stop or list?");
        }
        switch (a.get(0)) {
            case "start":
                if (a.size() != 3) {
                    throw o.error("start needs LINK and FILE");
                }
                Path file = Path.of(a.get(2)).toAbsolutePath();
                out.println("capturing " + tools.startCapture(fabric, a.get(1), file) + " to " + file);
                break;
            case "stop":
                if (a.size() != 2) {
                    throw o.error("stop needs LINK");
                }
                out.println(tools.stopCapture(fabric, a.get(1)));
                break;
            case "list":
                if (a.size() != 1) {
                    throw o.error("list takes no arguments");
                }
                List<String> lines = tools.captures();
                if (lines.isEmpty()) {
                    out.println("no captures");
                }
                lines.forEach(out::println);
                break;
            default:
                throw o.error("unknown action '" + a.get(0) + "'");
        }
    }
}
