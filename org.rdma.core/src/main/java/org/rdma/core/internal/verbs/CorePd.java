package org.rdma.core.internal.verbs;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.IbWq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.WqInitAttr;
import org.rdma.verbs.spi.ProviderPd;

/** {@code struct ib_pd} and {@code ib_alloc_pd()}/{@code ib_dealloc_pd()}. */
final class CorePd extends CoreObject<ProviderPd> implements IbPd {
    private final String owner;
    private int localDmaLkey;
    private int unsafeGlobalRkey;
    private CoreMr internalMr;

    private CorePd(CoreDevice dev, String owner) {
        super(dev);
        this.owner = owner;
    }

    /**
     * Allocates the PD and, when the device has no device-wide DMA lkey or the caller wants the
     * unsafe global rkey, the internal DMA MR ({@code pd->__internal_mr}) that provides them.
     */
    static CorePd alloc(CoreDevice dev, int flags, String owner) {
        CorePd pd = new CorePd(dev, owner);
        pd.provider = dev.provider.allocPd(pd);
        try {
            int access = 0;
            if (dev.hasLocalDmaLkey()) {
                pd.localDmaLkey = dev.info().localDmaLkey;
            } else {
                access |= AccessFlags.LOCAL_WRITE;
            }
            if ((flags & UNSAFE_GLOBAL_RKEY) != 0) {
                access |= AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
            }
            if (access != 0) {
                pd.internalMr = CoreMr.internalDma(pd, access);
                if (!dev.hasLocalDmaLkey()) {
                    pd.localDmaLkey = pd.internalMr.lkey();
                }
                if ((flags & UNSAFE_GLOBAL_RKEY) != 0) {
                    pd.unsafeGlobalRkey = pd.internalMr.rkey();
                }
            }
        } catch (RuntimeException e) {
            pd.provider.dealloc();
            throw e;
        }
        pd.track(Restrack.Type.PD, owner, pd::resAttrs);
        return pd;
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dev", dev.name());
        m.put("pdn", Long.toString(resId()));
        m.put("users", Integer.toString(usecnt.get()));
        m.put("local_dma_lkey", hex(localDmaLkey & 0xffff_ffffL));
        if (unsafeGlobalRkey != 0) {
            m.put("unsafe_global_rkey", hex(unsafeGlobalRkey & 0xffff_ffffL));
        }
        return m;
    }

    long pdn() {
        return resId();
    }

    @Override
    public IbDevice device() {
        return dev;
    }

    @Override
    public int localDmaLkey() {
        return localDmaLkey;
    }

    @Override
    public int unsafeGlobalRkey() {
        return unsafeGlobalRkey;
    }

    @Override
    public String owner() {
        return owner;
    }

    @Override
    public IbAh createAh(AhAttr attr, int flags) {
        dev.checkAlive();
        return CoreAh.create(this, attr, flags);
    }

    @Override
    public IbQp createQp(QpInitAttr init) {
        dev.checkAlive();
        return CoreQp.create(this, init);
    }

    @Override
    public IbSrq createSrq(SrqInitAttr init) {
        dev.checkAlive();
        return CoreSrq.create(this, init);
    }

    @Override
    public IbWq createWq(WqInitAttr init) {
        dev.checkAlive();
        return CoreWq.create(this, init);
    }

    @Override
    public IbMr regMr(ByteBuffer buffer, long iova, int access) {
        dev.checkAlive();
        return CoreMr.regUser(this, buffer, iova, access);
    }

    @Override
    public IbMr getDmaMr(int access) {
        dev.checkAlive();
        return CoreMr.dma(this, access);
    }

    @Override
    public IbMr allocMr(MrType type, int maxNumSg) {
        dev.checkAlive();
        return CoreMr.alloc(this, type, maxNumSg);
    }

    @Override
    public IbMr allocMrIntegrity(int maxNumDataSg, int maxNumMetaSg) {
        dev.checkAlive();
        return CoreMr.allocIntegrity(this, maxNumDataSg, maxNumMetaSg);
    }

    @Override
    public IbMw allocMw(MwType type) {
        dev.checkAlive();
        return CoreMw.alloc(this, type);
    }

    @Override
    public void dealloc() {
        if (!beginDestroy("PD")) {
            return;
        }
        if (internalMr != null) {
            internalMr.provider.dereg();
        }
        provider.dealloc();
        untrack();
    }

    @Override
    void forceDestroy() {
        dealloc();
    }

    @Override
    int cleanupRank() {
        return 9;
    }

    @Override
    public String toString() {
        return dev.name() + " pd " + resId();
    }
}
