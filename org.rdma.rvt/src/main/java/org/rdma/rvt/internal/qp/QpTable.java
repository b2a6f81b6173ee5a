package org.rdma.rvt.internal.qp;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import org.rdma.verbs.Errno;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/**
 * QP numbers and lookup ({@code struct rvt_qp_ibdev}): QP0 and QP1 per port, and for the others a
 * slot index in the low bits with a generation above it, so a number is not reused at once after a
 * QP is destroyed and a stale packet cannot reach the successor. Lookups never allocate.
 */
public final class QpTable {
    private final AtomicReferenceArray<RvtQp> slots;
    private final int bits;
    private final int[] generation;
    private final boolean[] reserved;
    private final RvtQp[] smi;
    private final RvtQp[] gsi;
    private int next;

    QpTable(int maxQp, int ports) {
        int n = Integer.highestOneBit(Math.max(4, maxQp - 1)) << 1;
        bits = Integer.numberOfTrailingZeros(n);
        slots = new AtomicReferenceArray<>(n);
        generation = new int[n];
        reserved = new boolean[n];
        smi = new RvtQp[ports + 1];
        gsi = new RvtQp[ports + 1];
    }

    /** Allocates a number and registers {@code qp} under it once {@code qp} is ready. */
    synchronized int allocate(QpType type, int port) {
        if (type == QpType.SMI || type == QpType.GSI) {
            RvtQp[] t = type == QpType.SMI ? smi : gsi;
            RdmaException.check(port >= 1 && port < t.length, Errno.EINVAL, "no port " + port);
            RdmaException.check(t[port] == null, Errno.EBUSY, type + " QP of port " + port + " exists");
            return type == QpType.SMI ? 0 : 1;
        }
        int size = slots.length();
        for (int i = 0; i < size; i++) {
            int slot = (next + i) & (size - 1);
            if (!reserved[slot]) {
                next = slot + 1;
                int gen = generation[slot] % ((0xffffff >> bits) - 1) + 1;
                generation[slot] = gen;
                reserved[slot] = true;
                return gen << bits | slot;
            }
        }
        throw new RdmaException(Errno.ENOMEM, "no free QP number");
    }

    /** Publishes a fully built QP. */
    synchronized void publish(RvtQp qp) {
        if (qp.type == QpType.SMI) {
            smi[qp.port] = qp;
        } else if (qp.type == QpType.GSI) {
            gsi[qp.port] = qp;
        } else {
            slots.set(qp.qpn & ((1 << bits) - 1), qp);
        }
    }

    /** Removes a QP (destroy or failed create). */
    synchronized void remove(RvtQp qp, int qpn) {
        if (qp.type == QpType.SMI) {
            smi[qp.port] = null;
        } else if (qp.type == QpType.GSI) {
            gsi[qp.port] = null;
        } else {
            int slot = qpn & ((1 << bits) - 1);
            if (slots.get(slot) == qp) {
                slots.set(slot, null);
            }
            reserved[slot] = false;
        }
    }

    /** The QP with number {@code qpn} receiving on {@code port}, or null. */
    public RvtQp lookup(int port, int qpn) {
        if (qpn <= 1) {
            RvtQp[] t = qpn == 0 ? smi : gsi;
            return port >= 1 && port < t.length ? t[port] : null;
        }
        RvtQp qp = slots.get(qpn & ((1 << bits) - 1));
        return qp != null && qp.qpn == qpn ? qp : null;
    }

    /** {@code rvt_qp_iter()}: calls {@code cb} for every live QP, special QPs first. */
    public void forEach(Consumer<RvtQp> cb) {
        for (int p = 1; p < smi.length; p++) {
            RvtQp a = smi[p];
            if (a != null) {
                cb.accept(a);
            }
            RvtQp b = gsi[p];
            if (b != null) {
                cb.accept(b);
            }
        }
        for (int i = 0; i < slots.length(); i++) {
            RvtQp qp = slots.get(i);
            if (qp != null) {
                cb.accept(qp);
            }
        }
    }
}
