package org.rdma.rvt.harness;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import org.rdma.rvt.RvtDevice;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.Wc;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.ProviderAh;
import org.rdma.verbs.spi.ProviderCq;
import org.rdma.verbs.spi.ProviderMw;
import org.rdma.verbs.spi.ProviderPd;
import org.rdma.verbs.spi.ProviderQp;
import org.rdma.verbs.spi.ProviderSrq;
import org.rdma.verbs.time.IbClock;

/** One test device: an {@link RvtDevice} on a {@link TestDriver}, and the core's role played in miniature. */
public final class Node {
    /** The device. */
    public final RvtDevice dev;
    /** The core's context. */
    public final FakeContext ctx = new FakeContext();
    /** The driver. */
    public final TestDriver driver;
    /** The port LID. */
    public final int lid;
    /** The port GID. */
    public final Gid gid;
    /** Signalling of QPs created next. */
    public org.rdma.verbs.SigType sigType = org.rdma.verbs.SigType.ALL_WR;
    /** {@code create_flags} of QPs created next. */
    public int createFlags;

    Node(Wire wire, IbClock clock, int lid, DeviceAttr attr) {
        this.lid = lid;
        this.gid = Gid.linkLocal(0x0002_c900_0000_0000L | lid);
        this.driver = new TestDriver(wire, lid, gid);
        DeviceInfo info = new DeviceInfo();
        info.nameTemplate = "rvt%d";
        info.driverId = "rvttest";
        info.nodeGuid = lid;
        info.physPortCnt = 1;
        this.dev = new RvtDevice(info, attr, driver, clock);
        driver.ep = wire.attach(dev, 1, lid, gid);
        dev.attach(ctx);
    }

