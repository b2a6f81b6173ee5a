package org.rdma.rvt.internal.qp;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.internal.mem.KeyTable;
import org.rdma.rvt.internal.mem.Mem;
import org.rdma.rvt.internal.mem.RvtMr;
import org.rdma.rvt.internal.mem.RvtMw;
import org.rdma.rvt.internal.mem.RvtPd;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.DmaSpace;
import org.rdma.verbs.spi.ProviderAh;
import org.rdma.verbs.spi.ProviderCq;
import org.rdma.verbs.spi.ProviderMr;
import org.rdma.verbs.spi.ProviderMw;
import org.rdma.verbs.spi.ProviderPd;
import org.rdma.verbs.spi.ProviderQp;
import org.rdma.verbs.spi.ProviderSrq;
import org.rdma.verbs.time.IbClock;

/**
 * The device operations ({@code rxe_verbs.c}/{@code rdmavt}'s verbs): each verb checks its
 * arguments against the device limits, builds the object, and registers it; object counts are
 * kept per type so the limits of {@code DeviceAttr} hold.
 */
public final class DeviceVerbs {
    private final RvtContext dev;
    private final Receiver receiver;
    private final AtomicInteger pds = new AtomicInteger();
    private final AtomicInteger cqs = new AtomicInteger();
    private final AtomicInteger qpCount = new AtomicInteger();
    private final AtomicInteger srqs = new AtomicInteger();
    private final AtomicInteger ahs = new AtomicInteger();
    private final AtomicInteger mrs = new AtomicInteger();
    private final AtomicInteger mws = new AtomicInteger();
    private final DmaSpace dma;

    /** The verbs of one device. */
    public DeviceVerbs(DeviceInfo info, DeviceAttr attr, RvtDriver driver, IbClock clock) {
        KeyTable keys = new KeyTable(Math.max(16, attr.maxMr + attr.maxMw + 2));
        RvtContext[] holder = new RvtContext[1];
        this.dma = (addr, len) -> {
            DeviceContext c = holder[0] == null ? null : holder[0].ctx;
            return c == null ? null : c.dma().find(addr, len);
        };
        RvtMr global = null;
        if ((attr.kernelCapFlags & DeviceCapFlags.IBK_LOCAL_DMA_LKEY) != 0) {
            keys.claim(info.localDmaLkey);
            global = RvtMr.globalDma(keys, dma, info.localDmaLkey);
        }
        this.dev = new RvtContext(info, attr, driver, clock, new Mem(keys, global, info.localDmaLkey));
        holder[0] = dev;
        this.receiver = new Receiver(dev);
    }

    /** The shared device state. */
    public RvtContext context() {
        return dev;
    }

    /** The receive demultiplexer. */
    public Receiver receiver() {
        return receiver;
    }

    private static void take(AtomicInteger count, int max, String what) {
        if (count.incrementAndGet() > Math.max(1, max)) {
            count.decrementAndGet();
            throw new RdmaException(Errno.ENOMEM, "too many " + what + " (max " + max + ")");
        }
    }

    private <T> T provider(Object core, Class<T> type, String what) {
        // runs for every AH and QP a connection creates: the message is built only on failure
        if (core == null) {
            throw new RdmaException(Errno.EINVAL, what + " missing");
        }
        T t = dev.ctx.providerOf(core, type);
        if (t == null) {
            throw new RdmaException(Errno.EINVAL, what + " of another device");
        }
        return t;
    }

    /** {@code alloc_pd}. */
    public ProviderPd allocPd(IbPd pd) {
        take(pds, dev.attr.maxPd, "PDs");
        return new RvtPd(pd, pds::decrementAndGet);
    }

    /** {@code create_ah}. */
    public ProviderAh createAh(IbAh ah, AhAttr attr) {
        RvtPd pd = provider(ah.pd(), RvtPd.class, "PD");
        if (!dev.validPort(attr.portNum)) {
            throw new RdmaException(Errno.EINVAL, "no port " + attr.portNum);
        }
        take(ahs, dev.attr.maxAh, "AHs");
        try {
            return new RvtAh(pd, attr, dev.driver, ahs::decrementAndGet);
        } catch (RuntimeException e) {
            ahs.decrementAndGet();
            throw e;
        }
    }

    /** {@code create_cq}. */
    public ProviderCq createCq(IbCq cq, CqInitAttr attr) {
        RdmaException.check(attr.cqe > 0 && attr.cqe <= dev.attr.maxCqe, Errno.EINVAL,
                "CQ size " + attr.cqe + " outside 1.." + dev.attr.maxCqe);
        take(cqs, dev.attr.maxCq, "CQs");
        return new RvtCq(cq, dev.ctx, attr.cqe, cqs::decrementAndGet);
    }

