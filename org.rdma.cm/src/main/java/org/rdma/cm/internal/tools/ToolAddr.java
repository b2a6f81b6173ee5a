package org.rdma.cm.internal.tools;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * The tools' {@code getaddrinfo()} / {@code rdma_getaddrinfo()}: an IP address or host name, or
 * with the {@code gid} format ({@code -f gid}, as cmatose has it) an InfiniBand GID, which makes
 * an {@code AF_IB} address whose service ID carries the port in the port space.
 */
final class ToolAddr {
    private ToolAddr() {
    }

    static SocketAddress parse(String text, int port, boolean gid, RdmaPortSpace ps) {
        if (gid) {
            return IbSocketAddress.of(Gid.parse(text), ps, port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(text.trim()), port);
        } catch (UnknownHostException e) {
            throw new RdmaException(Errno.EINVAL, "getaddrinfo failed - invalid hostname or IP address: " + text);
        }
    }

    /** The wildcard of the same kind as {@code like}. */
    static SocketAddress any(SocketAddress like, int port, RdmaPortSpace ps) {
        if (like instanceof IbSocketAddress) {
            return IbSocketAddress.of(Gid.ZERO, ps, port);
        }
        return new InetSocketAddress(port);
    }

    /** {@code address:port} or {@code GID/sid}. */
    static String text(SocketAddress a) {
        if (a instanceof InetSocketAddress s) {
            return s.getAddress().getHostAddress() + ":" + s.getPort();
        }
        return String.valueOf(a);
    }
}
