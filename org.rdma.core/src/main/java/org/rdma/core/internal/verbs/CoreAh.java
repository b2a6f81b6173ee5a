package org.rdma.core.internal.verbs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.ProviderAh;

/** {@code struct ib_ah}: {@code rdma_create_ah()}, {@code rdma_query_ah()}, {@code rdma_destroy_ah()}. */
final class CoreAh extends CoreObject<ProviderAh> implements IbAh {
    private final CorePd pd;
    private final AhAttr attr = new AhAttr();

    private CoreAh(CorePd pd) {
        super(pd.dev);
        this.pd = pd;
    }

    static CoreAh create(CorePd pd, AhAttr request, int flags) {
        CoreDevice dev = pd.dev;
        CoreAh ah = new CoreAh(pd);
        prepare(dev, request, ah.attr);
        try {
            ah.provider = dev.provider.createAh(ah, ah.attr, flags);
        } catch (RuntimeException e) {
            AhAttr.destroy(ah.attr);
            throw e;
        }
        pd.usecnt.incrementAndGet();
        ah.track(Restrack.Type.AH, pd.owner(), ah::resAttrs);
        return ah;
    }

    /**
     * {@code rdma_check_ah_attr()} and {@code rdma_fill_sgid_attr()}: validates the port, sets
     * the type from the link layer, requires a GRH on RoCE, and copies {@code request} into
     * {@code out} holding an SGID reference (taken from the cache when the caller gave none).
     */
    static void prepare(CoreDevice dev, AhAttr request, AhAttr out) {
        LinkLayer ll = dev.getLinkLayer(request.portNum);
        AhAttrType expected = ll == LinkLayer.ETHERNET ? AhAttrType.ROCE : AhAttrType.IB;
        // an AH per MAD response passes here: the messages are built only on failure
        if (request.type != AhAttrType.UNDEFINED && request.type != expected) {
            throw new RdmaException(Errno.EINVAL,
                    dev.name() + "/" + request.portNum + ": address type " + request.type + " on a " + ll + " port");
        }
        if (ll == LinkLayer.ETHERNET && !request.hasGrh()) {
            throw new RdmaException(Errno.EINVAL, dev.name() + "/" + request.portNum + ": RoCE addresses need a GRH");
        }
        AhAttr.copy(out, request);
        out.type = expected;
        if (out.hasGrh() && out.grh.sgidAttr == null) {
            out.grh.sgidAttr = dev.getGidAttr(request.portNum, request.grh.sgidIndex);
        }
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("link", dev.name() + "/" + attr.portNum);
        m.put("ahn", Long.toString(resId()));
        m.put("dlid", Integer.toString(attr.dlid));
        if (attr.hasGrh()) {
            m.put("dgid", attr.grh.dgid.toString());
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
    public void query(AhAttr out) {
        synchronized (attr) {
            AhAttr.copy(out, attr);
        }
    }

    @Override
    public void modify(AhAttr request) {
        AhAttr next = new AhAttr();
        prepare(dev, request, next);
        try {
            provider.modify(next);
        } catch (RuntimeException e) {
            AhAttr.destroy(next);
            throw e;
        }
        synchronized (attr) {
            AhAttr.move(attr, next);
        }
    }

    @Override
    public void destroy() {
        if (!beginDestroy("AH")) {
            return;
        }
        provider.destroy();
        synchronized (attr) {
            AhAttr.destroy(attr);
        }
        pd.usecnt.decrementAndGet();
        untrack();
    }

    @Override
    void forceDestroy() {
        destroy();
    }

    @Override
    int cleanupRank() {
        return 3;
    }
}
