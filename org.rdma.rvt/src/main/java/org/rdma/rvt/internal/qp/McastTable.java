package org.rdma.rvt.internal.qp;

import org.rdma.rvt.RvtDriver;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * Multicast groups and their attached QPs ({@code struct rvt_mcast}, {@code rvt_mcast_find()}).
 * Groups are few: a copy-on-write array of groups, each with a copy-on-write array of QPs, so the
 * receive path iterates without locks or allocation. The driver hears of an MGID when the first QP
 * attaches to it and when the last one leaves, whatever the MLIDs ({@link RvtDriver#mcastAdd},
 * {@link RvtDriver#mcastDel}), under this table's lock, so it sees one MGID's joins and leaves in
 * order.
 */
public final class McastTable {
    private final RvtDriver driver;
    private final int maxGroups;
    private final int maxAttach;
    private volatile Group[] groups = new Group[0];

    /** One group: its port, MGID and MLID, and the QPs attached. */
    static final class Group {
        final int port;
        final long hi;
        final long lo;
        final int lid;
        volatile RvtQp[] qps = new RvtQp[0];

        Group(int port, long hi, long lo, int lid) {
            this.port = port;
            this.hi = hi;
            this.lo = lo;
            this.lid = lid;
        }
    }

    McastTable(RvtDriver driver, int maxGroups, int maxAttach) {
        this.driver = driver;
        this.maxGroups = maxGroups > 0 ? maxGroups : 64;
        this.maxAttach = maxAttach > 0 ? maxAttach : 64;
    }

    /** {@code rvt_attach_mcast()}. */
    synchronized void attach(RvtQp qp, int port, Gid gid, int lid) {
        Group g = find(port, gid.subnetPrefix(), gid.interfaceId(), lid);
        if (g == null) {
            RdmaException.check(groups.length < maxGroups, Errno.ENOMEM, "too many multicast groups");
            if (find(port, gid.subnetPrefix(), gid.interfaceId(), 0) == null) {
                driver.mcastAdd(port, gid);
            }
            g = new Group(port, gid.subnetPrefix(), gid.interfaceId(), lid);
            Group[] n = java.util.Arrays.copyOf(groups, groups.length + 1);
            n[groups.length] = g;
            groups = n;
        }
        for (RvtQp q : g.qps) {
            RdmaException.check(q != qp, Errno.EINVAL, "QP already attached to " + gid);
        }
        RdmaException.check(g.qps.length < maxAttach, Errno.ENOMEM, "too many QPs attached to " + gid);
        RvtQp[] n = java.util.Arrays.copyOf(g.qps, g.qps.length + 1);
        n[g.qps.length] = qp;
        g.qps = n;
    }

    /** {@code rvt_detach_mcast()}. */
    synchronized void detach(RvtQp qp, int port, Gid gid, int lid) {
        Group g = find(port, gid.subnetPrefix(), gid.interfaceId(), lid);
        RdmaException.check(g != null, Errno.EINVAL, "no multicast group " + gid);
        removeQp(g, qp, true);
    }

    /** Removes {@code qp} from every group (destroy). */
    synchronized void detachAll(RvtQp qp) {
        for (Group g : groups) {
            removeQp(g, qp, false);
        }
    }

    private void removeQp(Group g, RvtQp qp, boolean must) {
        RvtQp[] q = g.qps;
        for (int i = 0; i < q.length; i++) {
            if (q[i] == qp) {
                RvtQp[] n = new RvtQp[q.length - 1];
                System.arraycopy(q, 0, n, 0, i);
                System.arraycopy(q, i + 1, n, i, q.length - i - 1);
                g.qps = n;
                if (n.length == 0) {
                    Group[] gs = groups;
                    Group[] m = new Group[gs.length - 1];
                    int k = 0;
                    for (Group x : gs) {
                        if (x != g) {
                            m[k++] = x;
                        }
                    }
                    groups = m;
                    if (find(g.port, g.hi, g.lo, 0) == null) {
                        driver.mcastDel(g.port, Gid.of(g.hi, g.lo));
                    }
                }
                return;
            }
        }
        RdmaException.check(!must, Errno.EINVAL, "QP not attached to the group");
    }

    /** {@code rvt_mcast_find()}: the group of MGID {@code hi:lo} on {@code port} (any MLID if {@code lid} is 0). */
    Group find(int port, long hi, long lo, int lid) {
        Group[] gs = groups;
        for (int i = 0; i < gs.length; i++) {
            Group g = gs[i];
            if (g.port == port && g.hi == hi && g.lo == lo && (lid == 0 || g.lid == 0 || g.lid == lid)) {
                return g;
            }
        }
        return null;
    }
}
