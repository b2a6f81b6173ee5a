package org.rdma.cm.internal.rdma;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import org.rdma.cm.rdma.IbSocketAddress;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * Socket-address helpers of cma.c: {@code cma_zero_addr()}, {@code cma_loopback_addr()},
 * {@code cma_any_addr()}, {@code cma_port()}, {@code cma_addr_cmp()}, {@code rdma_ip2gid()} and the
 * family of an address ({@code AF_INET}, {@code AF_INET6}, {@code AF_IB}).
 */
final class CmaAddr {
    /** Address families as the kernel numbers them. */
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int AF_IB = 27;

    private CmaAddr() {
    }

    /** The family of {@code a}; EINVAL ({@code EAFNOSUPPORT}) for another kind of address. */
    static int family(SocketAddress a) {
        if (a instanceof IbSocketAddress) {
            return AF_IB;
        }
        if (a instanceof InetSocketAddress s && s.getAddress() != null) {
            return s.getAddress() instanceof Inet4Address ? AF_INET : AF_INET6;
        }
        throw new RdmaException(Errno.EINVAL, "address family not supported (EAFNOSUPPORT): " + a
                + "; use an IPv4/IPv6 InetSocketAddress or an IbSocketAddress");
    }

    /** {@code cma_zero_addr()}. */
    static boolean isZero(SocketAddress a) {
        if (a instanceof IbSocketAddress ib) {
            return ib.gid().isZero();
        }
        return ((InetSocketAddress) a).getAddress().isAnyLocalAddress();
    }

    /** {@code cma_loopback_addr()}. */
    static boolean isLoopback(SocketAddress a) {
        if (a instanceof IbSocketAddress ib) {
            return ib.gid().equals(Gid.of(0, 1));
        }
        return ((InetSocketAddress) a).getAddress().isLoopbackAddress();
    }

    /** {@code cma_any_addr()}: zero or loopback. */
    static boolean isAny(SocketAddress a) {
        return isZero(a) || isLoopback(a);
    }

    /** {@code cma_port()}. */
    static int port(SocketAddress a) {
        if (a instanceof IbSocketAddress ib) {
            return ib.port();
        }
        return ((InetSocketAddress) a).getPort();
    }

    /** The wildcard address of {@code family} with port 0. */
    static SocketAddress anyOf(int family, SocketAddress like) {
        return switch (family) {
            case AF_INET -> new InetSocketAddress(inet(new byte[4]), 0);
            case AF_INET6 -> new InetSocketAddress(inet(new byte[16]), 0);
            default -> new IbSocketAddress(Gid.ZERO, like instanceof IbSocketAddress ib ? ib.pkey() : 0xFFFF, 0, 0, 0, 0);
        };
    }

    /** The loopback address of {@code family} with {@code a}'s port ({@code cma_set_loopback()}). */
    static SocketAddress loopbackOf(SocketAddress a) {
        return switch (family(a)) {
            case AF_INET -> new InetSocketAddress(inet(new byte[] {127, 0, 0, 1}), port(a));
            case AF_INET6 -> {
                byte[] b = new byte[16];
                b[15] = 1;
                yield new InetSocketAddress(inet(b), port(a));
            }
            default -> ((IbSocketAddress) a).withGid(Gid.of(0, 1));
        };
    }

    /** {@code a} with its port replaced (for {@code AF_IB}: the service ID's low bits, mask full). */
    static SocketAddress withPort(SocketAddress a, int port) {
        if (a instanceof IbSocketAddress ib) {
            return ib.withSid((ib.sid() & ib.sidMask() & ~0xFFFFL) | (port & 0xFFFF), ~0L);
        }
        return new InetSocketAddress(((InetSocketAddress) a).getAddress(), port);
    }

    /** {@code cma_addr_cmp()} == 0: the same address, ports not compared. */
    static boolean sameAddr(SocketAddress a, SocketAddress b) {
        if (family(a) != family(b)) {
            return false;
        }
        if (a instanceof IbSocketAddress x) {
            return x.gid().equals(((IbSocketAddress) b).gid());
        }
        InetAddress x = ((InetSocketAddress) a).getAddress();
        InetAddress y = ((InetSocketAddress) b).getAddress();
        if (!java.util.Arrays.equals(x.getAddress(), y.getAddress())) {
            return false;
        }
        if (x instanceof Inet6Address x6 && x6.isLinkLocalAddress() && y instanceof Inet6Address y6) {
            return x6.getScopeId() == y6.getScopeId();
        }
        return true;
    }

    /** {@code rdma_ip2gid()}: IPv4-mapped for IPv4, the address itself for IPv6, the GID for {@code AF_IB}. */
    static Gid ip2gid(SocketAddress a) {
        if (a instanceof IbSocketAddress ib) {
            return ib.gid();
        }
        return Gid.fromIp(((InetSocketAddress) a).getAddress());
    }

    /** The IP address of {@code a}; {@code null} for {@code AF_IB}. */
    static InetAddress ip(SocketAddress a) {
        return a instanceof InetSocketAddress s ? s.getAddress() : null;
    }

    /** An IP address from raw bytes. */
    static InetAddress inet(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** {@code addr:port} as {@code rdma res} prints it ({@code [v6]:port}, v6 compressed as {@code inet_ntop()}); "-" for none. */
    static String format(SocketAddress a) {
        if (a == null) {
            return "-";
        }
        if (a instanceof IbSocketAddress ib) {
            return ib.toString();
        }
        InetSocketAddress s = (InetSocketAddress) a;
        InetAddress ip = s.getAddress();
        return (ip instanceof Inet6Address ? "[" + ntop(ip) + "]" : ip.getHostAddress()) + ":" + s.getPort();
    }

    /** {@code inet_ntop()}: IPv6 as glibc prints it ({@link Gid#ntop()}). */
    static String ntop(InetAddress ip) {
        return ip instanceof Inet6Address ? Gid.of(ip.getAddress(), 0).ntop() : ip.getHostAddress();
    }
}
