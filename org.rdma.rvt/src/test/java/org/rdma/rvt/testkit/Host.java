package org.rdma.rvt.testkit;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.rvt.RvtDevice;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigType;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.Wc;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DmaRegion;
import org.rdma.verbs.spi.DmaSpace;
import org.rdma.verbs.spi.MrMapTarget;
import org.rdma.verbs.spi.ProviderAh;
import org.rdma.verbs.spi.ProviderCq;
import org.rdma.verbs.spi.ProviderMr;
import org.rdma.verbs.spi.ProviderPd;
import org.rdma.verbs.spi.ProviderQp;
import org.rdma.verbs.spi.ProviderSrq;

/**
 * The core's role in miniature for one rvt device (mlx4sim, rxe): a fake DeviceContext and verb
 * helpers, shared by the drivers' tests through rvt's test jar.
 */
public final class Host implements DeviceContext {
    public final RvtDevice p;
    public final List<IbEvent> events = new ArrayList<>();
    public final Map<String, Integer> netdevs = new java.util.HashMap<>();
    private final Map<Object, Object> providers = new IdentityHashMap<>();

    public Host(RvtDevice provider) {
        this.p = provider;
        p.attach(this);
    }

    // ---------------------------------------------------------------- DeviceContext
    @Override
    public IbDevice device() {
        return null;
    }

    @Override
    public synchronized void dispatchEvent(IbEvent event) {
        events.add(event);
    }

    @Override
    public void cqComplete(IbCq cq) {
    }

    @Override
    public synchronized void setNetdev(int port, String netdev) {
        netdevs.put(netdev, port);
    }

    @Override
    public DmaSpace dma() {
        return (addr, len) -> (DmaRegion) null;
    }

    @Override
    public synchronized <T> T providerOf(Object coreObject, Class<T> type) {
        return type.cast(providers.get(coreObject));
    }

    public synchronized int count(IbEventType t, int port) {
        int n = 0;
        for (IbEvent e : events) {
            if (e.type() == t && e.portNum() == port) {
                n++;
            }
        }
        return n;
    }

    public synchronized void bind(Object core, Object provider) {
        providers.put(core, provider);
    }

    // ---------------------------------------------------------------- objects
    @SuppressWarnings("unchecked")
    public static <T> T proxy(Class<T> type, String name, Object pd) {
        return (T) Proxy.newProxyInstance(Host.class.getClassLoader(), new Class<?>[] {type}, (pr, m, a) -> {
            switch (m.getName()) {
                case "toString": return name;
                case "hashCode": return System.identityHashCode(pr);
                case "equals": return pr == a[0];
                case "pd": return pd;
                default:
                    Class<?> r = m.getReturnType();
                    return r == int.class ? (Object) 0 : r == long.class ? (Object) 0L : r == boolean.class ? (Object) false : null;
            }
        });
    }

    public record Pd(IbPd core, ProviderPd p) { }

    public record Cq(IbCq core, ProviderCq p) {
        public List<Wc> drain() {
            List<Wc> out = new ArrayList<>();
            Wc[] w = Wc.array(16);
            int n;
            while ((n = p.pollCq(16, w)) > 0) {
                for (int i = 0; i < n; i++) {
                    Wc c = new Wc();
                    c.copyFrom(w[i]);
                    out.add(c);
                }
            }
            return out;
        }
    }

    public record Qp(IbQp core, ProviderQp p, Cq scq, Cq rcq) {
        public int qpn() {
            return p.qpNum();
        }
    }

    public record Srq(IbSrq core, ProviderSrq p) { }

    public record Ah(IbAh core, ProviderAh p) { }

    public Pd allocPd() {
        IbPd core = proxy(IbPd.class, "pd", null);
        ProviderPd pp = p.allocPd(core);
        bind(core, pp);
        return new Pd(core, pp);
    }

    public Cq createCq(int n) {
        IbCq core = proxy(IbCq.class, "cq", null);
        ProviderCq c = p.createCq(core, CqInitAttr.of(n, 0));
        bind(core, c);
        return new Cq(core, c);
    }

    public Qp createQp(Pd pd, QpType type, int port, Srq srq) {
        IbQp core = proxy(IbQp.class, type + " qp", pd.core());
        Cq scq = createCq(512);
        Cq rcq = createCq(512);
        QpInitAttr init = new QpInitAttr();
        init.qpType = type;
        init.sqSigType = SigType.ALL_WR;
        init.sendCq = scq.core();
        init.recvCq = rcq.core();
        init.srq = srq == null ? null : srq.core();
        init.cap.maxSendWr = 128;
        init.cap.maxRecvWr = 128;
        init.cap.maxSendSge = 4;
        init.cap.maxRecvSge = 4;
        init.cap.maxInlineData = 64;
        init.portNum = port;
        ProviderQp q = p.createQp(core, pd.p(), init);
        bind(core, q);
        return new Qp(core, q, scq, rcq);
    }

    public Srq createSrq(Pd pd, int maxWr) {
        IbSrq core = proxy(IbSrq.class, "srq", pd.core());
        SrqInitAttr init = new SrqInitAttr();
        init.attr.maxWr = maxWr;
        init.attr.maxSge = 4;
        ProviderSrq s = p.createSrq(core, pd.p(), init);
        bind(core, s);
        return new Srq(core, s);
    }

    public Ah createAh(Pd pd, AhAttr attr) {
        IbAh core = proxy(IbAh.class, "ah", pd.core());
        ProviderAh a = p.createAh(core, attr, 0);
        bind(core, a);
        return new Ah(core, a);
    }

    public FakeMr regMr(Pd pd, ByteBuffer buf, long iova, int access) {
        FakeMr mr = new FakeMr(pd.core(), MrType.USER);
        mr.attach(p.regUserMr(mr, pd.p(), buf.slice(), iova, access), iova, buf.remaining());
        bind(mr, mr.provider);
        return mr;
    }
}
