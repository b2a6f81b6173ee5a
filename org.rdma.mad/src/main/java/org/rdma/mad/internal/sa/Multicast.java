package org.rdma.mad.internal.sa;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.McastMember;
import org.rdma.mad.sa.SaCallback;
import org.rdma.mad.sa.SaClient;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;

/**
 * drivers/infiniband/core/multicast.c: per port and MGID one {@code mcast_group} whose
 * JoinState is the union of its members'. A join that adds a bit goes to the SA (one SA request
 * at a time per group, later joiners queue behind it); a join the group already covers is
 * answered from the cached record. A leave tells the SA only about the bits whose last member
 * left.
 *
 * <p>Locking: each group's monitor guards it; SA requests and callbacks run without it.
 */
final class Multicast {
    /** Timeout of the SA joins and leaves. */
    static final int SA_TIMEOUT_MS = 3000;

    private final SaLayer sa;
    private final Map<Key, Group> groups = new HashMap<>();

    private record Key(IbDevice device, int port, Gid mgid) {
    }

    Multicast(SaLayer sa) {
        this.sa = sa;
    }

    /** {@code struct mcast_member}. */
    final class Member implements McastMember {
        final Group group;
        final McMemberRecord rec;
        final long compMask;
        final SaClient client;
        final SaCallback<McMemberRecord> callback;
        final Object context;
        boolean joined;
        boolean freed;

        Member(Group group, McMemberRecord rec, long compMask, SaClient client, SaCallback<McMemberRecord> cb,
                Object context) {
            this.group = group;
            this.rec = rec;
            this.compMask = compMask;
            this.client = client;
            this.callback = cb;
            this.context = context;
        }

        @Override
        public McMemberRecord rec() {
            synchronized (group) {
                return rec;
            }
        }

        @Override
        public Object context() {
            return context;
        }
    }

    /** {@code struct mcast_group}. */
    final class Group {
        final Key key;
        McMemberRecord rec;
        int joinState;
        final int[] members = new int[4];
        boolean busy;
        final ArrayDeque<Member> pending = new ArrayDeque<>();

        Group(Key key) {
            this.key = key;
        }
    }

    McastMember join(SaClient client, IbDevice device, int port, McMemberRecord rec, long compMask,
            SaCallback<McMemberRecord> cb, Object context) {
        RdmaException.check(rec.joinState != 0 && (rec.joinState & ~0xf) == 0, Errno.EINVAL,
                "bad JoinState " + rec.joinState);
        Key k = new Key(device, port, rec.mgid);
        Group g;
        synchronized (groups) {
            g = groups.computeIfAbsent(k, Group::new);
        }
        if (client != null) {
            client.get();
        }
        Member m = new Member(g, rec.copy(), compMask, client, cb, context);
        synchronized (g) {
            g.pending.add(m);
        }
        process(g);
        return m;
    }

    /** {@code mcast_work_handler()}: serves the queue head; one SA request at a time. */
    private void process(Group g) {
        while (true) {
            Member m;
            McMemberRecord cached = null;
            synchronized (g) {
                if (g.busy || g.pending.isEmpty()) {
                    return;
                }
                m = g.pending.peek();
                if ((m.rec.joinState & ~g.joinState) == 0 && g.rec != null) {
                    g.pending.poll();
                    addMember(g, m);
                    cached = g.rec.copy();
                } else {
                    g.busy = true;
                }
            }
            if (cached != null) {
                final McMemberRecord r = cached;
                sa.workqueue().execute(() -> complete(m, 0, r));
                continue;
            }
            // send_join(): the member's record with its JoinState
            int rc = sa.send(null, g.key.device, g.key.port, MadHdr.IB_MGMT_METHOD_SET,
                    org.rdma.mad.sa.SaMad.ATTR_MC_MEMBER_REC, m.rec,
                    m.compMask | McMemberRecord.JOIN_STATE | McMemberRecord.MGID | McMemberRecord.PORT_GID,
                    SA_TIMEOUT_MS, false, (status, mad) -> joined(g, m, status, mad));
            if (rc < 0) {
                joined(g, m, rc, null);
            }
            return;
        }
    }

