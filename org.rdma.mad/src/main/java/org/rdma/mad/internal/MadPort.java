package org.rdma.mad.internal;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.Smp;

/**
 * The MAD layer on one port: {@code struct ib_mad_port_private}. Owns the PD, the CQ shared by
 * both QPs, QP0 (IB ports only) and QP1, the agents and the request dispatch table
 * ({@code version[].class[].method_table[]}, here one map from class/version/OUI to a method
 * array).
 *
 * <p>Locking: {@link #lock} guards the agent list and dispatch table; it is never held while
 * verbs or agent handlers run. Receive processing runs in the CQ's poll context.
 */
final class MadPort {
    private static final System.Logger LOG = System.getLogger(MadPort.class.getName());
    /** {@code IB_MGMT_MAX_METHODS}. */
    static final int MAX_METHODS = MadRegRequest.MAX_METHODS;
    /** {@code MAX_MGMT_CLASS}: LID-routed classes are below; 0x81 is the one exception. */
    static final int MAX_MGMT_CLASS = 80;

    final MadLayer layer;
    final IbDevice device;
    final int portNum;
    final LinkLayer linkLayer;
    private IbPd pd;
    private IbCq cq;
    private final MadQp[] qps = new MadQp[2];
    private final Object lock = new Object();
    private final List<AgentImpl> agents = new CopyOnWriteArrayList<>();
    private final Map<Long, AgentImpl[]> methodTable = new HashMap<>();
    private final AtomicLongArray counters = new AtomicLongArray(MadCounter.values().length);
    private volatile IbAh permissiveAh;
    private volatile boolean closed;

    MadPort(MadLayer layer, IbDevice device, int portNum) {
        this.layer = layer;
        this.device = device;
        this.portNum = portNum;
        this.linkLayer = device.getLinkLayer(portNum);
    }

