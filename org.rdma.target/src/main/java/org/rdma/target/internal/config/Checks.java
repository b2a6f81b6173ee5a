package org.rdma.target.internal.config;

import org.rdma.scsi.Lun;
import org.rdma.target.fabric.TargetException;

/** The value checks every way into the configuration shares (Config Admin, targetcli, saveconfig.json). */
public final class Checks {
    private Checks() {
    }

    static TargetException einval(String what) {
        return new TargetException("EINVAL", what);
    }

    /** A configfs directory name: not empty, no '/', no white space or control characters. */
    public static String name(String what, String s) {
        if (s == null || s.isEmpty() || s.equals(".") || s.equals("..")
                || s.chars().anyMatch(c -> c == '/' || c <= ' ' || c == 0x7F)) {
            throw einval(what + " '" + s + "' must be a name without '/' or blanks");
        }
        return s;
    }

    /** A fabric module name as LIO's ({@code iscsi}, {@code srpt}): lower-case letters, digits, '_'. */
    public static String fabric(String s) {
        if (s == null || !s.matches("[a-z][a-z0-9_]{0,31}")) {
            throw einval("fabric '" + s + "' must be a fabric module name like iscsi");
        }
        return s;
    }

    public static int blockSize(long b) {
        if (b != 512 && b != 4096) {
            throw einval("block size " + b + " is not 512 or 4096");
        }
        return (int) b;
    }

    public static long size(long bytes, int blockSize) {
        if (bytes < blockSize) {
            throw einval("size " + bytes + " holds no block of " + blockSize + " bytes");
        }
        return bytes;
    }

    /** A TPG tag (16 bits, as iSCSI's TPGT). */
    public static int tag(long t) {
        if (t < 0 || t > 0xFFFF) {
            throw einval("TPG tag " + t + " outside 0..65535");
        }
        return (int) t;
    }

    /** A LUN number the core can address (SAM-5 flat space). */
    public static int lun(long n) {
        if (n < 0 || n > Lun.MAX_FLAT) {
            throw einval("LUN " + n + " outside 0.." + Lun.MAX_FLAT);
        }
        return (int) n;
    }

    public static int port(long p) {
        if (p < 1 || p > 0xFFFF) {
            throw einval("port " + p + " outside 1..65535");
        }
        return (int) p;
    }

    /**
     * An IP address literal (never a host name: nothing is resolved). IPv4 dotted quad, or IPv6
     * with or without brackets; returned without brackets.
     */
    public static String ipAddress(String a) {
        String s = a == null ? "" : a;
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.matches("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}")) {
            return s;
        }
        if (s.indexOf(':') >= 0 && s.matches("[0-9A-Fa-f:.]{2,45}") && ipv6(s)) {
            return s;
        }
        throw einval("'" + a + "' is not an IPv4 or IPv6 address");
    }

    private static boolean ipv6(String s) {
        try {
            // A literal with ':' is parsed, never looked up.
            return java.net.InetAddress.getByName("[" + s + "]") != null;
        } catch (java.net.UnknownHostException | RuntimeException e) {
            return false;
        }
    }
}
