package org.rdma.core.internal.verbs;

import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.core.internal.rw.CoreQpAttrs;
import org.rdma.core.internal.rw.MrPool;
import org.rdma.core.internal.rw.RwQp;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMrPool;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpStateTable;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.spi.ProviderQp;

/**
 * {@code struct ib_qp}: {@code ib_create_qp()}, {@code ib_modify_qp()} with the
 * {@code ib_modify_qp_is_ok()} check and SGID reference handling of {@code _ib_modify_qp()},
 * the generic drain of {@code __ib_drain_sq()}/{@code __ib_drain_rq()}, and {@code ib_destroy_qp()};
 * with {@code cap.max_rdma_ctxs}, the send queue room and MR pools of {@code rdma_rw}.
 */
final class CoreQp extends CoreObject<ProviderQp> implements IbQp, CoreQpAttrs {
    private static final System.Logger LOG = System.getLogger(CoreQp.class.getName());

    private final CorePd pd;
    private final QpType type;
    private final CoreCq sendCq;
    private final CoreCq recvCq;
    private final CoreSrq srq;
    private final Object context;
    private volatile int port;
    private int sqPsn;
    private GidAttr avSgidAttr;
    private GidAttr altSgidAttr;
    private int maxWriteSge;
    private int maxReadSge;
    private final boolean integrityEn;
    private final AtomicInteger mrsUsed = new AtomicInteger();
    private final MrPool rdmaMrs;
    private final MrPool sigMrs;

    private CoreQp(CorePd pd, QpInitAttr init, CoreCq sendCq, CoreCq recvCq, CoreSrq srq) {
        super(pd.dev, init.eventHandler);
        this.pd = pd;
        this.type = init.qpType;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.context = init.qpContext;
        this.integrityEn = (init.createFlags & QpInitAttr.CREATE_INTEGRITY_EN) != 0;
        this.rdmaMrs = new MrPool(pd, "rdma_mrs", mrsUsed);
        this.sigMrs = new MrPool(pd, "sig_mrs", mrsUsed);
    }