    private void addMember(Group g, Member m) {
        for (int i = 0; i < 4; i++) {
            if ((m.rec.joinState & (1 << i)) != 0) {
                g.members[i]++;
            }
        }
        m.joined = true;
    }

    private void joined(Group g, Member m, int status, byte[] mad) {
        McMemberRecord resp = null;
        synchronized (g) {
            g.busy = false;
            g.pending.remove(m);
            if (status == 0 && mad != null) {
                resp = new McMemberRecord().unpack(mad, org.rdma.mad.sa.SaMad.DATA_OFFSET);
                g.joinState |= m.rec.joinState;
                g.rec = resp.copy();
                addMember(g, m);
            }
        }
        complete(m, status, resp);
        process(g);
    }

    private void complete(Member m, int status, McMemberRecord rec) {
        try {
            if (status == 0) {
                synchronized (m.group) {
                    McMemberRecord own = rec.copy();
                    own.joinState = m.rec.joinState;
                    m.rec.mlid = own.mlid;
                    m.rec.qkey = own.qkey;
                }
            }
            if (m.callback != null && !isFreed(m)) {
                m.callback.done(status, rec);
            }
        } finally {
            if (status != 0 && m.client != null) {
                m.client.put();
            }
        }
    }

    private boolean isFreed(Member m) {
        synchronized (m.group) {
            return m.freed;
        }
    }

    /** {@code ib_sa_free_multicast()}: leave; the SA hears of bits nobody holds any more. */
    void free(McastMember member) {
        RdmaException.check(member instanceof Member, Errno.EINVAL, "not a multicast member of this SA client");
        Member m = (Member) member;
        Group g = m.group;
        int leave = 0;
        McMemberRecord rec = null;
        boolean wasJoined;
        synchronized (g) {
            if (m.freed) {
                return;
            }
            m.freed = true;
            g.pending.remove(m);
            wasJoined = m.joined;
            if (m.joined) {
                for (int i = 0; i < 4; i++) {
                    if ((m.rec.joinState & (1 << i)) != 0 && --g.members[i] == 0) {
                        leave |= 1 << i;
                    }
                }
                g.joinState &= ~leave;
                if (leave != 0) {
                    rec = (g.rec != null ? g.rec : m.rec).copy();
                    rec.portGid = m.rec.portGid;
                    rec.joinState = leave;
                }
                if (g.joinState == 0) {
                    g.rec = null;
                }
            }
        }
        if (rec != null) {
            // send_leave(): fire and forget, as the kernel does
            sa.send(null, g.key.device, g.key.port, MadHdr.IB_SA_METHOD_DELETE, org.rdma.mad.sa.SaMad.ATTR_MC_MEMBER_REC,
                    rec, McMemberRecord.MGID | McMemberRecord.PORT_GID | McMemberRecord.JOIN_STATE, SA_TIMEOUT_MS,
                    false, (status, mad) -> { });
        }
        if (wasJoined && m.client != null) {
            m.client.put();
        }
        synchronized (groups) {
            synchronized (g) {
                if (g.joinState == 0 && g.pending.isEmpty() && !g.busy) {
                    groups.remove(g.key);
                }
            }
        }
        process(g);
    }

    McMemberRecord cached(IbDevice device, int port, Gid mgid) {
        Group g;
        synchronized (groups) {
            g = groups.get(new Key(device, port, mgid));
        }
        if (g != null) {
            synchronized (g) {
                if (g.rec != null) {
                    return g.rec.copy();
                }
            }
        }
        throw new RdmaException(Errno.ENOENT, "no multicast group " + mgid + " joined on " + device.name() + "/" + port);
    }

    void removeDevice(IbDevice device) {
        synchronized (groups) {
            groups.keySet().removeIf(k -> k.device() == device);
        }
    }
}
