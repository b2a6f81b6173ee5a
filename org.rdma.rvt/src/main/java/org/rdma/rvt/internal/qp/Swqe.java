package org.rdma.rvt.internal.qp;

import java.nio.ByteBuffer;
import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * A send work queue entry ({@code struct rvt_swqe}/{@code rxe_send_wqe}): a copy of the consumer's
 * {@link SendWr} made at post time (inline data copied into the entry), plus the requester's and
 * completer's progress on it.
 */
final class Swqe {
    /** Posted, not started. */
    static final int POSTED = 0;
    /** Some packets sent. */
    static final int PROCESSING = 1;
    /** All packets sent, waiting for the response. */
    static final int PENDING = 2;
    /** Finished (local operation executed, or UD/UC sent). */
    static final int DONE = 3;
    /** Failed; completes with {@link #status}. */
    static final int ERROR = 4;

    // the request
    long wrId;
    IbCqe wrCqe;
    WrOpcode opcode;
    int kind;
    int sendFlags;
    int immData;
    int invalidateRkey;
    long remoteAddr;
    int rkey;
    long compareAdd;
    long swap;
    RvtAh ah;
    int remoteQpn;
    int remoteQkey;
    int pkeyIndex;
    RvtMr regMr;
    long regIova;
    int key;
    int access;
    final long[] addr;
    final int[] len;
    final int[] lkey;
    final RvtMr[] mr;
    int numSge;
    long length;
    final byte[] inline;
    final ByteBuffer inlineBuf;
    boolean isInline;
    boolean signaled;

    // progress
    int state;
    WcStatus status;
    int firstPsn;
    int lastPsn;
    int ssn;
    long sent;

    Swqe(int maxSge, int maxInline) {
        int n = Math.max(1, maxSge);
        addr = new long[n];
        len = new int[n];
        lkey = new int[n];
        mr = new RvtMr[n];
        inline = new byte[Math.max(0, maxInline)];
        inlineBuf = ByteBuffer.wrap(inline);
    }

    /** Copies the request fields (not the data) and resets progress. */
    void copyFrom(SendWr wr, int kind, boolean signaled) {
        wrId = wr.wrId;
        wrCqe = wr.wrCqe;
        opcode = wr.opcode;
        this.kind = kind;
        sendFlags = wr.sendFlags;
        immData = wr.immData;
        invalidateRkey = wr.invalidateRkey;
        remoteAddr = wr.remoteAddr;
        rkey = wr.rkey;
        compareAdd = wr.compareAdd;
        swap = wr.swap;
        remoteQpn = wr.remoteQpn;
        remoteQkey = wr.remoteQkey;
        pkeyIndex = wr.pkeyIndex;
        key = wr.key;
        access = wr.access;
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
        isInline = false;
        this.signaled = signaled;
        state = POSTED;
        status = WcStatus.SUCCESS;
        sent = 0;
        ah = null;
        regMr = null;
    }

    boolean has(int bits) {
        return (kind & bits) != 0;
    }
}