    static CoreQp create(CorePd pd, QpInitAttr init) {
        CoreDevice dev = pd.dev;
        RdmaException.check(init.qpType != null, Errno.EINVAL, "QP type missing");
        CoreCq scq = ownCq(dev, init.sendCq, "send");
        CoreCq rcq = ownCq(dev, init.recvCq, "receive");
        // every QP a connection makes passes here: the messages are built only on failure
        if (init.qpType != QpType.XRC_TGT && (scq == null || rcq == null)) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": a " + init.qpType + " QP needs a send and a receive CQ");
        }
        CoreSrq srq = null;
        if (init.srq != null) {
            RdmaException.check(init.srq instanceof CoreSrq && ((CoreSrq) init.srq).dev == dev, Errno.EINVAL,
                    "SRQ of another device");
            srq = (CoreSrq) init.srq;
        }
        if (init.qpType == QpType.SMI || init.qpType == QpType.GSI) {
            dev.checkPort(init.portNum);
            RdmaException.check(init.qpType != QpType.SMI || dev.getLinkLayer(init.portNum) == LinkLayer.INFINIBAND,
                    Errno.EINVAL, dev.name() + "/" + init.portNum + ": no SMI QP on a RoCE port");
        }
        if ((init.createFlags & QpInitAttr.CREATE_INTEGRITY_EN) != 0
                && (dev.attrsRef().kernelCapFlags & DeviceCapFlags.IBK_INTEGRITY_HANDOVER) == 0) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": IB_QP_CREATE_INTEGRITY_EN without integrity handover");
        }
        if (init.cap.maxRdmaCtxs > 0) {
            RwQp.initQp(dev, dev.attrsRef(), init);
        }
        checkCaps(dev, init);
        CoreQp qp = new CoreQp(pd, init, scq, rcq, srq);
        if (init.qpType == QpType.SMI || init.qpType == QpType.GSI) {
            qp.port = init.portNum;
        }
        qp.provider = dev.provider.createQp(qp, pd.provider, init);
        pd.usecnt.incrementAndGet();
        if (scq != null) {
            scq.usecnt.incrementAndGet();
        }
        if (rcq != null) {
            rcq.usecnt.incrementAndGet();
        }
        if (srq != null) {
            srq.usecnt.incrementAndGet();
        }
        qp.maxWriteSge = init.cap.maxSendSge;
        qp.maxReadSge = Math.min(init.cap.maxSendSge, dev.attrsRef().maxSgeRd);
        qp.track(Restrack.Type.QP, pd.owner(), qp::resAttrs);
        if (init.cap.maxRdmaCtxs > 0) {
            try {
                RwQp.initMrs(qp, dev.attrsRef(), init);
            } catch (RuntimeException e) {
                qp.destroy();
                throw e;
            }
        }
        return qp;
    }

    private static CoreCq ownCq(CoreDevice dev, IbCq cq, String which) {
        if (cq == null) {
            return null;
        }
        if (!(cq instanceof CoreCq) || ((CoreCq) cq).dev != dev) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": " + which + " CQ belongs to another device");
        }
        return (CoreCq) cq;
    }

    /** The limits every driver shares ({@code rxe_qp_chk_cap()} in spirit): EINVAL beyond the device's. */
    private static void checkCaps(CoreDevice dev, QpInitAttr init) {
        DeviceAttr a = dev.attrsRef();
        if (init.cap.maxSendWr < 0 || init.cap.maxSendWr > a.maxQpWr) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": max_send_wr " + init.cap.maxSendWr + " > max_qp_wr " + a.maxQpWr);
        }
        if (init.cap.maxRecvWr < 0 || init.srq == null && init.cap.maxRecvWr > a.maxQpWr) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": max_recv_wr " + init.cap.maxRecvWr + " > max_qp_wr " + a.maxQpWr);
        }
        if (init.cap.maxSendSge < 0 || init.cap.maxSendSge > a.maxSendSge) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": max_send_sge " + init.cap.maxSendSge + " > " + a.maxSendSge);
        }
        if (init.cap.maxRecvSge < 0 || init.cap.maxRecvSge > a.maxRecvSge) {
            throw new RdmaException(Errno.EINVAL, dev.name() + ": max_recv_sge " + init.cap.maxRecvSge + " > " + a.maxRecvSge);
        }
        if (init.cap.maxInlineData < 0 || init.cap.maxInlineData > Math.max(a.maxInlineData, 0)) {
            throw new RdmaException(Errno.EINVAL,
                    dev.name() + ": max_inline_data " + init.cap.maxInlineData + " > " + a.maxInlineData);
        }
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("link", dev.name() + "/" + port);
        m.put("lqpn", Integer.toString(provider.qpNum()));
        m.put("type", type.name());
        m.put("state", provider.state().name());
        if (type == QpType.RC || type == QpType.UC || type == QpType.UD || type == QpType.GSI) {
            m.put("sq-psn", Integer.toString(sqPsn));
        }
        m.put("pdn", Long.toString(pd.pdn()));
        return m;
    }

    @Override
    public IbDevice device() {
        return dev;
    }

    @Override
    public IbPd pd() {
        return pd;
    }

    @Override
    public int qpNum() {
        return provider.qpNum();
    }

    @Override
    public QpType qpType() {
        return type;
    }

    @Override
    public IbCq sendCq() {
        return sendCq;
    }

    @Override
    public IbCq recvCq() {
        return recvCq;
    }

    @Override
    public IbSrq srq() {
        return srq;
    }

    @Override
    public Object context() {
        return context;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public QpState state() {
        return provider.state();
    }

    @Override
    public synchronized void modify(QpAttr attr, int mask) {
        if ((mask & ~QpAttrMask.ALL) != 0) {
            throw new RdmaException(Errno.EINVAL, "unknown QP attribute mask bits 0x" + Integer.toHexString(mask & ~QpAttrMask.ALL));
        }
        QpState cur = (mask & QpAttrMask.CUR_STATE) != 0 ? attr.curQpState : provider.state();
        QpState next = (mask & QpAttrMask.STATE) != 0 ? attr.qpState : cur;
        if (!QpStateTable.modifyQpIsOk(cur, next, type, mask)) {
            throw new RdmaException(Errno.EINVAL, dev.name() + " QP 0x" + Integer.toHexString(qpNum()) + " (" + type
                    + "): invalid modify " + cur + "->" + next + " with mask 0x" + Integer.toHexString(mask)
                    + " (requires 0x" + Integer.toHexString(QpStateTable.requiredMask(cur, next, type))
                    + ", allows 0x" + Integer.toHexString(QpStateTable.optionalMask(cur, next, type)) + ")");
        }
        int targetPort = (mask & QpAttrMask.PORT) != 0 ? attr.portNum : port;
        if ((mask & QpAttrMask.PORT) != 0) {
            dev.checkPort(attr.portNum);
        }
        attr.rqPsn &= 0xffffff;
        attr.sqPsn &= 0xffffff;
        GidAttr filledAv = (mask & QpAttrMask.AV) != 0 ? fillSgid(attr.ahAttr, targetPort) : null;
        GidAttr filledAlt = null;
        try {
            if ((mask & QpAttrMask.ALT_PATH) != 0) {
                RdmaException.check(dev.getLinkLayer(attr.altAhAttr.portNum) == LinkLayer.INFINIBAND
                        && (targetPort == 0 || dev.getLinkLayer(targetPort) == LinkLayer.INFINIBAND),
                        Errno.EINVAL, "alternate paths are only supported on InfiniBand ports");
                filledAlt = fillSgid(attr.altAhAttr, attr.altAhAttr.portNum);
            }
            provider.modify(attr, mask);
            if ((mask & QpAttrMask.PORT) != 0) {
                port = attr.portNum;
            }
            if ((mask & QpAttrMask.SQ_PSN) != 0) {
                sqPsn = attr.sqPsn;
            }
            if ((mask & QpAttrMask.AV) != 0) {
                avSgidAttr = updateSgid(attr.ahAttr, avSgidAttr);
            }
            if ((mask & QpAttrMask.ALT_PATH) != 0) {
                altSgidAttr = updateSgid(attr.altAhAttr, altSgidAttr);
            }
        } finally {
            unfillSgid(attr.ahAttr, filledAv);
            unfillSgid(attr.altAhAttr, filledAlt);
        }
    }

    /** {@code rdma_fill_sgid_attr()}: returns the reference taken for the call, or null. */
    private GidAttr fillSgid(AhAttr ah, int p) {
        if (!ah.hasGrh() || ah.grh.sgidAttr != null) {
            return null;
        }
        dev.checkPort(p);
        GidAttr g = dev.getGidAttr(p, ah.grh.sgidIndex);
        ah.grh.sgidAttr = g;
        return g;
    }

    private static void unfillSgid(AhAttr ah, GidAttr filled) {
        if (filled != null) {
            ah.grh.sgidAttr = null;
            filled.put();
        }
    }

    /** {@code rdma_update_sgid_attr()}: the QP keeps its own reference on the path's SGID. */
    private static GidAttr updateSgid(AhAttr ah, GidAttr old) {
        GidAttr now = ah.hasGrh() ? ah.grh.sgidAttr : null;
        if (now != null) {
            now.hold();
        }
        if (old != null) {
            old.put();
        }
        return now;
    }

    @Override
    public void query(QpAttr attr, int mask, QpInitAttr init) {
        attr.ahAttr.grh.sgidAttr = null;
        attr.altAhAttr.grh.sgidAttr = null;
        provider.query(attr, mask, init);
        if (init != null) {
            init.sendCq = sendCq;
            init.recvCq = recvCq;
            init.srq = srq;
            init.qpType = type;
            init.qpContext = context;
            init.eventHandler = eventHandler;
        }
    }

    @Override
    public int postSend(SendWr wr, SendWr[] badWr) {
        if (isDestroyed()) {
            if (badWr != null) {
                badWr[0] = wr;
            }
            return destroyedErrno();
        }
        return provider.postSend(wr, badWr);
    }

    @Override
    public int postRecv(RecvWr wr, RecvWr[] badWr) {
        if (isDestroyed()) {
            if (badWr != null) {
                badWr[0] = wr;
            }
            return destroyedErrno();
        }
        return provider.postRecv(wr, badWr);
    }

    /** A post to a destroyed QP never reaches the driver: ENODEV once its device went away, else EINVAL. */
    private int destroyedErrno() {
        return dev.isRegistered() ? -Errno.EINVAL.value : -Errno.ENODEV.value;
    }

    @Override
    public void attachMcast(Gid gid, int lid) {
        checkMcast(gid, lid);
        provider.attachMcast(gid, lid);
        usecnt.incrementAndGet();
    }

    @Override
    public void detachMcast(Gid gid, int lid) {
        checkMcast(gid, lid);
        provider.detachMcast(gid, lid);
        usecnt.decrementAndGet();
    }

    /** {@code ib_attach_mcast()} checks: UD QP, multicast GID, and on IB a multicast LID. */
    private void checkMcast(Gid gid, int lid) {
        RdmaException.check(type == QpType.UD, Errno.EINVAL, "multicast needs a UD QP, not " + type);
        RdmaException.check(gid.isMulticastAddr(), Errno.EINVAL,
                gid + " is not a multicast GID");
        if (port != 0 && dev.getLinkLayer(port) == LinkLayer.INFINIBAND) {
            RdmaException.check(lid >= 0xC000 && lid <= 0xFFFE, Errno.EINVAL,
                    "LID 0x" + Integer.toHexString(lid) + " is not a multicast LID");
        }
    }

    @Override
    public void drainSq() {
        if (!provider.drainSq()) {
            Drain.sq(this, sendCq);
        }
    }

    @Override
    public void drainRq() {
        if (!provider.drainRq()) {
            Drain.rq(this, recvCq);
        }
    }

    @Override
    public void drain() {
        drainSq();
        if (srq == null) {
            drainRq();
        }
    }

    /** Moves the QP to ERR so its outstanding work requests flush (device removal). */
    void flushForRemoval() {
        if (isDestroyed() || provider.state() == QpState.RESET || provider.state() == QpState.ERR) {
            return;
        }
        try {
            QpAttr a = new QpAttr();
            a.qpState = QpState.ERR;
            modify(a, QpAttrMask.STATE);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, dev.name() + ": could not flush " + this, e);
        }
    }

    @Override
    public void destroy() {
        if (!beginDestroy("QP 0x" + Integer.toHexString(qpNum()) + " (multicast attachments)")) {
            return;
        }
        provider.destroy();
        RwQp.cleanupMrs(this);
        synchronized (this) {
            if (avSgidAttr != null) {
                avSgidAttr.put();
                avSgidAttr = null;
            }
            if (altSgidAttr != null) {
                altSgidAttr.put();
                altSgidAttr = null;
            }
        }
        pd.usecnt.decrementAndGet();
        if (sendCq != null) {
            sendCq.usecnt.decrementAndGet();
        }
        if (recvCq != null) {
            recvCq.usecnt.decrementAndGet();
        }
        if (srq != null) {
            srq.usecnt.decrementAndGet();
        }
        untrack();
    }

    @Override
    public int maxWriteSge() {
        return maxWriteSge;
    }

    @Override
    public int maxReadSge() {
        return maxReadSge;
    }

    @Override
    public boolean integrityEn() {
        return integrityEn;
    }

    @Override
    public IbMrPool rdmaMrs() {
        return rdmaMrs;
    }

    @Override
    public IbMrPool sigMrs() {
        return sigMrs;
    }

    @Override
    public int mrsUsed() {
        return mrsUsed.get();
    }

    @Override
    public DeviceAttr deviceAttrs() {
        return dev.attrsRef();
    }

    @Override
    void forceDestroy() {
        usecnt.set(0);
        destroy();
    }

    @Override
    int cleanupRank() {
        return 0;
    }

    @Override
    public String toString() {
        return dev.name() + " qp 0x" + Integer.toHexString(provider == null ? 0 : provider.qpNum());
    }
}
