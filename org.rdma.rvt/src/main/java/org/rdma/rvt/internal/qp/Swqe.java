package org.rdma.rvt.internal.qp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * A send work queue entry ({@code struct rvt_swqe}/{@code rxe_send_wqe}): a copy of the consumer's
 * {@link SendWr} made at post time (the fields its kind uses, see {@link #copyFrom}; inline data
 * copied into the entry), plus the requester's and completer's progress on it.
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

    /**
     * {@link RvtQp#sqHead}, published with a release store after each entry is filled (as
     * {@code rvt_post_one_wr()} does with {@code smp_wmb()} before moving {@code s_head}): a
     * volatile store is a full fence per posted request. See {@link #publish}.
     */
    private static final VarHandle SQ_HEAD;

    static {
        try {
            SQ_HEAD = MethodHandles.lookup().findVarHandle(RvtQp.class, "sqHead", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Makes the entry at {@code qp.sqHead} (filled by the caller, who holds the ring's lock)
     * visible to the requester and completer: its stores are ordered before the new head by the
     * release, and a reader's volatile read of the head acquires them. No store-load fence is
     * needed here: the poster then runs the task ({@link QpTask#run()}), whose compare-and-set on
     * the task state is a full fence, so the new head is visible before the poster decides whether
     * the task's holder must run once more.
     */
    static void publish(RvtQp qp) {
        SQ_HEAD.setRelease(qp, qp.sqHead + 1);
    }

    private static final byte[] NO_INLINE = new byte[0];
    private static final ByteBuffer NO_INLINE_BUF = ByteBuffer.wrap(NO_INLINE);

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
        // Most QPs take no inline data: one shared empty buffer (never written, as no request
        // longer than maxInline is copied) keeps the ring's entries closer together.
        inline = maxInline > 0 ? new byte[maxInline] : NO_INLINE;
        inlineBuf = maxInline > 0 ? ByteBuffer.wrap(inline) : NO_INLINE_BUF;
    }

    /**
     * Copies the request fields (not the data) and resets progress. Fields only some requests
     * carry are copied only for those, and read only for those: immediate data (IMM), the key to
     * invalidate (INV, LOCAL), the atomic operands (ATOMIC), the new key and access (LOCAL); the
     * datagram fields (remote QPN and Q_Key, P_Key index) are the poster's to copy on UD QPs.
     */
    void copyFrom(SendWr wr, int kind, boolean signaled) {
        wrId = wr.wrId;
        wrCqe = wr.wrCqe;
        opcode = wr.opcode;
        this.kind = kind;
        sendFlags = wr.sendFlags;
        remoteAddr = wr.remoteAddr;
        rkey = wr.rkey;
        if ((kind & (WrKinds.IMM | Opcodes.INV | Opcodes.ATOMIC | WrKinds.LOCAL)) != 0) {
            immData = wr.immData;
            invalidateRkey = wr.invalidateRkey;
            compareAdd = wr.compareAdd;
            swap = wr.swap;
            key = wr.key;
            access = wr.access;
        }
        int n = wr.numSge;
        numSge = n;
        long total = 0;
        for (int i = 0; i < n; i++) {
            Sge s = wr.sgList[i];
            int l = s.length;
            addr[i] = s.addr;
            len[i] = l;
            lkey[i] = s.lkey;
            mr[i] = null;
            total += l & 0xffff_ffffL;
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
