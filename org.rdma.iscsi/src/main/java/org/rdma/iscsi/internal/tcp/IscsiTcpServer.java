package org.rdma.iscsi.internal.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.iscsi.internal.target.IscsiTarget;
import org.rdma.iscsi.internal.target.PduHandler;
import org.rdma.iscsi.internal.target.Transport;

/**
 * The TCP side of an iSCSI target (LIO's {@code iscsi_np} threads, on NIO instead): network
 * portals bound on demand and shared by the TPGs that use the same address, connections spread
 * over a fixed set of selector loops, and the engine's timers run once a second on the first loop.
 * Each accepted connection gets a login handler from the {@link LoginFactory}; the login hands it
 * to the engine when it succeeds.
 */
public final class IscsiTcpServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(IscsiTcpServer.class.getName());

    /** Makes the handler of a new connection's login phase. */
    @FunctionalInterface
    public interface LoginFactory {
        /**
         * @param transport the new connection
         * @param portal the portal (listening address) it arrived on, as the engine knows it
         */
        PduHandler newLogin(Transport transport, InetSocketAddress portal);
    }

    private final IscsiTarget target;
    private final LoginFactory logins;
    private final List<SelectorLoop> loops = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    private final Map<InetSocketAddress, Listener> listeners = new HashMap<>();
    private final Set<TcpConnection> connections = ConcurrentHashMap.newKeySet();

    /** A bound portal and the TPGs that use it. */
    private final class Listener implements SelectorLoop.Ready {
        final ServerSocketChannel channel;
        final InetSocketAddress address;
        int users;
        SelectionKey key;

        Listener(ServerSocketChannel channel, InetSocketAddress address) {
            this.channel = channel;
            this.address = address;
        }

        @Override
        public void ready(SelectionKey k) throws IOException {
            for (SocketChannel ch; (ch = channel.accept()) != null;) {
                accepted(ch, address);
            }
        }

        @Override
        public void failed(IOException e) {
            LOG.log(Level.WARNING, "portal " + address + " failed", e);
        }
    }

    /**
     * @param threads selector loops (at least 1); a few serve any number of connections
     */
    public IscsiTcpServer(IscsiTarget target, LoginFactory logins, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("EINVAL: " + threads + " selector threads");
        }
        this.target = target;
        this.logins = logins;
        for (int i = 0; i < threads; i++) {
            loops.add(new SelectorLoop("iscsi-tcp-" + i, i == 0 ? target::tick : null));
        }
        loops.forEach(SelectorLoop::start);
    }

    /**
     * Opens a network portal for the TPG {@code targetName}/{@code tag} (targetcli's
     * {@code portals create ADDR PORT}): binds {@code address} unless another TPG has, and
     * registers the portal with the engine. Port 0 binds an ephemeral port.
     *
     * @return the bound address (the engine's portal)
     * @throws IOException EADDRINUSE and the like from bind
     */
    public synchronized InetSocketAddress addPortal(String targetName, int tag, InetSocketAddress address)
            throws IOException {
        Listener l = address.getPort() == 0 ? null : listeners.get(address);
        if (l == null) {
            ServerSocketChannel ch = ServerSocketChannel.open();
            try {
                ch.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
                ch.bind(address, 128);
                ch.configureBlocking(false);
            } catch (IOException e) {
                ch.close();
                throw new IOException("EADDRINUSE: cannot bind portal " + address + ": " + e.getMessage(), e);
            }
            Listener nl = new Listener(ch, (InetSocketAddress) ch.getLocalAddress());
            onLoop(loops.get(0), () -> nl.key = loops.get(0).register(ch, SelectionKey.OP_ACCEPT, nl));
            listeners.put(nl.address, nl);
            l = nl;
        }
        l.users++;
        target.addPortal(targetName, tag, l.address);
        return l.address;
    }

    /** Closes the TPG's portal; the listener goes when no TPG uses it. Open connections stay. */
    public synchronized void removePortal(String targetName, int tag, InetSocketAddress address) throws IOException {
        Listener l = listeners.get(address);
        if (l == null || !target.removePortal(targetName, tag, address)) {
            throw new IOException("ENOENT: no portal " + address + " on " + targetName + " tpg " + tag);
        }
        if (--l.users == 0) {
            listeners.remove(address);
            onLoop(loops.get(0), () -> {
                if (l.key != null) {
                    l.key.cancel();
                }
                l.channel.close();
            });
        }
    }

    /** Connections open now (login or full feature phase). */
    public int connections() {
        return connections.size();
    }

    /** Connections not read for now because their peer does not take what is sent (back-pressure). */
    public int pausedConnections() {
        return (int) connections.stream().filter(TcpConnection::readPaused).count();
    }

    private void accepted(SocketChannel ch, InetSocketAddress portal) {
        SelectorLoop loop = loops.get(Math.floorMod(next.getAndIncrement(), loops.size()));
        try {
            TcpConnection[] holder = new TcpConnection[1];
            TcpConnection c = new TcpConnection(ch, loop, () -> connections.remove(holder[0]));
            holder[0] = c;
            connections.add(c);
            PduHandler login = logins.newLogin(c, portal);
            loop.execute(() -> {
                try {
                    c.start(login);
                } catch (IOException e) {
                    c.failed(e);
                }
            });
        } catch (IOException e) {
            LOG.log(Level.FINE, "accept from " + portal + " failed", e);
            try {
                ch.close();
            } catch (IOException ignored) {
                // gone anyway
            }
        }
    }

    /** Runs {@code task} on {@code loop} and waits for it (registration must happen on the loop's thread). */
    private static void onLoop(SelectorLoop loop, IoTask task) throws IOException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                task.run();
                done.complete(null);
            } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("EINTR: interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("ETIMEDOUT: the selector loop did not answer", e);
        }
    }

    @FunctionalInterface
    private interface IoTask {
        void run() throws IOException;
    }

    /** Closes every portal and connection and stops the loops. */
    @Override
    public synchronized void close() {
        for (Listener l : listeners.values()) {
            try {
                l.channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        listeners.clear();
        connections.forEach(TcpConnection::abort);
        loops.forEach(SelectorLoop::stop);
    }
}
