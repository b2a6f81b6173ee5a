package org.rdma.shell.internal.perf;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The TCP connection over which the C tools exchange their addresses before any RDMA traffic
 * (rdma-core's pingpong examples and perftest without {@code -R}): the server listens on the
 * wildcard address (both IPv4 and IPv6 where the host is dual-stack), accepts one connection and
 * stops listening; the client tries each address of the host name in turn, as
 * {@code getaddrinfo()} and the tools' connect loop do. Messages are fixed-size byte arrays;
 * {@link #exchange} is the tools' symmetric step (client writes then reads, server reads then
 * writes).
 *
 * <p>Blocking channels, so a thread interrupt (Ctrl-C in the shell) ends any wait. Failures are
 * {@link RdmaException}s: {@code ECONNREFUSED} when nobody listens, {@code EADDRINUSE} when
 * the port is taken, {@code ECONNRESET} when the peer goes away mid-exchange, {@code EINTR}
 * when interrupted.
 */
public final class OobChannel implements AutoCloseable {
    private final SocketChannel ch;
    private final boolean client;

    private OobChannel(SocketChannel ch, boolean client) {
        this.ch = ch;
        this.client = client;
    }

    /** A listening socket that accepts one connection. */
    public static final class Listener implements AutoCloseable {
        private final ServerSocketChannel server;
        private final int port;

        private Listener(ServerSocketChannel server, int port) {
            this.server = server;
            this.port = port;
        }

        /** The port it listens on. */
        public int port() {
            return port;
        }

        /** Waits for the client, then stops listening (the tools accept exactly one connection). */
        public OobChannel accept() {
            try {
                SocketChannel c = server.accept();
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                return new OobChannel(c, false);
            } catch (ClosedByInterruptException e) {
                throw new RdmaException(Errno.EINTR, "interrupted while waiting for a client on port " + port);
            } catch (IOException e) {
                throw new RdmaException(Errno.EIO, "accept() failed on port " + port + ": " + e.getMessage());
            } finally {
                close();
            }
        }

        @Override
        public void close() {
            try {
                server.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** Listens on TCP {@code port} of every local address, with {@code SO_REUSEADDR} as the tools set. */
    public static Listener listen(int port) {
        ServerSocketChannel s = null;
        try {
            s = ServerSocketChannel.open();
            s.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            s.bind(new InetSocketAddress(port), 1);
            return new Listener(s, ((InetSocketAddress) s.getLocalAddress()).getPort());
        } catch (IOException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // reporting the first failure
                }
            }
            throw new RdmaException(Errno.EADDRINUSE, "Couldn't listen to port " + port + ": " + e.getMessage());
        }
    }

    /** Connects to {@code host}:{@code port}, trying each of the host's addresses in turn. */
    public static OobChannel connect(String host, int port) {
        InetAddress[] addrs;
        try {
            addrs = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new RdmaException(Errno.EINVAL, "Name or service not known for " + host + ":" + port);
        }
        IOException last = null;
        for (InetAddress a : addrs) {
            SocketChannel c = null;
            try {
                c = SocketChannel.open();
                c.connect(new InetSocketAddress(a, port));
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                return new OobChannel(c, true);
            } catch (ClosedByInterruptException e) {
                throw new RdmaException(Errno.EINTR, "interrupted while connecting to " + host + ":" + port);
            } catch (IOException e) {
                last = e;
                if (c != null) {
                    try {
                        c.close();
                    } catch (IOException ignored) {
                        // trying the next address
                    }
                }
            }
        }
        Errno errno = last instanceof ConnectException ? Errno.ECONNREFUSED : Errno.EHOSTUNREACH;
        throw new RdmaException(errno, "Couldn't connect to " + host + ":" + port
                + (last != null ? " (" + last.getMessage() + ")" : ""));
    }

    /** Whether this is the connecting side. */
    public boolean isClient() {
        return client;
    }

    /** Sends {@code msg} whole. */
    public void write(byte[] msg) {
        ByteBuffer b = ByteBuffer.wrap(msg);
        try {
            while (b.hasRemaining()) {
                ch.write(b);
            }
        } catch (ClosedByInterruptException e) {
            throw new RdmaException(Errno.EINTR, "interrupted while writing to the peer");
        } catch (IOException e) {
            throw new RdmaException(Errno.ECONNRESET, "Couldn't send to the peer: " + e.getMessage());
        }
    }

    /** Reads exactly {@code n} bytes; {@code ECONNRESET} if the peer closes first. */
    public byte[] read(int n) {
        ByteBuffer b = ByteBuffer.allocate(n);
        try {
            while (b.hasRemaining()) {
                if (ch.read(b) < 0) {
                    throw new RdmaException(Errno.ECONNRESET, b.position() + "/" + n
                            + ": Couldn't read from the peer (connection closed)");
                }
            }
        } catch (ClosedByInterruptException e) {
            throw new RdmaException(Errno.EINTR, "interrupted while reading from the peer");
        } catch (IOException e) {
            throw new RdmaException(Errno.ECONNRESET, "Couldn't read from the peer: " + e.getMessage());
        }
        return b.array();
    }

    /**
     * One symmetric step: the client sends {@code mine} and then reads {@code theirs} bytes, the
     * server reads first and then sends. Returns what the peer sent.
     */
    public byte[] exchange(byte[] mine, int theirs) {
        if (client) {
            write(mine);
            return read(theirs);
        }
        byte[] got = read(theirs);
        write(mine);
        return got;
    }

    @Override
    public void close() {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