    /** {@code ib_mad_port_open()}: PD, CQ, QP0 (IB only), QP1, receive buffers; unwinds on failure. */
    void open() {
        boolean smi = linkLayer == LinkLayer.INFINIBAND;
        int cqSize = (MadLayer.SEND_QUEUE_SIZE + MadLayer.RECV_QUEUE_SIZE) * (smi ? 2 : 1);
        try {
            pd = device.allocPd(0, "ib_mad");
            cq = device.allocCq(this, cqSize, 0, layer.pollContext(), "ib_mad");
            if (smi) {
                qps[0] = new MadQp(this, QpType.SMI, pd, cq, MadLayer.SEND_QUEUE_SIZE, MadLayer.RECV_QUEUE_SIZE);
            }
            qps[1] = new MadQp(this, QpType.GSI, pd, cq, MadLayer.SEND_QUEUE_SIZE, MadLayer.RECV_QUEUE_SIZE);
            for (MadQp q : qps) {
                if (q != null) {
                    q.start();
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** {@code ib_mad_port_close()}: agents left are unregistered, then QPs, CQ and PD go, newest first. */
    void close() {
        closed = true;
        for (AgentImpl a : new ArrayList<>(agents)) {
            a.unregister();
        }
        for (int i = 1; i >= 0; i--) {
            if (qps[i] != null) {
                qps[i].close();
                qps[i] = null;
            }
        }
        IbAh ah = permissiveAh;
        if (ah != null) {
            permissiveAh = null;
            ah.destroy();
        }
        if (cq != null) {
            cq.free();
            cq = null;
        }
        if (pd != null) {
            try {
                pd.dealloc();
            } catch (RdmaException e) {
                // address handles an agent created and never destroyed: the core reaps them
                LOG.log(Level.WARNING, "{0}: MAD PD still in use at close: {1}", this, e.getMessage());
            }
            pd = null;
        }
    }

    boolean isClosed() {
        return closed;
    }

    MadQp qp(int index) {
        return qps[index];
    }

    IbPd pd() {
        return pd;
    }

    void count(MadCounter c) {
        counters.incrementAndGet(c.ordinal());
    }

    long counter(MadCounter c) {
        return counters.get(c.ordinal());
    }

    // ------------------------------------------------------------------ agents

    private static long key(int mgmtClass, int version, int oui) {
        return (long) version << 40 | (long) mgmtClass << 32 | (oui & 0xffffffL);
    }

    private static boolean isVendorRange2(int mgmtClass) {
        return mgmtClass >= MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_START && mgmtClass <= MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_END;
    }

    /** Adds an agent and its methods; EBUSY if a method is taken ({@code method_in_use()}). */
    void addAgent(AgentImpl agent, MadRegRequest req) {
        synchronized (lock) {
            RdmaException.check(!closed, Errno.ENODEV, this + " is closed");
            if (req != null && !req.methodMask.isEmpty()) {
                long k = key(req.mgmtClass, req.mgmtClassVersion, isVendorRange2(req.mgmtClass) ? req.oui : 0);
                AgentImpl[] table = methodTable.get(k);
                if (table != null) {
                    for (int m = req.methodMask.nextSetBit(0); m >= 0; m = req.methodMask.nextSetBit(m + 1)) {
                        if (table[m] != null && table[m].qpIndex == agent.qpIndex) {
                            throw new RdmaException(Errno.EBUSY, String.format(
                                    "%s: method 0x%02x of class 0x%02x version %d is registered by another agent",
                                    this, m, req.mgmtClass, req.mgmtClassVersion));
                        }
                    }
                } else {
                    table = new AgentImpl[MAX_METHODS];
                    methodTable.put(k, table);
                }
                for (int m = req.methodMask.nextSetBit(0); m >= 0; m = req.methodMask.nextSetBit(m + 1)) {
                    table[m] = agent;
                }
            }
            agents.add(agent);
        }
    }

    void removeAgent(AgentImpl agent) {
        synchronized (lock) {
            agents.remove(agent);
            for (AgentImpl[] table : methodTable.values()) {
                for (int m = 0; m < table.length; m++) {
                    if (table[m] == agent) {
                        table[m] = null;
                    }
                }
            }
        }
    }

    /** {@code find_mad_agent()}: responses by hi_tid, requests by class, version, OUI and method. */
    private AgentImpl findAgent(int qpIndex, byte[] mad, int mgmtClass, boolean response) {
        if (response) {
            int hiTid = (int) (MadHdr.tid(mad, 0) >>> 32);
            for (AgentImpl a : agents) {
                if (a.hiTid() == hiTid && a.qpIndex == qpIndex) {
                    return a;
                }
            }
            return null;
        }
        int oui = isVendorRange2(mgmtClass) ? (mad[37] & 0xff) << 16 | (mad[38] & 0xff) << 8 | (mad[39] & 0xff) : 0;
        long k = key(mgmtClass, MadHdr.classVersion(mad, 0), oui);
        int method = MadHdr.method(mad, 0) & 0x7f;
        synchronized (lock) {
            AgentImpl[] table = methodTable.get(k);
            AgentImpl a = table == null ? null : table[method];
            return a != null && a.qpIndex == qpIndex ? a : null;
        }
    }

    // ------------------------------------------------------------------ receive

    /**
     * {@code ib_mad_recv_done()}: validate, SMI, local SMA, agent dispatch (RMPP reassembly in the
     * agent). Runs in the CQ poll context; never throws for a malformed MAD. Reads the few header
     * fields it needs from the MAD, as the kernel reads {@code struct ib_mad_hdr}.
     */
    void recv(MadQp q, MadRecvWc recvWc) {
        byte[] mad = recvWc.mad();
        // validate_mad()
        if (MadHdr.baseVersion(mad, 0) != MadHdr.IB_MGMT_BASE_VERSION) {
            count(MadCounter.BAD_BASE_VERSION);
            return;
        }
        int mgmtClass = MadHdr.mgmtClass(mad, 0);
        boolean smp = mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED
                || mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
        if (smp != (q.index == 0)) {
            count(MadCounter.BAD_QP);
            return;
        }
        if (mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
            // handle_ib_smi(): a CA is the end of every directed route
            Smp s = new Smp().unpack(mad, 0);
            DrSmp.Decision d;
            try {
                d = DrSmp.receive(s, false, portNum, device.endPort());
            } catch (RuntimeException e) {
                d = DrSmp.Decision.discard();
            }
            if (d.verdict() != DrSmp.Verdict.HANDLE) {
                count(MadCounter.SMI_DISCARD);
                return;
            }
            s.pack(mad, 0);
        }
        count(MadCounter.RECV);
        boolean response = MadHdr.isResponse(mad, 0);
        // process_mad: the SMA of a device without one in firmware answers its Gets first
        if (smp && !response && layer.sma().process(this, q, recvWc)) {
            return;
        }
        AgentImpl agent = findAgent(q.index, mad, mgmtClass, response);
        if (agent == null) {
            if (response) {
                count(MadCounter.UNMATCHED_RESPONSE);
            } else {
                count(MadCounter.NO_AGENT);
                generateUnmatchedResp(q, recvWc, mgmtClass);
            }
            return;
        }
        agent.recv(recvWc, mgmtClass, MadHdr.tid(mad, 0), response);
    }

    /** {@code generate_unmatched_resp()}: Get/Set nobody handles are answered "unsupported". */
    private void generateUnmatchedResp(MadQp q, MadRecvWc req, int mgmtClass) {
        int method = MadHdr.method(req.mad(), 0);
        if (method != MadHdr.IB_MGMT_METHOD_GET && method != MadHdr.IB_MGMT_METHOD_SET) {
            return;
        }
        byte[] resp = req.bytes();
        resp[3] = (byte) MadHdr.IB_MGMT_METHOD_GET_RESP;
        int status = MadHdr.IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
        if (mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
            status |= Smp.IB_SMP_DIRECTION;
        }
        resp[4] = (byte) (status >>> 8);
        resp[5] = (byte) status;
        sendResponseRaw(q, req, resp);
    }

    /**
     * {@code agent_send_response()}: sends {@code resp} back to the sender of {@code req} outside
     * any agent; SMPs pass the send-side SMI first.
     */
    void sendResponseRaw(MadQp q, MadRecvWc req, byte[] resp) {
        if (q.index == 0 && (resp[1] & 0xff) == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
            Smp s = new Smp().unpack(resp, 0);
            if (DrSmp.send(s, false, portNum).verdict() == DrSmp.Verdict.DISCARD) {
                count(MadCounter.SMI_DISCARD);
                return;
            }
            s.pack(resp, 0);
        }
        IbAh ah;
        try {
            ah = createAhFromWc(req);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "{0}: no address back to the sender: {1}", this, e.getMessage());
            return;
        }
        Wc wc = req.wc();
        int qkey = q.index == 0 ? 0 : MadHdr.IB_QP1_QKEY;
        q.post(new MadQp.Seg(resp, ah, wc.srcQp, qkey, wc.pkeyIndex) {
            @Override
            void completed(org.rdma.verbs.WcStatus status) {
                ah.destroy();
            }
        });
    }

    /** {@code ib_init_ah_attr_from_wc()} and {@code rdma_create_ah()} on the MAD PD. */
    IbAh createAhFromWc(MadRecvWc recv) {
        return pd.createAh(ahAttrFromWc(recv), 0);
    }

    AhAttr ahAttrFromWc(MadRecvWc recv) {
        Wc wc = recv.wc();
        AhAttr a = new AhAttr();
        a.portNum = portNum;
        a.dlid = wc.slid;
        a.sl = wc.sl;
        a.srcPathBits = wc.dlidPathBits;
        byte[] grh = recv.grh();
        if (grh != null) {
            // RoCEv2 over IPv4: the IPv4 header sits in the last 20 bytes of the GRH area
            boolean v4 = (wc.wcFlags & WcFlags.WITH_NETWORK_HDR_TYPE) != 0 && wc.networkHdrType == 2;
            Gid sgid = v4 ? v4Gid(grh, 32) : Gid.of(grh, 8);
            Gid dgid = v4 ? v4Gid(grh, 36) : Gid.of(grh, 24);
            int flow = v4 ? 0 : ((grh[1] & 0x0f) << 16) | ((grh[2] & 0xff) << 8) | (grh[3] & 0xff);
            int tclass = v4 ? grh[21] & 0xff : ((grh[0] & 0x0f) << 4) | ((grh[1] & 0xf0) >>> 4);
            int sgidIndex = 0;
            try {
                GidAttr ours = device.findGidAttr(dgid, null, null);
                sgidIndex = ours.index();
                ours.put();
            } catch (RuntimeException e) {
                // the destination GID of the request is not ours any more: use index 0
            }
            a.setGrh(sgid, flow, sgidIndex, 0xff, tclass, null);
        }
        a.type = linkLayer == LinkLayer.INFINIBAND ? org.rdma.verbs.AhAttrType.IB : org.rdma.verbs.AhAttrType.ROCE;
        return a;
    }

    private static Gid v4Gid(byte[] b, int off) {
        long ip = (b[off] & 0xffL) << 24 | (b[off + 1] & 0xffL) << 16 | (b[off + 2] & 0xffL) << 8 | b[off + 3] & 0xffL;
        return Gid.of(0, 0xffff_0000_0000L | ip);
    }

    /** An address handle to the permissive LID, for directed-route SMPs posted without one. */
    IbAh permissiveAh() {
        IbAh ah = permissiveAh;
        if (ah == null) {
            synchronized (lock) {
                ah = permissiveAh;
                if (ah == null) {
                    AhAttr a = new AhAttr();
                    a.portNum = portNum;
                    a.dlid = Smp.IB_LID_PERMISSIVE;
                    ah = pd.createAh(a, 0);
                    permissiveAh = ah;
                }
            }
        }
        return ah;
    }

    @Override
    public String toString() {
        return device.name() + "/" + portNum;
    }
}
