package org.rdma.cm.internal.tools;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * {@code rping -s|-c|--loopback [-vVd] [-S size] [-C count] [-a addr] [-I addr] [-p port] [-f gid]}:
 * librdmacm's rping. {@code -s} serves one connection on {@code -a} (default any address),
 * {@code -c} connects to {@code -a} from {@code -I} and pings {@code -C} times (0: until
 * interrupted); {@code --loopback} runs both in this runtime and prints a summary. With
 * {@code -f gid} the addresses are InfiniBand GIDs ({@code AF_IB}: InfiniBand ports carry no IP
 * addresses here). Output is the tool's: {@code ping data: rdma-ping-N: ...} with {@code -v},
 * the CM and completion trace with {@code -d}. The work is {@link Rping}; this parses and prints.
 */
@Component(service = RpingCommand.class, property = {"osgi.command.scope=rdma", "osgi.command.function=rping"})
public class RpingCommand {
    static final String USAGE = "rping -s|-c|--loopback [-vVd] [-S size] [-C count] [-a addr] [-I addr] [-p port]"
            + " [-f ip|gid] [--timeout SECONDS]";
    private final RdmaCmService cm;

    /** A command on {@code cm}. */
    @Activate
    public RpingCommand(@Reference RdmaCmService cm) {
        this.cm = cm;
    }

    /** {@code rping [options]}, printed to the session's output. */
    public void rping(String... args) throws InterruptedException {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) throws InterruptedException {
        ToolArgs a = ToolArgs.parse(args, "a:I:p:C:S:scvVdf:", List.of("loopback!", "timeout"), USAGE);
        boolean loopback = a.has("loopback");
        if (a.has("s") == a.has("c") && !loopback || loopback && (a.has("s") || a.has("c"))) {
            throw new RdmaException(Errno.EINVAL, "rping: one of -s, -c or --loopback; usage: " + USAGE);
        }
        boolean gid = "gid".equalsIgnoreCase(a.get("f"));
        if (a.has("f") && !gid && !"ip".equalsIgnoreCase(a.get("f"))) {
            throw new RdmaException(Errno.EINVAL, "rping: address format ip or gid, not " + a.get("f"));
        }
        int port = a.number("p", Rping.PORT, 0, 0xFFFF, USAGE);
        Rping.Options o = new Rping.Options();
        o.out = out;
        o.size = a.number("S", 64, Rping.MIN_SIZE, Rping.MAX_SIZE, USAGE);
        o.count = a.number("C", 0, 0, Integer.MAX_VALUE, USAGE);
        o.verbose = a.has("v");
        o.validate = a.has("V");
        o.debug = a.has("d");
        String addr = a.get("a");
        if (addr == null && (a.has("c") || loopback)) {
            throw new RdmaException(Errno.EINVAL, "rping: the client needs -a ADDR; usage: " + USAGE);
        }
        o.addr = addr == null ? ToolAddr.any(null, port, RdmaPortSpace.TCP)
                : ToolAddr.parse(addr, port, gid, RdmaPortSpace.TCP);
        o.src = a.get("I") == null ? null : ToolAddr.parse(a.get("I"), 0, gid, RdmaPortSpace.TCP);
        long timeoutS = a.number("timeout", loopback ? 60 : 0, 0, Integer.MAX_VALUE, USAGE);
        if (loopback) {
            loopback(out, o, timeoutS);
        } else {
            Rping.Session s = a.has("s") ? Rping.server(cm, o) : Rping.client(cm, o);
            finish(s, await(s.done(), a.has("s"), timeoutS));
        }
    }

    private void loopback(PrintStream out, Rping.Options o, long timeoutS) throws InterruptedException {
        Rping.Options so = new Rping.Options();
        so.addr = o.addr;
        so.size = o.size;
        so.verbose = o.verbose;
        so.debug = o.debug;
        so.out = out;
        long t0 = System.nanoTime();
        Rping.Session server = Rping.server(cm, so);
        Rping.Session client;
        try {
            client = Rping.client(cm, o);
        } catch (RdmaException e) {
            server.close();
            throw e;
        }
        Rping.Result cr = await(client.done(), false, timeoutS);
        Rping.Result sr = await(server.done(), true, timeoutS);
        double secs = (System.nanoTime() - t0) / 1e9;
        finish(client, cr);
        finish(server, sr);
        out.printf(Locale.ROOT, "rping: %d pings of %d bytes to %s in %.2f s, %d validated%n", cr.pings(), o.size,
                ToolAddr.text(o.addr), secs, cr.validated());
    }

    /** The end of a session; one that has not ended within {@code timeoutS} fails as the side it is. */
    private static Rping.Result await(CompletableFuture<Rping.Result> f, boolean server, long timeoutS)
            throws InterruptedException {
        try {
            return timeoutS > 0 ? f.get(timeoutS, TimeUnit.SECONDS) : f.get();
        } catch (TimeoutException e) {
            return new Rping.Result(server, 0, 0, "timed out after " + timeoutS + " s (--timeout)",
                    Errno.ETIMEDOUT);
        } catch (ExecutionException e) {
            return new Rping.Result(server, 0, 0, String.valueOf(e.getCause()), Errno.EIO);
        }
    }

    private static void finish(Rping.Session s, Rping.Result r) {
        s.close();
        if (!r.ok()) {
            throw new RdmaException(r.errno() == null ? Errno.EIO : r.errno(),
                    "rping " + (r.server() ? "server" : "client") + " failed: " + r.error());
        }
    }
}