    @SuppressWarnings("unchecked")
    static <T> T proxy(Class<T> type, String name, Object pd) {
        return (T) Proxy.newProxyInstance(Node.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            switch (m.getName()) {
                case "toString": return name;
                case "hashCode": return System.identityHashCode(p);
                case "equals": return p == a[0];
                case "pd": return pd;
                default:
                    Class<?> r = m.getReturnType();
                    return r == int.class ? (Object) 0 : r == long.class ? (Object) 0L : r == boolean.class ? (Object) false : null;
            }
        });
    }

    /** A PD. */
    public static final class Pd {
        /** Core object. */
        public final IbPd core;
        /** Driver object. */
        public final ProviderPd p;

        Pd(IbPd core, ProviderPd p) {
            this.core = core;
            this.p = p;
        }
    }

    /** A CQ with a poll buffer. */
    public static final class Cq {
        /** Core object. */
        public final IbCq core;
        /** Driver object. */
        public final ProviderCq p;
        /** Poll buffer. */
        public final Wc[] wcs = Wc.array(64);

        Cq(IbCq core, ProviderCq p) {
            this.core = core;
            this.p = p;
        }

        /** Polls one completion into a new Wc, or null. */
        public Wc poll() {
            Wc[] one = Wc.array(1);
            return p.pollCq(1, one) == 1 ? one[0] : null;
        }
    }

    /** A QP. */
    public static final class Qp {
        /** Core object. */
        public final IbQp core;
        /** Driver object. */
        public final ProviderQp p;
        /** CQs. */
        public final Cq scq;
        /** Receive CQ. */
        public final Cq rcq;
        /** PD. */
        public final Pd pd;

        Qp(IbQp core, ProviderQp p, Pd pd, Cq scq, Cq rcq) {
            this.core = core;
            this.p = p;
            this.pd = pd;
            this.scq = scq;
            this.rcq = rcq;
        }

        /** The QP number. */
        public int qpn() {
            return p.qpNum();
        }

        /** Modifies the QP. */
        public void modify(QpAttr a, int mask) {
            p.modify(a, mask);
        }
    }

    /** An SRQ. */
    public static final class Srq {
        /** Core object. */
        public final IbSrq core;
        /** Driver object. */
        public final ProviderSrq p;

        Srq(IbSrq core, ProviderSrq p) {
            this.core = core;
            this.p = p;
        }
    }

    /** An AH. */
    public static final class Ah {
        /** Core object. */
        public final IbAh core;
        /** Driver object. */
        public final ProviderAh p;

        Ah(IbAh core, ProviderAh p) {
            this.core = core;
            this.p = p;
        }
    }

    /** An MW. */
    public static final class Mw {
        /** Core object. */
        public final IbMw core;
        /** Driver object. */
        public final ProviderMw p;

        Mw(IbMw core, ProviderMw p) {
            this.core = core;
            this.p = p;
        }
    }

    /** {@code ib_alloc_pd}. */
    public Pd allocPd() {
        IbPd core = proxy(IbPd.class, "pd", null);
        ProviderPd p = dev.allocPd(core);
        ctx.bind(core, p);
        return new Pd(core, p);
    }

    /** {@code ib_create_cq}. */
    public Cq createCq(int n) {
        IbCq core = proxy(IbCq.class, "cq", null);
        ProviderCq p = dev.createCq(core, CqInitAttr.of(n, 0));
        ctx.bind(core, p);
        return new Cq(core, p);
    }

    /** {@code ib_create_qp}. */
    public Qp createQp(Pd pd, QpType type, Cq scq, Cq rcq, Srq srq, int maxWr, int maxSge, int maxInline) {
        IbQp core = proxy(IbQp.class, type + " qp", pd.core);
        QpInitAttr init = new QpInitAttr();
        init.qpType = type;
        init.sqSigType = sigType;
        init.sendCq = scq.core;
        init.recvCq = rcq.core;
        init.srq = srq == null ? null : srq.core;
        init.cap.maxSendWr = maxWr;
        init.cap.maxRecvWr = maxWr;
        init.cap.maxSendSge = maxSge;
        init.cap.maxRecvSge = maxSge;
        init.cap.maxInlineData = maxInline;
        init.portNum = 1;
        init.createFlags = createFlags;
        ProviderQp p = dev.createQp(core, pd.p, init);
        ctx.bind(core, p);
        return new Qp(core, p, pd, scq, rcq);
    }

    /** {@code ib_create_srq}. */
    public Srq createSrq(Pd pd, int maxWr, int maxSge, int limit) {
        IbSrq core = proxy(IbSrq.class, "srq", pd.core);
        SrqInitAttr init = new SrqInitAttr();
        init.attr.maxWr = maxWr;
        init.attr.maxSge = maxSge;
        init.attr.srqLimit = limit;
        ProviderSrq p = dev.createSrq(core, pd.p, init);
        ctx.bind(core, p);
        return new Srq(core, p);
    }

    /** {@code ib_reg_user_mr} over {@code buf} at {@code iova}. */
    public FakeMr regMr(Pd pd, ByteBuffer buf, long iova, int access) {
        FakeMr mr = new FakeMr(pd.core, MrType.USER);
        mr.attach(dev.regUserMr(mr, pd.p, buf.slice(), iova, access), iova, buf.remaining());
        ctx.bind(mr, mr.provider);
        return mr;
    }

    /** {@code ib_get_dma_mr}. */
    public FakeMr dmaMr(Pd pd, int access) {
        FakeMr mr = new FakeMr(pd.core, MrType.DMA);
        mr.attach(dev.getDmaMr(mr, pd.p, access), 0, Long.MAX_VALUE);
        ctx.bind(mr, mr.provider);
        return mr;
    }

    /** {@code ib_alloc_mr}. */
    public FakeMr allocMr(Pd pd, MrType type, int maxSg) {
        FakeMr mr = new FakeMr(pd.core, type);
        mr.attach(dev.allocMr(mr, pd.p, type, maxSg), 0, 0);
        ctx.bind(mr, mr.provider);
        return mr;
    }

    /** {@code ib_alloc_mr_integrity}. */
    public FakeMr allocMrIntegrity(Pd pd, int maxDataSg, int maxMetaSg) {
        FakeMr mr = new FakeMr(pd.core, MrType.INTEGRITY);
        mr.attach(dev.allocMrIntegrity(mr, pd.p, maxDataSg, maxMetaSg), 0, 0);
        ctx.bind(mr, mr.provider);
        return mr;
    }

    /** {@code rdma_create_ah}. */
    public Ah createAh(Pd pd, AhAttr attr) {
        IbAh core = proxy(IbAh.class, "ah", pd.core);
        ProviderAh p = dev.createAh(core, attr, 0);
        ctx.bind(core, p);
        return new Ah(core, p);
    }

    /** {@code ib_alloc_mw}. */
    public Mw allocMw(Pd pd, MwType type) {
        IbMw core = proxy(IbMw.class, "mw", pd.core);
        ProviderMw p = dev.allocMw(core, pd.p, type);
        ctx.bind(core, p);
        return new Mw(core, p);
    }
}
