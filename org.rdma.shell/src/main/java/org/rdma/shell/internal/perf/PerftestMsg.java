package org.rdma.shell.internal.perf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.RdmaException;

/**
 * The messages perftest's tools exchange over their TCP connection when they do not use the
 * RDMA CM ({@code src/perftest_communication.c}: {@code ethernet_write_keys()},
 * {@code ethernet_read_keys()}, {@code exchange_versions()}, {@code check_sys_data()},
 * {@code check_mtu()}, {@code xchg_bw_reports()}). Every exchange is symmetric: the client
 * writes its message and reads the server's, the server reads first and answers.
 *
 * <ul>
 *   <li>Version: {@value #VERSION_SIZE} bytes, the version string NUL-padded
 *       ({@code char version[MAX_VERSION]}).</li>
 *   <li>System data (peers from 5.32 on): the cycle buffer (page size) and then the cache line
 *       size, each a 4-byte big-endian {@code int}.</li>
 *   <li>MTU (peers from 5.31 on): {@code sprintf("%d")} of the {@code enum ibv_mtu} value in a
 *       2-byte buffer (one digit and its NUL).</li>
 *   <li>Keys, one message per QP: {@code KEY_PRINT_FMT} {@code "%04x:%04x:%06x:%06x:%08x:%016llx:%08x"}
 *       (LID, outstanding reads, QPN, PSN, rkey, vaddr, SRQ number) in {@value #KEY_MSG_SIZE}
 *       bytes, or, when a GID index is in use (always on RoCE), {@code KEY_PRINT_FMT_GID} with
 *       the 16 GID bytes as {@code "%02x:"} each between vaddr and SRQ number and a trailing
 *       colon, in {@value #KEY_MSG_SIZE_GID} bytes. Both sizes are exactly the formatted text and
 *       its NUL.</li>
 *   <li>Reports: size, iterations (each an 8-byte big-endian integer; iterations only 4 bytes
 *       for peers before 5.33), then BW peak, BW average and message rate, each an 8-byte
 *       big-endian IEEE 754 double ({@code bswap_double()} on little-endian hosts), each field an
 *       exchange of its own.</li>
 * </ul>
 */
public final class PerftestMsg {
    /** The TCP port perftest listens on and connects to by default ({@code DEF_PORT}). */
    public static final int DEFAULT_PORT = 18515;
    /** {@code MAX_VERSION}. */
    public static final int VERSION_SIZE = 16;
    /** {@code KEY_MSG_SIZE}. */
    public static final int KEY_MSG_SIZE = 59;
    /** {@code KEY_MSG_SIZE_GID}. */
    public static final int KEY_MSG_SIZE_GID = 108;
    /** The MTU message of peers from 5.31 on. */
    public static final int MTU_SIZE = 2;
    /**
     * The largest page size a peer may announce: the largest base page of the hosts perftest runs
     * on is 64 KiB; the buffers are sized from it, so a peer's word is not taken beyond this.
     */
    public static final int MAX_PAGE_SIZE = 1 << 20;

    /**
     * What one QP announces ({@code struct pingpong_dest} as sent): {@code gid} is {@code null}
     * when no GID index is in use.
     */
    public record Keys(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    }

    private PerftestMsg() {
    }

    /** The version message: {@code version} NUL-padded to {@value #VERSION_SIZE} bytes. */
    public static byte[] encodeVersion(String version) {
        byte[] text = version.getBytes(StandardCharsets.US_ASCII);
        RdmaException.check(text.length < VERSION_SIZE, Errno.EINVAL, "version too long: " + version);
        byte[] out = new byte[VERSION_SIZE];
        System.arraycopy(text, 0, out, 0, text.length);
        return out;
    }

    /** The version string of a version message (up to its NUL). */
    public static String decodeVersion(byte[] msg) {
        return PingpongMsg.cString(msg);
    }

    /**
     * {@code atof()} of a version string as perftest compares versions: the leading decimal
     * number, 0 if there is none ({@code "6.29"} is 6.29, {@code "5.70-rc"} 5.70).
     */
    public static double versionNumber(String version) {
        int n = 0;
        boolean dot = false;
        while (n < version.length()
                && (Character.isDigit(version.charAt(n)) || (version.charAt(n) == '.' && !dot))) {
            dot |= version.charAt(n) == '.';
            n++;
        }
        String num = version.substring(0, n);
        if (num.isEmpty() || num.equals(".")) {
            return 0;
        }
        return Double.parseDouble(num.endsWith(".") ? num + "0" : num);
    }

