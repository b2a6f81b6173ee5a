package org.rdma.diags.internal;

import java.util.Arrays;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.Smp;

/**
 * A destination of management MADs: libibmad's {@code ib_portid_t} (libibmad/portid.c), a LID or
 * a directed route (with its DrSLID/DrDLID for a route that starts LID-routed), and its
 * {@code portid2str()} text.
 *
 * @param lid    the destination LID; 0 for a directed route from here
 * @param path   the directed route's hops {@code p[1..cnt]} ({@code p[0]} is always 0); empty for LID routing
 * @param drSlid DrSLID ({@code 0xffff}: permissive)
 * @param drDlid DrDLID
 * @param sl     the SL to send on
 */
record PortId(int lid, int[] path, int drSlid, int drDlid, int sl) {
    /** {@code IB_LID_VALID()}: unicast LIDs 1..0xfffe. */
    static boolean validLid(long lid) {
        return lid > 0 && lid < Smp.IB_LID_PERMISSIVE;
    }

    /** Copies the path. */
    PortId {
        path = path.clone();
    }

    /** A LID-routed destination ({@code ib_portid_set()}). */
    static PortId ofLid(int lid, int sl) {
        return new PortId(lid, new int[0], Smp.IB_LID_PERMISSIVE, Smp.IB_LID_PERMISSIVE, sl);
    }

    /** A directed route from the local port, hops as given. */
    static PortId directed(int... hops) {
        return new PortId(0, hops, Smp.IB_LID_PERMISSIVE, Smp.IB_LID_PERMISSIVE, 0);
    }

    /**
     * {@code str2drpath()}: {@code "0,1,3"} (the leading 0 is the local port and only counted);
     * EINVAL for anything but comma-separated port numbers of at most 63 hops.
     */
    static PortId parseDirected(String route) {
        String[] parts = route.split(",", -1);
        int[] hops = new int[parts.length - 1];
        for (int i = 0; i < parts.length; i++) {
            int p;
            try {
                p = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new RdmaException(Errno.EINVAL, "bad directed route '" + route + "'");
            }
            RdmaException.check(p >= 0 && p <= 255, Errno.EINVAL, "bad port " + p + " in directed route '" + route + "'");
            if (i > 0) {
                hops[i - 1] = p;
            }
        }
        RdmaException.check(hops.length < Smp.IB_SMP_MAX_PATH_HOPS, Errno.EINVAL, "directed route '" + route
                + "' is longer than " + (Smp.IB_SMP_MAX_PATH_HOPS - 1) + " hops");
        return directed(hops);
    }

    /** Whether SMPs to this destination go by directed route. */
    boolean isDirected() {
        return lid == 0 || path.length > 0;
    }

    /** {@code path}, copied. */
    @Override
    public int[] path() {
        return path.clone();
    }

    /** This route extended by one hop out of {@code port} ({@code extend_dpath()}). */
    PortId extend(int port) {
        int[] p = Arrays.copyOf(path, path.length + 1);
        p[path.length] = port;
        return new PortId(lid, p, drSlid, drDlid, sl);
    }

    /**
     * {@code portid2str()}: {@code Lid 5}, or {@code DR path slid 65535; dlid 65535; 0,1,3}.
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        if (lid > 0) {
            b.append("Lid ").append(lid);
            if (path.length == 0) {
                return b.toString();
            }
            b.append(' ');
        }
        b.append("DR path slid ").append(drSlid).append("; dlid ").append(drDlid).append("; 0");
        for (int h : path) {
            b.append(',').append(h);
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortId p && p.lid == lid && Arrays.equals(p.path, path) && p.drSlid == drSlid
                && p.drDlid == drDlid && p.sl == sl;
    }

    @Override
    public int hashCode() {
        return lid * 31 + Arrays.hashCode(path);
    }
}
