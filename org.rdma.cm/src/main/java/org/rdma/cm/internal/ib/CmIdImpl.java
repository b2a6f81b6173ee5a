package org.rdma.cm.internal.ib;

import java.util.ArrayDeque;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmIdDTO;
import org.rdma.cm.ib.IbCmLapState;
import org.rdma.cm.ib.IbCmState;
import org.rdma.mad.MadSendBuf;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;

/**
 * A communication identifier: {@code struct cm_id_private}. The monitor of this object is the
 * id's lock ({@code cm_id_priv->lock}); it is taken before the tables' lock and is never held
 * while a handler runs. Fields without a note are guarded by it.
 */
final class CmIdImpl implements IbCmId {
    final IbDevice device;
    /** Never 0; unique among live ids and ids in timewait. */
    final int localId;
    volatile IbCmHandler handler;
    volatile Object context;

    IbCmState state = IbCmState.IDLE;
    IbCmLapState lapState = IbCmLapState.UNINIT;
    /** Written under the id's lock, read by table lookups without it. */
    volatile long serviceId;
    /** Written under the id's lock, read by table lookups without it. */
    volatile long serviceMask;
    /** Written under the id's lock, read by table lookups without it. */
    volatile int remoteId;
    int remoteCmQpn = 1;

    /** {@code av}: the primary path. */
    final CmAv av = new CmAv();
    /** {@code alt_av}: the alternate path. */
    final CmAv altAv = new CmAv();

    /** {@code msg}: the outstanding request (REQ, REP, DREQ, LAP, SIDR_REQ) awaiting an answer. */
    MadSendBuf msg;
    /** {@code tid}: the transaction of the connection (the REQ's, the DREQ's or the LAP's). */
    long tid;
    /** {@code timewait_info}: the peer's identity while connecting or connected. */
    CmTimewait timewaitInfo;
    /** The timewait this id waits out ({@code timewait_info} on {@code cm.timewait_list}). */
    CmTimewait pendingTimewait;
    /** Private data of the last REP/RTU/MRA/DREP sent, resent when a duplicate arrives. */
    byte[] privateData;

    int localQpn;
    int remoteQpn;
    QpType qpType = QpType.RC;
    int sqPsn;
    int rqPsn;
    int timeoutMs;
    /** The path MTU, IBTA encoding. */
    int pathMtu;
    int pkey;
    int maxCmRetries;
    int responderResources;
    int initiatorDepth;
    int retryCount;
    int rnrRetryCount;
    int serviceTimeout;
    int targetAckDelay;
    /** The peer's CM response timeout exponent, for LAP. */
    int remoteCmResponseTimeout;

    /** {@code listen_sharecount}; guarded by the tables' lock. */
    int listenShareCount;
    /** The key in the remote SIDR table, or null; guarded by the tables' lock. */
    CmTables.SidrKey sidrKey;

    /** Destroyed by the consumer: no more events, gone from the tables (its local ID may wait out timewait). */
    boolean destroyed;
    /** A handler of this id runs ({@code work_count} >= 0). */
    boolean delivering;
    /** The thread running the handler, to let it destroy its own id. */
    Thread handlerThread;
    /** Events that arrived while a handler ran ({@code work_list}). */
    final ArrayDeque<IbCmEvent> pending = new ArrayDeque<>();

    CmIdImpl(IbDevice device, int localId, IbCmHandler handler, Object context) {
        this.device = device;
        this.localId = localId;
        this.handler = handler;
        this.context = context;
    }

    @Override
    public IbCmHandler handler() {
        return handler;
    }

    @Override
    public Object context() {
        return context;
    }

    @Override
    public void setContext(Object context) {
        this.context = context;
    }

    @Override
    public IbDevice device() {
        return device;
    }

    @Override
    public synchronized int portNum() {
        return av.port == null ? 0 : av.port.portNum;
    }

    @Override
    public long serviceId() {
        return serviceId;
    }

    @Override
    public long serviceMask() {
        return serviceMask;
    }

    @Override
    public synchronized IbCmState state() {
        return state;
    }

    @Override
    public synchronized IbCmLapState lapState() {
        return lapState;
    }

    @Override
    public int localId() {
        return localId;
    }

    @Override
    public int remoteId() {
        return remoteId;
    }

    @Override
    public synchronized int remoteCmQpn() {
        return remoteCmQpn;
    }

    int remoteIdRaw() {
        return remoteId;
    }

    long serviceIdRaw() {
        return serviceId;
    }

    long serviceMaskRaw() {
        return serviceMask;
    }

    synchronized IbCmIdDTO dto() {
        IbCmIdDTO d = new IbCmIdDTO();
        d.device = device.name();
        d.port = av.port == null ? 0 : av.port.portNum;
        d.state = state;
        d.lapState = lapState;
        d.localId = localId;
        d.remoteId = remoteId;
        d.serviceId = serviceId;
        d.serviceMask = serviceMask;
        d.localQpn = localQpn;
        d.remoteQpn = remoteQpn;
        return d;
    }

    @Override
    public synchronized String toString() {
        return "cm_id[" + device.name() + " local=0x" + Integer.toHexString(localId) + " remote=0x"
                + Integer.toHexString(remoteId) + " " + state + "]";
    }
}
