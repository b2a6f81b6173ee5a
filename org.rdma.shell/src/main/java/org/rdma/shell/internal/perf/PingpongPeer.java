package org.rdma.shell.internal.perf;

import java.io.PrintStream;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.RdmaException;

/**
 * A whole run of {@code ibv_rc_pingpong} or {@code ibv_ud_pingpong} against a peer process, in
 * the order of rdma-core's {@code main()}: build the end ({@link PingpongEnd}), print the local
 * address, exchange addresses over TCP ({@link OobChannel}, {@link PingpongMsg}), print the
 * remote address, connect, run, print the two result lines.
 *
 * <p>The server connects its QP before it answers (so the client's first message finds it
 * ready) and waits for the client's {@code "done"}; the client connects after the exchange and
 * sends first. Unlike the tool, the server opens its listening socket before printing its
 * address, so a client started on that line cannot find the port closed.
 */
public final class PingpongPeer {
    private PingpongPeer() {
    }

    /**
     * Runs one end: the server when {@code server} is {@code null} (listening on TCP
     * {@code tcpPort}), otherwise the client connecting to {@code server}:{@code tcpPort}.
     * Prints what the tool prints to {@code out}.
     */
    public static Pingpong.Result run(IbCore core, PingpongEnd.Config config, String server, int tcpPort,
            PrintStream out) {
        try (PingpongEnd end = PingpongEnd.open(core, config)) {
            RcPair.Dest remote;
            if (server == null) {
                try (OobChannel.Listener listener = OobChannel.listen(tcpPort)) {
                    out.println(end.localLine());
                    out.flush();
                    try (OobChannel ch = listener.accept()) {
                        remote = PingpongMsg.decode(ch.read(PingpongMsg.SIZE));
                        end.connect(remote);
                        ch.write(PingpongMsg.encode(end.local()));
                        if (!PingpongMsg.isDone(ch.read(PingpongMsg.DONE_SIZE))) {
                            throw new RdmaException(Errno.EPROTO, "Couldn't send/recv local address: no \"done\"");
                        }
                    }
                }
            } else {
                out.println(end.localLine());
                out.flush();
                try (OobChannel ch = OobChannel.connect(server, tcpPort)) {
                    ch.write(PingpongMsg.encode(end.local()));
                    remote = PingpongMsg.decode(ch.read(PingpongMsg.SIZE));
                    ch.write(PingpongMsg.done());
                }
            }
            out.println(remote.pingpongLine("remote"));
            out.flush();
            if (server != null) {
                end.connect(remote);
            }
            Pingpong.Result r = end.run(server != null);
            r.lines().forEach(out::println);
            out.flush();
            return r;
        }
    }
}
