package org.rdma.mad.internal;

import org.rdma.mad.MadAgent;
import org.rdma.mad.MadSendBuf;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.WcStatus;

/**
 * {@code struct ib_mad_send_wr_private} with its {@code ib_mad_send_buf}. The transfer state
 * below is guarded by the owning agent's lock. A buffer without RMPP is a one-segment transfer
 * whose segment is acknowledged by its own send completion; so one state machine covers both:
 * send the window, wait for the ACK (RMPP) and then for the response (requests with a timeout),
 * retry on timeout, finish exactly once.
 */
final class SendBufImpl implements MadSendBuf {
    final AgentImpl agent;
    final byte[] mad;
    final int hdrLen;
    final int dataLen;
    final int segCount;
    final int segSize;
    final int pad;
    final boolean rmpp;
    final int remoteQpn;
    final int pkeyIndex;
    private volatile IbAh ah;
    private volatile int timeoutMs;
    private volatile int retries;
    private volatile int remoteQkey;
    private final Object[] context = new Object[2];
    /** An address handle the MAD layer created (responses) and destroys on free. */
    volatile IbAh ownedAh;

    // ---- transfer state, guarded by agent.lock
    boolean posted;
    boolean finished;
    long tid;
    int mgmtClass;
    WcStatus status = WcStatus.SUCCESS;
    boolean expectResponse;
    boolean responseReceived;
    int retriesLeft;
    int inFlight;
    /** Last segment acknowledged ({@code last_ack}). */
    int lastAck;
    /** Last segment sent ({@code seg_num}). */
    int segNum;
    /** Last segment the receiver's window allows ({@code newwin}). */
    int newwin;
    /** Deadline of the ACK or response wait in clock nanoseconds; 0 when not waiting. */
    long deadline;
    /** On the agent's list of outstanding sends ({@code agent_list}), between these two. */
    boolean listed;
    SendBufImpl prev;
    SendBufImpl next;

    SendBufImpl(AgentImpl agent, int remoteQpn, int pkeyIndex, boolean rmpp, int hdrLen, int dataLen,
            int remoteQkey) {
        this.agent = agent;
        this.remoteQpn = remoteQpn;
        this.pkeyIndex = pkeyIndex;
        this.rmpp = rmpp;
        this.hdrLen = hdrLen;
        this.dataLen = dataLen;
        this.remoteQkey = remoteQkey;
        if (rmpp) {
            this.segSize = MadLayer.MAD_SIZE - hdrLen;
            this.segCount = Math.max(1, (dataLen + segSize - 1) / segSize);
            this.pad = segCount * segSize - dataLen;
            this.mad = new byte[hdrLen + segCount * segSize];
        } else {
            this.segSize = MadLayer.MAD_SIZE - hdrLen;
            this.segCount = 1;
            this.pad = segSize - dataLen;
            this.mad = new byte[MadLayer.MAD_SIZE];
        }
    }

    /**
     * Bytes of segment {@code seg} (1-based) as they go on the wire: the buffer itself without
     * RMPP (the send queue copies it when it is posted), else the segment with its RMPP header.
     */
    byte[] segment(int seg) {
        if (!rmpp) {
            return mad;
        }
        byte[] out = new byte[MadLayer.MAD_SIZE];
        System.arraycopy(mad, 0, out, 0, hdrLen);
        System.arraycopy(mad, hdrLen + (seg - 1) * segSize, out, hdrLen, segSize);
        int flags = org.rdma.mad.Rmpp.FLAG_ACTIVE;
        int paylen = 0;
        int rmppSize = MadLayer.MAD_SIZE - org.rdma.verbs.wire.MadHdr.IB_MGMT_RMPP_HDR;
        if (seg == 1) {
            flags |= org.rdma.mad.Rmpp.FLAG_FIRST;
            paylen = segCount * rmppSize - pad;
        }
        if (seg == segCount) {
            flags |= org.rdma.mad.Rmpp.FLAG_LAST;
            paylen = rmppSize - pad;
        }
        org.rdma.mad.Rmpp.set(out, agent.rmppVersion(), org.rdma.mad.Rmpp.TYPE_DATA, flags, 0, seg, paylen);
        return out;
    }

    @Override
    public MadAgent agent() {
        return agent;
    }

    @Override
    public byte[] mad() {
        return mad;
    }

    @Override
    public int hdrLen() {
        return hdrLen;
    }

    @Override
    public int dataLen() {
        return dataLen;
    }

    @Override
    public int segCount() {
        return segCount;
    }

    @Override
    public int segSize() {
        return segSize;
    }

    @Override
    public IbAh ah() {
        return ah;
    }

    @Override
    public void setAh(IbAh ah) {
        this.ah = ah;
    }

    @Override
    public int timeoutMs() {
        return timeoutMs;
    }

    @Override
    public void setTimeoutMs(int timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    @Override
    public int retries() {
        return retries;
    }

    @Override
    public void setRetries(int retries) {
        this.retries = retries;
    }

    @Override
    public Object context(int i) {
        synchronized (context) {
            return context[i];
        }
    }

    @Override
    public void setContext(int i, Object value) {
        synchronized (context) {
            context[i] = value;
        }
    }

    @Override
    public int remoteQpn() {
        return remoteQpn;
    }

    @Override
    public int remoteQkey() {
        return remoteQkey;
    }

    @Override
    public void setRemoteQkey(int qkey) {
        this.remoteQkey = qkey;
    }

    @Override
    public int pkeyIndex() {
        return pkeyIndex;
    }

    @Override
    public String toString() {
        return "MadSendBuf[tid=0x" + Long.toHexString(tid) + " segs=" + segCount + " agent=" + agent + "]";
    }
}
