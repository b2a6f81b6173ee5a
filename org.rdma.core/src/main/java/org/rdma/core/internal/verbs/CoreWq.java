package org.rdma.core.internal.verbs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbWq;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.WqAttr;
import org.rdma.verbs.WqAttrMask;
import org.rdma.verbs.WqInitAttr;
import org.rdma.verbs.WqState;
import org.rdma.verbs.spi.ProviderWq;

/** {@code struct ib_wq}: {@code ib_create_wq()}, {@code ib_modify_wq()}, {@code ib_destroy_wq()}. */
final class CoreWq extends CoreObject<ProviderWq> implements IbWq {
    private final CorePd pd;
    private final CoreCq cq;
    private volatile WqState state = WqState.RESET;

    private CoreWq(CorePd pd, CoreCq cq, WqInitAttr init) {
        super(pd.dev, init.eventHandler);
        this.pd = pd;
        this.cq = cq;
    }

    static CoreWq create(CorePd pd, WqInitAttr init) {
        RdmaException.check(init.cq instanceof CoreCq && ((CoreCq) init.cq).dev == pd.dev, Errno.EINVAL,
                pd.dev.name() + ": a WQ needs a CQ of the same device");
        RdmaException.check(init.maxWr > 0 && init.maxSge > 0, Errno.EINVAL, "WQ max_wr and max_sge must be positive");
        CoreWq wq = new CoreWq(pd, (CoreCq) init.cq, init);
        wq.provider = pd.dev.provider.createWq(wq, pd.provider, init);
        pd.usecnt.incrementAndGet();
        wq.cq.usecnt.incrementAndGet();
        wq.track(Restrack.Type.WQ, pd.owner(), wq::resAttrs);
        return wq;
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dev", dev.name());
        m.put("wqn", Integer.toString(provider.wqNum()));
        m.put("state", state.name());
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
    public int wqNum() {
        return provider.wqNum();
    }

    @Override
    public WqState state() {
        return state;
    }

    /** RESET -> RDY, RDY -> RDY/ERR, any -> RESET, ERR -> ERR. */
    static boolean transitionOk(WqState cur, WqState next) {
        switch (next) {
            case RESET:
                return true;
            case RDY:
                return cur == WqState.RESET || cur == WqState.RDY;
            default:
                return cur == WqState.RDY || cur == WqState.ERR;
        }
    }

    @Override
    public synchronized void modify(WqAttr attr, int mask) {
        RdmaException.check((mask & ~(WqAttrMask.STATE | WqAttrMask.CUR_STATE | WqAttrMask.FLAGS)) == 0,
                Errno.EINVAL, "unknown WQ attribute mask 0x" + Integer.toHexString(mask));
        WqState cur = (mask & WqAttrMask.CUR_STATE) != 0 ? attr.currWqState : state;
        WqState next = (mask & WqAttrMask.STATE) != 0 ? attr.wqState : cur;
        RdmaException.check(cur == state, Errno.EINVAL, "WQ is " + state + ", not " + cur);
        RdmaException.check(transitionOk(cur, next), Errno.EINVAL, "invalid WQ transition " + cur + "->" + next);
        provider.modify(attr, mask);
        state = next;
    }

    @Override
    public void destroy() {
        if (!beginDestroy("WQ")) {
            return;
        }
        provider.destroy();
        pd.usecnt.decrementAndGet();
        cq.usecnt.decrementAndGet();
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
