package org.rdma.rvt.internal.qp;

import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.Sge;

/** A receive work queue entry ({@code struct rvt_rwqe}): a copy of the consumer's {@link RecvWr}. */
final class Rwqe {
    long wrId;
    IbCqe wrCqe;
    final long[] addr;
    final int[] len;
    final int[] lkey;
    final RvtMr[] mr;
    int numSge;
    long length;

    Rwqe(int maxSge) {
        int n = Math.max(1, maxSge);
        addr = new long[n];
        len = new int[n];
        lkey = new int[n];
        mr = new RvtMr[n];
    }

    void copyFrom(RecvWr wr) {
        wrId = wr.wrId;
        wrCqe = wr.wrCqe;
        numSge = wr.numSge;
        long total = 0;
        for (int i = 0; i < wr.numSge; i++) {
            Sge s = wr.sgList[i];
            addr[i] = s.addr;
            len[i] = s.length;
            lkey[i] = s.lkey;
            mr[i] = null;
            total += s.length & 0xffff_ffffL;
        }
        length = total;
    }

    void copyFrom(Rwqe o) {
        wrId = o.wrId;
        wrCqe = o.wrCqe;
        numSge = o.numSge;
        System.arraycopy(o.addr, 0, addr, 0, o.numSge);
        System.arraycopy(o.len, 0, len, 0, o.numSge);
        System.arraycopy(o.lkey, 0, lkey, 0, o.numSge);
        for (int i = 0; i < o.numSge; i++) {
            mr[i] = null;
        }
        length = o.length;
    }
}
