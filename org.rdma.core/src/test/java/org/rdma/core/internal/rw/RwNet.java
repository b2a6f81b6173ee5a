package org.rdma.core.internal.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SigType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;

/**
 * Two real core devices ({@link CoreDevice}) over the software transport on rvt's test wire, in
 * virtual time: host {@code a} runs rdma_rw as a target ULP would, host {@code b} exposes a
 * registered buffer. Completions are polled directly ({@code IB_POLL_DIRECT}).
 */
final class RwNet {
    static final long REMOTE_IOVA = 0x7000_0000L;
    static final int REMOTE_BYTES = 3 << 20;
    static final DeviceServices SERVICES = DeviceServices.standalone(Runnable::run);

    /** Collects the completions delivered to it ({@code struct ib_cqe}). */
    static final class Done implements IbCqe {
        final List<Wc> wcs = new ArrayList<>();

        @Override
        public void done(IbCq cq, Wc wc) {
            Wc c = new Wc();
            c.copyFrom(wc);
            wcs.add(c);
        }
    }

    final Rig rig = new Rig();
    final CoreDevice a;
    final CoreDevice b;
    final IbPd pa;
    final IbPd pb;
    final ByteBuffer remote = ByteBuffer.allocate(REMOTE_BYTES);
    final IbMr remoteMr;
    IbQp qa;
    IbQp qb;
    IbCq cqa;
    IbCq cqb;

    /** Devices whose attributes {@code attrs} may adjust first. */
    RwNet(Consumer<DeviceAttr> attrs) {
        this(attrs, NodeType.CA);
    }

    /** As {@link #RwNet(Consumer)}, with host {@code a} announcing {@code typeA} (RNIC: iWARP rules). */
    RwNet(Consumer<DeviceAttr> attrs, NodeType typeA) {
        attrs.accept(rig.attr);
        Node na = rig.node(1);
        na.dev.info().nodeType = typeA;
        a = core(na, "rvt_a", 0);
        b = core(rig.node(2), "rvt_b", 1);
        pa = a.allocPd(0, "rw-test");
        pb = b.allocPd(0, "rw-test");
        remoteMr = pb.regMr(remote, REMOTE_IOVA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ
                | AccessFlags.REMOTE_WRITE);
    }

    private static CoreDevice core(Node n, String name, int index) {
        CoreDevice d = CoreDevice.register(n.dev, name, index, SERVICES);
        return d;
    }

    /** The init attributes of {@link #connect}: RC, signalled on request, {@code sge} send SGEs. */
    static QpInitAttr init(IbCq cq, int sge, int rdmaCtxs, int createFlags) {
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.sqSigType = SigType.REQ_WR;
        init.sendCq = cq;
        init.recvCq = cq;
        init.cap.maxSendWr = 64;
        init.cap.maxRecvWr = 16;
        init.cap.maxSendSge = sge;
        init.cap.maxRecvSge = 1;
        init.cap.maxRdmaCtxs = rdmaCtxs;
        init.createFlags = createFlags;
        return init;
    }

    /** Connects a QP on {@code a} (with {@code init}) to a plain one on {@code b}. */
    void connect(QpInitAttr init) {
        cqa = a.allocCq(null, 1024, 0, PollContext.DIRECT, "rw-test");
        cqb = b.allocCq(null, 1024, 0, PollContext.DIRECT, "rw-test");
        init.sendCq = cqa;
        init.recvCq = cqa;
        qa = pa.createQp(init);
        qb = pb.createQp(init(cqb, 1, 0, 0));
        toRts(qa, qb.qpNum(), 2);
        toRts(qb, qa.qpNum(), 1);
    }

    private static void toRts(IbQp q, int dqpn, int dlid) {
        QpAttr at = new QpAttr();
        at.qpState = QpState.INIT;
        at.portNum = 1;
        at.qpAccessFlags = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
        q.modify(at, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS);
        at.qpState = QpState.RTR;
        at.ahAttr.type = AhAttrType.IB;
        at.ahAttr.dlid = dlid;
        at.ahAttr.portNum = 1;
        at.pathMtu = Mtu.MTU_4096;
        at.destQpNum = dqpn;
        at.rqPsn = 7;
        at.maxDestRdAtomic = 16;
        at.minRnrTimer = 1;
        q.modify(at, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
                | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER);
        at.qpState = QpState.RTS;
        at.sqPsn = 7;
        at.timeout = 14;
        at.retryCnt = 7;
        at.rnrRetry = 7;
        at.maxRdAtomic = 16;
        q.modify(at, QpAttrMask.STATE | QpAttrMask.SQ_PSN | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT
                | QpAttrMask.RNR_RETRY | QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    /** Delivers everything, then polls {@code a}'s CQ until {@code n} completions reached {@code done}. */
    void complete(Done done, int n) {
        rig.settle();
        for (int i = 0; i < 100 && done.wcs.size() < n; i++) {
            cqa.processCqDirect(64);
        }
        assertEquals(n, done.wcs.size(), () -> "completions: " + done.wcs);
        for (Wc wc : done.wcs) {
            assertEquals(WcStatus.SUCCESS, wc.status, wc::toString);
        }
    }

    /** Fills {@code b} with a pattern from {@code seed}. */
    static ByteBuffer pattern(ByteBuffer b, int seed) {
        return Rig.pattern(b, seed);
    }

    static void assertRange(ByteBuffer x, int xi, ByteBuffer y, int yi, int len) {
        for (int i = 0; i < len; i++) {
            if (x.get(xi + i) != y.get(yi + i)) {
                throw new AssertionError("byte " + i + " differs: " + x.get(xi + i) + " != " + y.get(yi + i));
            }
        }
    }
}
