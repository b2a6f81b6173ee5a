package org.rdma.shell.internal.perf;

import java.util.Locale;
import org.rdma.verbs.Gid;

/**
 * Number and address spellings of the C tools the perf commands mirror: glibc's
 * {@code inet_ntop(AF_INET6)} (rdma-core's {@code libibverbs/examples/rc_pingpong.c} prints GIDs
 * with it) and printf's alternate-form hex {@code %#0Nx} (perftest's {@code BASIC_ADDR_FMT} in
 * {@code src/perftest_communication.h}).
 */
public final class PerfFormat {
    private PerfFormat() {
    }

    /**
     * A GID as glibc's {@code inet_ntop(AF_INET6)} prints it: lower-case hex groups without
     * leading zeros, the longest run of two or more zero groups (the first, on a tie) as
     * {@code ::}, and IPv4-mapped/compatible addresses with a dotted quad ({@code ::ffff:10.0.0.1}).
     */
    public static String inetNtop(Gid gid) {
        return gid.ntop();
    }

    /**
     * printf's {@code %#0<width>x}: {@code 0x} and the hex digits zero-padded so that the whole
     * is {@code width} characters; 0 gets no prefix (C's alternate form), only zeros.
     */
    public static String altHex(long value, int width) {
        if (value == 0) {
            return "0".repeat(Math.max(1, width));
        }
        String hex = Long.toHexString(value);
        int pad = width - 2 - hex.length();
        return "0x" + (pad > 0 ? "0".repeat(pad) : "") + hex;
    }

    /** {@code String.format} in the C locale. */
    public static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
