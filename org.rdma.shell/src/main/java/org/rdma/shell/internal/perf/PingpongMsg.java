package org.rdma.shell.internal.perf;

import java.nio.charset.StandardCharsets;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * The out-of-band messages of rdma-core's pingpong examples
 * ({@code libibverbs/examples/rc_pingpong.c}, {@code ud_pingpong.c}; {@code pp_client_exch_dest()},
 * {@code pp_server_exch_dest()}), sent over a TCP connection to port {@value #DEFAULT_PORT}:
 *
 * <ul>
 *   <li>the address: {@code "%04x:%06x:%06x:%s"} (LID, QPN, PSN, then the GID as 32 hex digits,
 *       the 16 bytes in network order as {@code gid_to_wire_gid()} writes them), NUL-terminated,
 *       always {@value #SIZE} bytes (the size of the C buffer the tools declare, which the string
 *       fills exactly); the client sends its address first, the server answers with its own;</li>
 *   <li>then the client sends {@code "done"} with its NUL ({@value #DONE_SIZE} bytes), and the
 *       server reads it before closing.</li>
 * </ul>
 *
 * A received address is parsed as the tools' {@code sscanf("%x:%x:%x:%s")} and
 * {@code wire_gid_to_gid()} do; anything else is {@code EPROTO}.
 */
public final class PingpongMsg {
    /** The TCP port the tools listen on and connect to by default. */
    public static final int DEFAULT_PORT = 18515;
    /** Bytes of an address message: {@code sizeof "0000:000000:000000:" + 32 hex digits}, NUL included. */
    public static final int SIZE = 52;
    /** Bytes of the closing {@code "done"} message, NUL included. */
    public static final int DONE_SIZE = 5;

    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    private PingpongMsg() {
    }

    /** The {@value #SIZE}-byte address message announcing {@code d}. */
    public static byte[] encode(RcPair.Dest d) {
        String s = PerfFormat.f("%04x:%06x:%06x:%s", d.lid() & 0xffff, d.qpn() & 0xffffff, d.psn() & 0xffffff,
                wireGid(d.gid()));
        byte[] out = new byte[SIZE];
        byte[] text = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, out, 0, text.length);
        return out;
    }

    /** Parses an address message; {@code EPROTO} if it is not one. */
    public static RcPair.Dest decode(byte[] msg) {
        String s = cString(msg);
        String[] f = s.split(":", -1);
        if (f.length != 4 || f[3].length() != 32) {
            throw malformed(s);
        }
        try {
            int lid = field(f[0], 16);
            int qpn = field(f[1], 24);
            int psn = field(f[2], 24);
            return new RcPair.Dest(lid, qpn, psn, parseWireGid(f[3]));
        } catch (NumberFormatException e) {
            throw malformed(s);
        }
    }

    /**
     * A hex field of a message that is {@code bits} wide on the wire (16 for a LID, 24 for a QPN
     * or PSN): a wider value is not an address ({@code NumberFormatException}), where the C tools'
     * {@code sscanf("%x")} would let the top bits vanish later.
     */
    static int field(String hex, int bits) {
        int v = Integer.parseUnsignedInt(hex, 16);
        if (bits < 32 && (v >>> bits) != 0) {
            throw new NumberFormatException(hex + " does not fit " + bits + " bits");
        }
        return v;
    }

    /** The {@code "done"} message the client sends last. */
    public static byte[] done() {
        return DONE.clone();
    }

    /** Whether {@code msg} (as read, up to its NUL) is {@code "done"}. */
    public static boolean isDone(byte[] msg) {
        return "done".equals(cString(msg));
    }

    /** {@code gid_to_wire_gid()}: the 16 GID bytes in network order as 32 lower-case hex digits. */
    public static String wireGid(Gid gid) {
        return PerfFormat.f("%016x%016x", gid.subnetPrefix(), gid.interfaceId());
    }

    /** {@code wire_gid_to_gid()}: 32 hex digits back to a GID ({@code NumberFormatException} if not hex). */
    public static Gid parseWireGid(String hex) {
        if (hex.length() != 32) {
            throw new NumberFormatException("a wire GID has 32 hex digits: " + hex);
        }
        return Gid.of(Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16), 16));
    }

    /** The text before the first NUL (the whole array if there is none). */
    static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    private static RdmaException malformed(String s) {
        return new RdmaException(Errno.EPROTO, "malformed pingpong address message '" + s + "'");
    }
}
