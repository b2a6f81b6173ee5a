package org.rdma.core.internal.verbs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.MwType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.ProviderMw;

/** {@code struct ib_mw}: allocation needs {@code IB_DEVICE_MEM_WINDOW} (type 2: type 2A or 2B). */
final class CoreMw extends CoreObject<ProviderMw> implements IbMw {
    private final CorePd pd;
    private final MwType type;

    private CoreMw(CorePd pd, MwType type) {
        super(pd.dev);
        this.pd = pd;
        this.type = type;
    }

    static CoreMw alloc(CorePd pd, MwType type) {
        long caps = pd.dev.attrsRef().deviceCapFlags;
        RdmaException.check((caps & DeviceCapFlags.MEM_WINDOW) != 0, Errno.EOPNOTSUPP,
                pd.dev.name() + " does not support memory windows");
        RdmaException.check(type != MwType.TYPE_2
                || (caps & (DeviceCapFlags.MEM_WINDOW_TYPE_2A | DeviceCapFlags.MEM_WINDOW_TYPE_2B)) != 0,
                Errno.EOPNOTSUPP, pd.dev.name() + " does not support type 2 memory windows");
        CoreMw mw = new CoreMw(pd, type);
        mw.provider = pd.dev.provider.allocMw(mw, pd.provider, type);
        pd.usecnt.incrementAndGet();
        mw.track(Restrack.Type.MW, pd.owner(), mw::resAttrs);
        return mw;
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dev", dev.name());
        m.put("mwn", Long.toString(resId()));
        m.put("type", Integer.toString(type.value));
        m.put("rkey", hex(provider.rkey() & 0xffff_ffffL));
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
    public MwType type() {
        return type;
    }

    @Override
    public int rkey() {
        return provider.rkey();
    }

    @Override
    public void dealloc() {
        if (!beginDestroy("MW")) {
            return;
        }
        provider.dealloc();
        pd.usecnt.decrementAndGet();
        untrack();
    }

    @Override
    void forceDestroy() {
        dealloc();
    }

    @Override
    int cleanupRank() {
        return 2;
    }
}