    /** A 4-byte big-endian {@code int} ({@code hton_int}). */
    public static byte[] encodeInt(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    /** {@code ntoh_int} of a 4-byte message. */
    public static int decodeInt(byte[] msg) {
        return ByteBuffer.wrap(msg).getInt();
    }

    /**
     * The peer's page size of {@code check_sys_data()} (its cycle buffer, which sizes the local
     * buffers too): a power of two up to {@link #MAX_PAGE_SIZE}, else {@code EPROTO}.
     */
    public static int decodePageSize(byte[] msg) {
        int v = decodeInt(msg);
        if (v <= 0 || Integer.bitCount(v) != 1 || v > MAX_PAGE_SIZE) {
            throw new RdmaException(Errno.EPROTO, "the peer announces a page size of " + v + " bytes");
        }
        return v;
    }

    /** An 8-byte big-endian integer ({@code hton_long} / {@code hton_64} on LP64). */
    public static byte[] encodeLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    /** The integer of a 4- or 8-byte big-endian message. */
    public static long decodeLong(byte[] msg) {
        return msg.length == 4 ? ByteBuffer.wrap(msg).getInt() & 0xffff_ffffL : ByteBuffer.wrap(msg).getLong();
    }

    /** An 8-byte big-endian IEEE 754 double ({@code hton_double}). */
    public static byte[] encodeDouble(double v) {
        return ByteBuffer.allocate(8).putDouble(v).array();
    }

    /** {@code ntoh_double} of an 8-byte message. */
    public static double decodeDouble(byte[] msg) {
        return ByteBuffer.wrap(msg).getDouble();
    }

    /** The MTU message: the {@code enum ibv_mtu} value in decimal and a NUL. */
    public static byte[] encodeMtu(Mtu mtu) {
        return new byte[] {(byte) ('0' + mtu.value), 0};
    }

    /**
     * The MTU of an MTU message as {@code check_mtu()} reads it ({@code strtol}, then only 1..5
     * are taken); {@code null} for anything else.
     */
    public static Mtu decodeMtu(byte[] msg) {
        String s = PingpongMsg.cString(msg).trim();
        int n = 0;
        while (n < s.length() && Character.isDigit(s.charAt(n))) {
            n++;
        }
        if (n == 0 || n > 2) {
            return null;
        }
        int v = Integer.parseInt(s.substring(0, n));
        return v >= Mtu.MTU_256.value && v <= Mtu.MTU_4096.value ? Mtu.of(v) : null;
    }

    /** The keys message of one QP: {@value #KEY_MSG_SIZE_GID} bytes with a GID, {@value #KEY_MSG_SIZE} without. */
    public static byte[] encodeKeys(Keys k) {
        StringBuilder s = new StringBuilder(PerfFormat.f("%04x:%04x:%06x:%06x:%08x:%016x", k.lid() & 0xffff,
                k.outReads() & 0xffff, k.qpn() & 0xffffff, k.psn() & 0xffffff, k.rkey(), k.vaddr()));
        int size = KEY_MSG_SIZE;
        if (k.gid() != null) {
            byte[] g = k.gid().bytes();
            for (byte b : g) {
                s.append(':').append(PerfFormat.f("%02x", b & 0xff));
            }
            s.append(':').append(PerfFormat.f("%08x", k.srqn())).append(':');
            size = KEY_MSG_SIZE_GID;
        } else {
            s.append(':').append(PerfFormat.f("%08x", k.srqn()));
        }
        byte[] text = s.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[size];
        System.arraycopy(text, 0, out, 0, text.length);
        return out;
    }

    /**
     * Parses a keys message ({@code withGid}: the GID form, as the reader's own GID index
     * decides in perftest); {@code EPROTO} if it is not one.
     */
    public static Keys decodeKeys(byte[] msg, boolean withGid) {
        String s = PingpongMsg.cString(msg);
        String[] f = s.split(":", -1);
        int want = withGid ? 24 : 7;
        if (f.length < want) {
            throw malformed(s);
        }
        try {
            int lid = PingpongMsg.field(f[0], 16);
            int outReads = PingpongMsg.field(f[1], 16);
            int qpn = PingpongMsg.field(f[2], 24);
            int psn = PingpongMsg.field(f[3], 24);
            int rkey = PingpongMsg.field(f[4], 32);
            long vaddr = Long.parseUnsignedLong(f[5], 16);
            Gid gid = null;
            int srqn;
            if (withGid) {
                byte[] g = new byte[16];
                for (int i = 0; i < 16; i++) {
                    int v = Integer.parseInt(f[6 + i], 16);
                    if (v < 0 || v > 0xff) {
                        throw malformed(s);
                    }
                    g[i] = (byte) v;
                }
                gid = Gid.of(g);
                srqn = PingpongMsg.field(f[22], 32);
            } else {
                srqn = PingpongMsg.field(f[6], 32);
            }
            return new Keys(lid, outReads, qpn, psn, rkey, vaddr, gid, srqn);
        } catch (NumberFormatException e) {
            throw malformed(s);
        }
    }

    private static RdmaException malformed(String s) {
        return new RdmaException(Errno.EPROTO, "malformed perftest keys message '" + s + "'");
    }
}
