package org.rdma.core.internal.verbs;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rdma.core.internal.restrack.Restrack;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.MrType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.spi.MrMapTarget;
import org.rdma.verbs.spi.ProviderMr;

/**
 * {@code struct ib_mr} for every way one is made: {@code ib_reg_user_mr()}, {@code ib_get_dma_mr()},
 * {@code ib_alloc_mr()} and {@code ib_alloc_mr_integrity()}; with {@code ib_map_mr_sg()},
 * {@code ib_map_mr_sg_pi()}, {@code ib_update_fast_reg_key()} and {@code ib_check_mr_status()}. An
 * INTEGRITY MR owns its {@code sig_attrs}, as {@code ib_alloc_mr_integrity()} allocates them.
 */
final class CoreMr extends CoreObject<ProviderMr> implements IbMr, MrMapTarget {
    private final CorePd pd;
    private final MrType type;
    private volatile int lkey;
    private volatile int rkey;
    private volatile long iova;
    private volatile long length;
    private volatile int pageSize;
    private volatile boolean needInval;
    private final SigAttrs sigAttrs;

    private CoreMr(CorePd pd, MrType type) {
        super(pd.dev);
        this.pd = pd;
        this.type = type;
        this.sigAttrs = type == MrType.INTEGRITY ? new SigAttrs() : null;
    }

    private CoreMr finish(ProviderMr p) {
        provider = p;
        lkey = p.lkey();
        rkey = p.rkey();
        pd.usecnt.incrementAndGet();
        track(Restrack.Type.MR, pd.owner(), this::resAttrs);
        return this;
    }

    /** {@code pd->__internal_mr}: not tracked and not counted as a PD user, like the kernel's. */
    static CoreMr internalDma(CorePd pd, int access) {
        CoreMr mr = new CoreMr(pd, MrType.DMA);
        mr.provider = pd.dev.provider.getDmaMr(mr, pd.provider, access);
        mr.lkey = mr.provider.lkey();
        mr.rkey = mr.provider.rkey();
        return mr;
    }

    static CoreMr regUser(CorePd pd, ByteBuffer buffer, long iova, int access) {
        AccessFlags.checkMrAccess(access);
        RdmaException.check(buffer != null && buffer.remaining() > 0, Errno.EINVAL, "cannot register an empty buffer");
        RdmaException.check(buffer.remaining() <= pd.dev.attrsRef().maxMrSize || pd.dev.attrsRef().maxMrSize == 0,
                Errno.EINVAL, "region larger than max_mr_size " + pd.dev.attrsRef().maxMrSize);
        RdmaException.check(!buffer.isReadOnly() || (access & (AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                | AccessFlags.REMOTE_ATOMIC)) == 0, Errno.EFAULT, "writable registration of a read-only buffer");
        CoreMr mr = new CoreMr(pd, MrType.USER);
        mr.iova = iova;
        mr.length = buffer.remaining();
        return mr.finish(pd.dev.provider.regUserMr(mr, pd.provider, buffer.slice(), iova, access));
    }

    static CoreMr dma(CorePd pd, int access) {
        AccessFlags.checkMrAccess(access);
        CoreMr mr = new CoreMr(pd, MrType.DMA);
        return mr.finish(pd.dev.provider.getDmaMr(mr, pd.provider, access));
    }

    static CoreMr alloc(CorePd pd, MrType type, int maxNumSg) {
        DeviceAttr a = pd.dev.attrsRef();
        RdmaException.check(type == MrType.MEM_REG || type == MrType.SG_GAPS, Errno.EINVAL,
                "ib_alloc_mr takes MEM_REG or SG_GAPS, not " + type);
        RdmaException.check(type != MrType.SG_GAPS || (a.kernelCapFlags & DeviceCapFlags.IBK_SG_GAPS_REG) != 0,
                Errno.EINVAL, pd.dev.name() + " cannot register SG lists with gaps");
        RdmaException.check((a.deviceCapFlags & DeviceCapFlags.MEM_MGT_EXTENSIONS) != 0, Errno.EOPNOTSUPP,
                pd.dev.name() + " has no memory management extensions");
        RdmaException.check(maxNumSg > 0 && maxNumSg <= a.maxFastRegPageListLen, Errno.EINVAL,
                "max_num_sg " + maxNumSg + " outside 1.." + a.maxFastRegPageListLen);
        CoreMr mr = new CoreMr(pd, type);
        return mr.finish(pd.dev.provider.allocMr(mr, pd.provider, type, maxNumSg));
    }