    /** {@code create_qp}. */
    public ProviderQp createQp(IbQp core, ProviderPd ppd, QpInitAttr init) {
        QpType type = init.qpType;
        RdmaException.check(type == QpType.RC || type == QpType.UC || type == QpType.UD || type == QpType.GSI
                || type == QpType.SMI, Errno.EOPNOTSUPP, type + " QPs are not supported");
        RdmaException.check(ppd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        RdmaException.check(init.cap.maxSendWr <= dev.attr.maxQpWr && init.cap.maxRecvWr <= dev.attr.maxQpWr
                && init.cap.maxSendSge <= dev.attr.maxSendSge && init.cap.maxRecvSge <= dev.attr.maxRecvSge
                && init.cap.maxInlineData <= dev.attr.maxInlineData, Errno.EINVAL, "QP capabilities beyond the device's");
        RdmaException.check((init.createFlags & QpInitAttr.CREATE_INTEGRITY_EN) == 0
                || (dev.attr.kernelCapFlags & DeviceCapFlags.IBK_INTEGRITY_HANDOVER) != 0, Errno.EINVAL,
                "IB_QP_CREATE_INTEGRITY_EN without integrity handover");
        if (type == QpType.SMI) {
            RdmaException.check(!dev.isRoce(init.portNum), Errno.EINVAL, "no QP0 on a RoCE port");
        }
        RvtCq scq = provider(init.sendCq, RvtCq.class, "send CQ");
        RvtCq rcq = provider(init.recvCq, RvtCq.class, "receive CQ");
        RvtSrq srq = init.srq == null ? null : provider(init.srq, RvtSrq.class, "SRQ");
        take(qpCount, dev.attr.maxQp, "QPs");
        int qpn;
        try {
            qpn = dev.qps.allocate(type, init.portNum);
        } catch (RuntimeException e) {
            qpCount.decrementAndGet();
            throw e;
        }
        RvtQp qp;
        try {
            qp = new RvtQp(dev, core, (RvtPd) ppd, init, scq, rcq, srq, qpn, qpCount::decrementAndGet);
        } catch (RuntimeException e) {
            qpCount.decrementAndGet();
            throw e;
        }
        dev.qps.publish(qp);
        return qp;
    }

    /** {@code get_dma_mr}. */
    public ProviderMr getDmaMr(IbMr mr, ProviderPd pd, int access) {
        RdmaException.check(pd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        return counted(RvtMr.dma((RvtPd) pd, dev.mem.keys(), dma, access));
    }

    /** {@code reg_user_mr}. */
    public ProviderMr regUserMr(IbMr mr, ProviderPd pd, ByteBuffer buffer, long iova, int access) {
        RdmaException.check(pd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        return counted(RvtMr.user((RvtPd) pd, dev.mem.keys(), buffer, iova, access));
    }

    /** {@code alloc_mr}. */
    public ProviderMr allocMr(IbMr mr, ProviderPd pd, MrType type, int maxNumSg) {
        RdmaException.check(pd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        RdmaException.check(type == MrType.MEM_REG || type == MrType.SG_GAPS, Errno.EOPNOTSUPP,
                type + " MRs are not supported");
        RdmaException.check(maxNumSg > 0 && maxNumSg <= Math.max(1, dev.attr.maxFastRegPageListLen), Errno.EINVAL,
                "max_num_sg " + maxNumSg);
        return counted(RvtMr.fastReg((RvtPd) pd, dev.mem.keys(), dma, type, maxNumSg));
    }

    /** {@code alloc_mr_integrity}: a signature region ({@code IBK_INTEGRITY_HANDOVER}). */
    public ProviderMr allocMrIntegrity(IbMr mr, ProviderPd pd, int maxNumDataSg, int maxNumMetaSg) {
        RdmaException.check(pd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        RdmaException.check((dev.attr.kernelCapFlags & DeviceCapFlags.IBK_INTEGRITY_HANDOVER) != 0, Errno.EOPNOTSUPP,
                "INTEGRITY MRs are not supported");
        int max = dev.attr.maxPiFastRegPageListLen;
        RdmaException.check(maxNumDataSg > 0 && maxNumDataSg <= max && maxNumMetaSg > 0 && maxNumMetaSg <= max,
                Errno.EINVAL, "max_num_data_sg " + maxNumDataSg + " / max_num_meta_sg " + maxNumMetaSg
                        + " outside 1.." + max);
        return counted(RvtMr.integrity((RvtPd) pd, dev.mem.keys(), dma, maxNumDataSg, maxNumMetaSg));
    }

    private ProviderMr counted(RvtMr mr) {
        if (mrs.incrementAndGet() > Math.max(1, dev.attr.maxMr)) {
            mrs.decrementAndGet();
            mr.dereg();
            throw new RdmaException(Errno.ENOMEM, "too many MRs");
        }
        mr.onDereg = mrs::decrementAndGet;
        return mr;
    }

    /** {@code alloc_mw}. */
    public ProviderMw allocMw(IbMw mw, ProviderPd pd, MwType type) {
        RdmaException.check(pd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        take(mws, dev.attr.maxMw, "MWs");
        RvtMw w = new RvtMw(type, (RvtPd) pd, dev.mem.keys());
        w.onDealloc = mws::decrementAndGet;
        return w;
    }

    /** {@code create_srq}. */
    public ProviderSrq createSrq(IbSrq srq, ProviderPd pd, SrqInitAttr init) {
        RdmaException.check(pd instanceof RvtPd, Errno.EINVAL, "PD of another device");
        RdmaException.check(init.attr.maxWr > 0 && init.attr.maxWr <= dev.attr.maxSrqWr
                && init.attr.maxSge > 0 && init.attr.maxSge <= dev.attr.maxSrqSge, Errno.EINVAL,
                "SRQ size beyond the device's");
        RdmaException.check(init.attr.srqLimit >= 0 && init.attr.srqLimit <= init.attr.maxWr, Errno.EINVAL,
                "srq_limit > max_wr");
        take(srqs, dev.attr.maxSrq, "SRQs");
        RvtSrq s = new RvtSrq(srq, (RvtPd) pd, dev.ctx, init.attr.maxWr, init.attr.maxSge, srqs::decrementAndGet);
        if (init.attr.srqLimit > 0) {
            org.rdma.verbs.SrqAttr a = new org.rdma.verbs.SrqAttr();
            a.srqLimit = init.attr.srqLimit;
            s.modify(a, org.rdma.verbs.SrqAttrMask.LIMIT);
        }
        return s;
    }

    /** {@code rvt_qp_iter()}. */
    public void forEachQp(Consumer<? super ProviderQp> cb) {
        dev.qps.forEach(cb::accept);
    }
}
