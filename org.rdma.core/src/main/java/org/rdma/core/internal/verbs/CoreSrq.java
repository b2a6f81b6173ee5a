package org.rdma.core.internal.verbs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SrqAttr;
import org.rdma.verbs.SrqAttrMask;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.spi.ProviderSrq;

/** {@code struct ib_srq}: {@code ib_create_srq()}, modify, query, post, destroy. */
final class CoreSrq extends CoreObject<ProviderSrq> implements IbSrq {
    private final CorePd pd;
    private final Object context;

    private CoreSrq(CorePd pd, SrqInitAttr init) {
        super(pd.dev, init.eventHandler);
        this.pd = pd;
        this.context = init.srqContext;
    }

    static CoreSrq create(CorePd pd, SrqInitAttr init) {
        DeviceAttr a = pd.dev.attrsRef();
        RdmaException.check(init.attr.maxWr > 0 && init.attr.maxWr <= a.maxSrqWr, Errno.EINVAL,
                pd.dev.name() + ": SRQ max_wr " + init.attr.maxWr + " outside 1.." + a.maxSrqWr);
        RdmaException.check(init.attr.maxSge > 0 && init.attr.maxSge <= a.maxSrqSge, Errno.EINVAL,
                pd.dev.name() + ": SRQ max_sge " + init.attr.maxSge + " outside 1.." + a.maxSrqSge);
        CoreSrq srq = new CoreSrq(pd, init);
        srq.provider = pd.dev.provider.createSrq(srq, pd.provider, init);
        pd.usecnt.incrementAndGet();
        srq.track(Restrack.Type.SRQ, pd.owner(), srq::resAttrs);
        return srq;
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dev", dev.name());
        m.put("srqn", Long.toString(resId()));
        m.put("users", Integer.toString(usecnt.get()));
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
    public Object context() {
        return context;
    }

    @Override
    public void modify(SrqAttr attr, int mask) {
        RdmaException.check((mask & ~(SrqAttrMask.MAX_WR | SrqAttrMask.LIMIT)) == 0, Errno.EINVAL,
                "unknown SRQ attribute mask 0x" + Integer.toHexString(mask));
        provider.modify(attr, mask);
    }

    @Override
    public void query(SrqAttr attr) {
        provider.query(attr);
    }

    @Override
    public int postSrqRecv(RecvWr wr, RecvWr[] badWr) {
        return provider.postSrqRecv(wr, badWr);
    }

    @Override
    public void destroy() {
        if (!beginDestroy("SRQ")) {
            return;
        }
        provider.destroy();
        pd.usecnt.decrementAndGet();
        untrack();
    }

    @Override
    void forceDestroy() {
        destroy();
    }

    @Override
    int cleanupRank() {
        return 1;
    }
}