    static CoreMr allocIntegrity(CorePd pd, int maxNumDataSg, int maxNumMetaSg) {
        DeviceAttr a = pd.dev.attrsRef();
        RdmaException.check((a.kernelCapFlags & DeviceCapFlags.IBK_INTEGRITY_HANDOVER) != 0, Errno.EOPNOTSUPP,
                pd.dev.name() + " has no integrity handover");
        RdmaException.check(maxNumMetaSg > 0, Errno.EINVAL, "an INTEGRITY MR needs max_num_meta_sg > 0");
        RdmaException.check(maxNumDataSg > 0 && maxNumDataSg <= a.maxPiFastRegPageListLen
                && maxNumMetaSg <= a.maxPiFastRegPageListLen, Errno.EINVAL, "data " + maxNumDataSg + " / metadata "
                + maxNumMetaSg + " SG entries outside 1.." + a.maxPiFastRegPageListLen);
        CoreMr mr = new CoreMr(pd, MrType.INTEGRITY);
        return mr.finish(pd.dev.provider.allocMrIntegrity(mr, pd.provider, maxNumDataSg, maxNumMetaSg));
    }

    private Map<String, String> resAttrs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("dev", dev.name());
        m.put("mrn", Long.toString(resId()));
        m.put("type", type.name());
        m.put("rkey", hex(rkey & 0xffff_ffffL));
        m.put("lkey", hex(lkey & 0xffff_ffffL));
        m.put("mrlen", Long.toString(length));
        m.put("iova", hex(iova));
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
    public MrType type() {
        return type;
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public long iova() {
        return iova;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int pageSize() {
        return pageSize;
    }

    @Override
    public void setIova(long iova) {
        this.iova = iova;
    }

    @Override
    public void setLength(long length) {
        this.length = length;
    }

    @Override
    public void updateFastRegKey(int newKey) {
        lkey = (lkey & 0xffffff00) | (newKey & 0xff);
        rkey = (rkey & 0xffffff00) | (newKey & 0xff);
        provider.keysUpdated(lkey, rkey);
    }

    private static boolean validPageSize(int pageSize) {
        return pageSize >= 512 && Integer.bitCount(pageSize) == 1;
    }

    @Override
    public int mapMrSg(SgEntry[] sg, int nents, int[] sgOffset, int pageSize) {
        if (!validPageSize(pageSize) || sg == null || nents > sg.length) {
            return -Errno.EINVAL.value;
        }
        this.pageSize = pageSize;
        return provider.mapMrSg(this, sg, nents, sgOffset);
    }

    @Override
    public int mapMrSgPi(SgEntry[] dataSg, int dataNents, int[] dataSgOffset, SgEntry[] metaSg, int metaNents,
            int[] metaSgOffset, int pageSize) {
        if (type != MrType.INTEGRITY) {
            return -Errno.EOPNOTSUPP.value;
        }
        if (!validPageSize(pageSize) || dataSg == null || dataNents > dataSg.length
                || (metaNents > 0 && (metaSg == null || metaNents > metaSg.length))) {
            return -Errno.EINVAL.value;
        }
        this.pageSize = pageSize;
        return provider.mapMrSgPi(this, dataSg, dataNents, dataSgOffset, metaSg, metaNents, metaSgOffset);
    }

    @Override
    public SigAttrs sigAttrs() {
        return sigAttrs;
    }

    @Override
    public int checkMrStatus(int checkMask, MrStatus status) {
        if (status == null || isDestroyed()) {
            return -Errno.EINVAL.value;
        }
        return provider.checkMrStatus(checkMask, status);
    }

    @Override
    public boolean needInval() {
        return needInval;
    }

    @Override
    public void setNeedInval(boolean needInval) {
        this.needInval = needInval;
    }

    @Override
    public void dereg() {
        if (!beginDestroy("MR")) {
            return;
        }
        provider.dereg();
        pd.usecnt.decrementAndGet();
        untrack();
    }

    @Override
    void forceDestroy() {
        usecnt.set(0);
        dereg();
    }

    @Override
    int cleanupRank() {
        return 4;
    }
}
