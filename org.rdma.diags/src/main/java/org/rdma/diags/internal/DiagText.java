package org.rdma.diags.internal;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/** Text conventions the C tools share: glibc's {@code inet_ntop()}, {@code ctime()}, node descriptions. */
final class DiagText {
    /** {@code NOT_DISPLAYED_STR} of infiniband-diags: what a hidden key prints as. */
    static final String NOT_DISPLAYED = "<not displayed>";
    /** The size of a NodeDescription ({@code IB_SMP_DATA_SIZE}). */
    static final int NODE_DESC_SIZE = 64;
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.ROOT);

    private DiagText() {
    }

    /**
     * A NodeDescription as {@code clean_nodedesc()} leaves it: up to the first NUL within 64
     * bytes, every unprintable character a space.
     */
    static String nodeDesc(byte[] buf, int off) {
        int end = off;
        while (end < off + NODE_DESC_SIZE && end < buf.length && buf[end] != 0) {
            end++;
        }
        char[] c = new String(buf, off, end - off, StandardCharsets.ISO_8859_1).toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] < 0x20 || c[i] > 0x7e) {
                c[i] = ' ';
            }
        }
        return new String(c);
    }

    /**
     * glibc's {@code inet_ntop(AF_INET6)}: lower-case groups without leading zeros, the first
     * longest run of two or more zero groups as {@code ::}, and the IPv4-compatible and mapped
     * forms with a dotted quad.
     */
    static String inet6(Gid gid) {
        return gid.ntop();
    }

    /** {@code ctime()} without its newline: {@code Sun Nov 22 07:51:30 2026}. */
    static String ctime(ZonedDateTime t) {
        return CTIME.format(t);
    }

    /** {@code cause}'s errno with {@code context} in front of its text: {@code operation nodeinfo: ...}. */
    static RdmaException fail(String context, RdmaException cause) {
        String m = cause.getMessage();
        String prefix = cause.errno().name() + ": ";
        String what = m != null && m.startsWith(prefix) ? m.substring(prefix.length()) : m;
        return new RdmaException(cause.errno(), context + " (" + what + ")", cause);
    }
}
