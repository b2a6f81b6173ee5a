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
        byte[] b = gid.bytes();
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) {
            w[i] = (b[2 * i] & 0xff) << 8 | b[2 * i + 1] & 0xff;
        }
        int best = -1;
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
                best = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            best = -1;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (best >= 0 && i >= best && i < best + bestLen) {
                if (i == best) {
                    s.append(':');
                }
                continue;
            }
            if (i != 0) {
                s.append(':');
            }
            if (i == 6 && best == 0 && (bestLen == 6 || bestLen == 7 && w[7] != 0x0001
                    || bestLen == 5 && w[5] == 0xffff)) {
                s.append(b[12] & 0xff).append('.').append(b[13] & 0xff).append('.').append(b[14] & 0xff).append('.')
                        .append(b[15] & 0xff);
                return s.toString();
            }
            s.append(Integer.toHexString(w[i]));
        }
        if (best >= 0 && best + bestLen == 8) {
            s.append(':');
        }
        return s.toString();
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
