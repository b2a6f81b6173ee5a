package org.rdma.cm.internal.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
import org.rdma.verbs.time.IbClock;

/**
 * {@code ucmatose [-s server_address] [-b bind_address] [-f ip|gid] [-P tcp|ib] [-c connections]
 * [-C message_count] [-S message_size] [-t tos] [-p port] [--loopback]}: librdmacm's
 * ucmatose. Without {@code -s} it is the server on {@code -b}; with {@code -s} the client, bound
 * to {@code -b}. {@code --loopback} runs the server on {@code -s} and the client from {@code -b}
 * in this runtime and prints both transcripts, server first. Each transcript has the tool's
 * phases, {@code return status N}, then how long connecting, the data transfers and
 * disconnecting took. The work is {@link Cmatose}; this parses and prints.
 */
@Component(service = UcmatoseCommand.class, property = {"osgi.command.scope=rdma",
    "osgi.command.function=ucmatose"})
public class UcmatoseCommand {
    static final String USAGE = "ucmatose [-s server_address] [-b bind_address] [-f ip|gid] [-P tcp|ib]"
            + " [-c connections] [-C message_count] [-S message_size] [-t tos] [-p port] [--loopback]"
            + " [--timeout SECONDS]";
    private final RdmaCmService cm;
    private final IbClock clock;

    /** A command on {@code cm}, timed by {@code clock}. */
    @Activate
    public UcmatoseCommand(@Reference RdmaCmService cm, @Reference IbClock clock) {
        this.cm = cm;
        this.clock = clock;
    }

    /** {@code ucmatose [options]}, printed to the session's output. */
    public void ucmatose(String... args) throws InterruptedException {
        run(System.out, args);
    }

    void run(PrintStream out, String... args) throws InterruptedException {
        ToolArgs a = ToolArgs.parse(args, "s:b:f:P:c:C:S:t:p:", List.of("loopback!", "timeout"), USAGE);
        boolean gid = "gid".equalsIgnoreCase(a.get("f"));
        RdmaPortSpace ps = RdmaPortSpace.TCP;
        if (a.has("P")) {
            if ("ib".equalsIgnoreCase(a.get("P"))) {
                ps = RdmaPortSpace.IB;
            } else if (!"tcp".equalsIgnoreCase(a.get("P"))) {
                throw new RdmaException(Errno.EINVAL, "ucmatose: port space tcp or ib, not " + a.get("P"));
            }
        }
        int port = a.number("p", Cmatose.PORT, 1, 0xFFFF, USAGE);
        Cmatose.Options o = new Cmatose.Options();
        o.ps = ps;
        o.connections = a.number("c", 1, 1, 100_000, USAGE);
        o.messageCount = a.number("C", 10, 0, 1 << 20, USAGE);
        o.messageSize = a.number("S", 100, 0, 1 << 24, USAGE);
        o.tos = a.number("t", -1, -1, 255, USAGE);
        boolean loopback = a.has("loopback");
        long timeoutS = a.number("timeout", loopback ? 120 : 0, 0, Integer.MAX_VALUE, USAGE);
        String server = a.get("s");
        String bind = a.get("b");
        if (loopback) {
            if (server == null) {
                throw new RdmaException(Errno.EINVAL, "ucmatose --loopback needs -s server_address; usage: " + USAGE);
            }
            Cmatose.Options so = copy(o);
            so.src = ToolAddr.parse(server, port, gid, ps);
            o.dst = so.src;
            o.src = bind == null ? null : ToolAddr.parse(bind, 0, gid, ps);
            loopback(out, so, o, timeoutS);
            return;
        }
        if (server != null) {
            o.dst = ToolAddr.parse(server, port, gid, ps);
            o.src = bind == null ? null : ToolAddr.parse(bind, 0, gid, ps);
        } else {
            o.src = bind == null ? ToolAddr.any(null, port, ps) : ToolAddr.parse(bind, port, gid, ps);
        }
        o.out = out;
        Cmatose t = Cmatose.start(cm, clock, o);
        int ret = await(t.done(), timeoutS);
        report(out, t, ret);
    }

    private static Cmatose.Options copy(Cmatose.Options o) {
        Cmatose.Options c = new Cmatose.Options();
        c.ps = o.ps;
        c.connections = o.connections;
        c.messageCount = o.messageCount;
        c.messageSize = o.messageSize;
        c.tos = o.tos;
        return c;
    }

    private void loopback(PrintStream out, Cmatose.Options so, Cmatose.Options co, long timeoutS)
            throws InterruptedException {
        ByteArrayOutputStream sbuf = new ByteArrayOutputStream();
        ByteArrayOutputStream cbuf = new ByteArrayOutputStream();
        so.out = new PrintStream(sbuf, true, StandardCharsets.UTF_8);
        co.out = new PrintStream(cbuf, true, StandardCharsets.UTF_8);
        Cmatose server = Cmatose.start(cm, clock, so);
        Cmatose client;
        try {
            client = Cmatose.start(cm, clock, co);
        } catch (RdmaException e) {
            server.close();
            throw e;
        }
        int cret = await(client.done(), timeoutS);
        int sret = await(server.done(), timeoutS);
        out.println("ucmatose -s " + ToolAddr.text(so.src) + " (server)");
        report(new PrintStream(sbuf, true, StandardCharsets.UTF_8), server, sret);
        out.print(sbuf.toString(StandardCharsets.UTF_8));
        out.println();
        out.println("ucmatose -s " + ToolAddr.text(co.dst) + (co.src == null ? "" : " -b " + ToolAddr.text(co.src))
                + " (client)");
        report(new PrintStream(cbuf, true, StandardCharsets.UTF_8), client, cret);
        out.print(cbuf.toString(StandardCharsets.UTF_8));
        if (sret != 0 || cret != 0) {
            throw new RdmaException(Errno.of(sret != 0 ? sret : cret), "ucmatose: return status "
                    + (sret != 0 ? sret : cret));
        }
    }

    private static void report(PrintStream out, Cmatose t, int ret) {
        out.println("test complete");
        t.close();
        out.println("return status " + ret);
        out.print(t.timings());
    }

    private static int await(CompletableFuture<Integer> f, long timeoutS) throws InterruptedException {
        try {
            return timeoutS > 0 ? f.get(timeoutS, TimeUnit.SECONDS) : f.get();
        } catch (TimeoutException e) {
            return Errno.ETIMEDOUT.negative();
        } catch (ExecutionException e) {
            return Errno.EIO.negative();
        }
    }

}
