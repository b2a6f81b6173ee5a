package org.rdma.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A 128-bit GID: {@code union ib_gid} (subnet prefix and interface id, both big-endian).
 * Immutable; equal GIDs are equal objects. {@link #toString()} prints the form
 * {@code ibv_devinfo -v} uses ({@code fe80:0000:0000:0000:0002:c903:0000:0001}).
 */
public final class Gid {
    /** The all-zero GID ({@code zgid}), which marks an empty GID table entry. */
    public static final Gid ZERO = new Gid(0, 0);
    /** The default GID prefix fe80::/64 ({@code IB_DEFAULT_GID_PREFIX}). */
    public static final long DEFAULT_SUBNET_PREFIX = 0xfe80_0000_0000_0000L;

    private final long subnetPrefix;
    private final long interfaceId;

    private Gid(long subnetPrefix, long interfaceId) {
        this.subnetPrefix = subnetPrefix;
        this.interfaceId = interfaceId;
    }

    /** The GID {@code global.subnet_prefix}:{@code global.interface_id}. */
    public static Gid of(long subnetPrefix, long interfaceId) {
        return subnetPrefix == 0 && interfaceId == 0 ? ZERO : new Gid(subnetPrefix, interfaceId);
    }

    /** The GID in {@code raw[off..off+16)} (network order). */
    public static Gid of(byte[] raw, int off) {
        return of(getLong(raw, off), getLong(raw, off + 8));
    }

    /** The GID in a 16-byte array. */
    public static Gid of(byte[] raw) {
        if (raw.length != 16) {
            throw new RdmaException(Errno.EINVAL, "a GID is 16 bytes, got " + raw.length);
        }
        return of(raw, 0);
    }

    /**
     * The GID of an IP address as RoCE uses it ({@code rdma_ip2gid()}): IPv6 as is, IPv4
     * mapped to {@code ::ffff:a.b.c.d}.
     */
    public static Gid fromIp(InetAddress address) {
        byte[] a = address.getAddress();
        if (address instanceof Inet4Address) {
            return of(0, 0x0000_ffff_0000_0000L | (getInt(a, 0) & 0xffff_ffffL));
        }
        return of(a, 0);
    }

    /** The link-local GID of a port GUID: fe80::/64 plus the GUID as interface id. */
    public static Gid linkLocal(long guid) {
        return of(DEFAULT_SUBNET_PREFIX, guid);
    }

    /** {@code gid.global.subnet_prefix}. */
    public long subnetPrefix() {
        return subnetPrefix;
    }

    /** {@code gid.global.interface_id}. */
    public long interfaceId() {
        return interfaceId;
    }

    /** Whether this is the zero GID. */
    public boolean isZero() {
        return subnetPrefix == 0 && interfaceId == 0;
    }

    /** Whether this is a multicast GID (first byte 0xff, {@code rdma_is_multicast_addr}). */
    public boolean isMulticast() {
        return (subnetPrefix >>> 56) == 0xff;
    }

    /**
     * {@code rdma_is_multicast_addr()}: an ff00::/8 GID, or an IPv4-mapped 224.0.0.0/4 one (the
     * MGID of an IPv4 group on a RoCE v2 port).
     */
    public boolean isMulticastAddr() {
        return isMulticastAddr(subnetPrefix, interfaceId);
    }

    /** {@link #isMulticastAddr()} of the GID {@code hi:lo}, for datapaths that keep GIDs as two longs. */
    public static boolean isMulticastAddr(long hi, long lo) {
        return (hi >>> 56) == 0xff || hi == 0 && (lo >>> 32) == 0xffff && (lo & 0xF000_0000L) == 0xE000_0000L;
    }

    /** Whether this is an IPv4-mapped GID ({@code ipv6_addr_v4mapped()}). */
    public boolean isV4Mapped() {
        return subnetPrefix == 0 && (interfaceId >>> 32) == 0xffff;
    }

    /** Whether this GID is in fe80::/64. */
    public boolean isLinkLocal() {
        return subnetPrefix == DEFAULT_SUBNET_PREFIX;
    }

    /** The IP address this GID stands for ({@code rdma_gid2ip()}). */
    public InetAddress toInetAddress() {
        try {
            if (isV4Mapped()) {
                byte[] v4 = new byte[4];
                putInt(v4, 0, (int) interfaceId);
                return InetAddress.getByAddress(v4);
            }
            return Inet6Address.getByAddress(null, bytes(), null);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The GID as glibc's {@code inet_ntop(AF_INET6)} prints it (the tools print GIDs so): lower-case
     * hex groups without leading zeros, the longest run of two or more zero groups (the first, on
     * a tie) as {@code ::}, and IPv4-mapped/compatible addresses with a dotted quad
     * ({@code ::ffff:10.0.0.1}).
     */
    public String ntop() {
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) {
            long half = i < 4 ? subnetPrefix : interfaceId;
            w[i] = (int) (half >>> (48 - 16 * (i % 4))) & 0xffff;
        }
        int bestBase = -1;
        int bestLen = 0;
        for (int i = 0; i < 8;) {
            if (w[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && w[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestBase = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            bestBase = -1;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    sb.append(':');
                }
                continue;
            }
            if (i != 0) {
                sb.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLen == 6 || bestLen == 7 && w[7] != 0x0001
                    || bestLen == 5 && w[5] == 0xffff)) {
                sb.append(w[6] >>> 8).append('.').append(w[6] & 0xff).append('.')
                        .append(w[7] >>> 8).append('.').append(w[7] & 0xff);
                return sb.toString();
            }
            sb.append(Integer.toHexString(w[i]));
        }
        if (bestBase >= 0 && bestBase + bestLen == 8) {
            sb.append(':');
        }
        return sb.toString();
    }

    /** Writes the 16 bytes in network order to {@code dst[off..]}. */
    public void writeTo(byte[] dst, int off) {
        putLong(dst, off, subnetPrefix);
        putLong(dst, off + 8, interfaceId);
    }

    /** A new 16-byte array with the GID in network order. */
    public byte[] bytes() {
        byte[] b = new byte[16];
        writeTo(b, 0);
        return b;
    }

    /** Parses the colon form that {@link #toString()} prints, or any IPv6/IPv4 literal. */
    public static Gid parse(String text) {
        String t = text.trim();
        if (t.matches("\\p{XDigit}{1,4}(:\\p{XDigit}{1,4}){7}")) {
            String[] parts = t.split(":");
            long hi = 0;
            long lo = 0;
            for (int i = 0; i < 4; i++) {
                hi = hi << 16 | Integer.parseInt(parts[i], 16);
                lo = lo << 16 | Integer.parseInt(parts[i + 4], 16);
            }
            return of(hi, lo);
        }
        RdmaException.check(t.matches("[0-9a-fA-F:.]+"), Errno.EINVAL, "not a GID: " + text);
        try {
            return fromIp(InetAddress.getByName(t));
        } catch (UnknownHostException e) {
            throw new RdmaException(Errno.EINVAL, "not a GID: " + text, e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid && ((Gid) o).subnetPrefix == subnetPrefix
                && ((Gid) o).interfaceId == interfaceId;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(subnetPrefix) * 31 + Long.hashCode(interfaceId);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            long word = i < 4 ? subnetPrefix >>> (48 - 16 * i) : interfaceId >>> (48 - 16 * (i - 4));
            if (i > 0) {
                sb.append(':');
            }
            String hex = Integer.toHexString((int) (word & 0xffff));
            sb.append("0000", hex.length(), 4).append(hex);
        }
        return sb.toString();
    }

    private static long getLong(byte[] b, int off) {
        return (long) getInt(b, off) << 32 | (getInt(b, off + 4) & 0xffff_ffffL);
    }

    private static int getInt(byte[] b, int off) {
        return (b[off] & 0xff) << 24 | (b[off + 1] & 0xff) << 16 | (b[off + 2] & 0xff) << 8 | (b[off + 3] & 0xff);
    }

    private static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) (v >>> 32));
        putInt(b, off + 4, (int) v);
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
