package org.rdma.cm.internal.tools;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * {@code mckey -m multicast_address [-M unmapped_multicast_address] [-s] [-b bind_address]
 * [-c connections] [-C message_count] [-S message_size] [-p port_space] [-o]}: librdmacm's mckey
 * (rdma-core 44's options but {@code -l}, which needs a QP that does not loop its own multicast
 * back). Without {@code -s} it joins and receives {@code -C} datagrams of {@code -S} bytes; with
 * {@code -s} it joins and sends them to the group; {@code -o} joins as a send-only member. {@code -p} is {@code 0x111} (UDP, the default) or {@code 0x2}
 * (IPoIB). Ours: {@code --timeout SECONDS} ends a receiver still waiting (mckey waits for ever)
 * with {@code ETIMEDOUT}, {@code --pause MS} replaces mckey's three-second pause after the joins.
 * Prints what mckey prints, ending with {@code test complete} and {@code return status N}. The
 * work is {@link McKey}; this parses and prints.
 */
@Component(service = MckeyCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=mckey"})
public class MckeyCommand {
    static final String USAGE = "mckey -m multicast_address [-M unmapped_multicast_address (replaces -m and requires"
            + " -b)] [-s(ender)] [-b bind_address] [-c connections] [-C message_count] [-S message_size]"
            + " [-p port_space - 0x111 for UDP (default), 0x2 for IPOIB] [-o join as a send-only full-member]"
            + " [--timeout SECONDS] [--pause MS]";
    private final RdmaCmService cm;
    private final IbClock clock;

    /** A command on {@code cm}, timed by {@code clock}. */
    @Activate
    public MckeyCommand(@Reference RdmaCmService cm, @Reference IbClock clock) {
        this.cm = cm;
        this.clock = clock;
    }

    /** {@code mckey [options]}, printed to the session's output. */
    public void mckey(String... args) throws InterruptedException {
        int status = run(System.out, args);
        if (status != 0) {
            throw new RdmaException(Errno.of(status), "mckey: return status " + status);
        }
    }

    /** Runs the tool, printing to {@code out}; returns its return status. */
    public int run(PrintStream out, String... args) throws InterruptedException {
        ToolArgs a = ToolArgs.parse(args, SPEC, LONGS, USAGE);
        McKey.Options o = options(a);
        long timeoutS = a.number("timeout", 0, 0, Integer.MAX_VALUE, USAGE);
        o.out = out;
        McKey t = McKey.start(cm, clock, o);
        int ret;
        try {
            ret = timeoutS > 0 ? t.done().get(timeoutS, TimeUnit.SECONDS) : t.done().get();
        } catch (TimeoutException e) {
            t.abort(Errno.ETIMEDOUT.negative());
            ret = t.done().getNow(Errno.ETIMEDOUT.negative());
        } catch (ExecutionException e) {
            ret = Errno.EIO.negative();
        } catch (InterruptedException e) {
            t.abort(Errno.EINTR.negative());
            t.close();
            throw e;
        }
        out.println("test complete");
        t.close();
        out.println("return status " + ret);
        return ret;
    }

    private static final String SPEC = "m:M:sb:c:C:S:p:o";
    private static final List<String> LONGS = List.of("timeout", "pause");

    /** mckey's options, checked as mckey checks them. */
    static McKey.Options options(ToolArgs a) {
        McKey.Options o = new McKey.Options();
        int ps = a.number("p", RdmaPortSpace.UDP.value, 0, 0xFFFF, USAGE);
        if (ps == RdmaPortSpace.UDP.value) {
            o.ps = RdmaPortSpace.UDP;
        } else if (ps == RdmaPortSpace.IPOIB.value) {
            o.ps = RdmaPortSpace.IPOIB;
        } else {
            throw new RdmaException(Errno.EINVAL, "mckey: port space 0x111 (UDP) or 0x2 (IPoIB), not 0x"
                    + Integer.toHexString(ps));
        }
        o.sender = a.has("s");
        o.sendOnly = a.has("o");
        o.connections = a.number("c", 1, 1, 1024, USAGE);
        o.messageCount = a.number("C", 10, 0, 1 << 20, USAGE);
        o.messageSize = a.number("S", 100, 0, 1 << 16, USAGE);
        o.pauseMs = a.number("pause", 3000, 0, Integer.MAX_VALUE, USAGE);
        if (a.has("b")) {
            o.src = ToolAddr.parse(a.get("b"), 0, false, o.ps);
        }
        if (a.has("M")) {
            RdmaException.check(o.src != null, Errno.EINVAL, "unmapped multicast address requires binding to source"
                    + " address");
            o.unmapped = true;
            o.dst = IbSocketAddress.of(Gid.parse(a.get("M")), o.ps, 0);
        } else if (a.has("m")) {
            o.dst = ToolAddr.parse(a.get("m"), 0, false, o.ps);
        } else {
            throw new RdmaException(Errno.EINVAL, "mckey: -m multicast_address is required; usage: " + USAGE);
        }
        return o;
    }
}
