package org.rdma.rvt.testkit;

import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.MrType;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.spi.MrMapTarget;
import org.rdma.verbs.spi.ProviderMr;

/** The core's MR for tests: keys, IOVA, length and page size as {@code CoreMr} keeps them. */
public final class FakeMr implements IbMr, MrMapTarget {
    /** The driver's MR. */
    public ProviderMr provider;
    private final IbPd pd;
    private final MrType type;
    private int lkey;
    private int rkey;
    private long iova;
    private long length;
    private int pageSize;
    private boolean needInval;
    private final SigAttrs sigAttrs;

    /** An MR of {@code type} on {@code pd}; {@link #attach} completes it with the driver's MR. */
    public FakeMr(IbPd pd, MrType type) {
        this.pd = pd;
        this.type = type;
        this.sigAttrs = type == MrType.INTEGRITY ? new SigAttrs() : null;
    }

    /** Takes the driver's MR and its keys, as {@code CoreMr} does after registration. */
    public void attach(ProviderMr p, long iova, long length) {
        this.provider = p;
        this.lkey = p.lkey();
        this.rkey = p.rkey();
        this.iova = iova;
        this.length = length;
    }

    @Override
    public IbDevice device() {
        return null;
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

    @Override
    public int mapMrSg(SgEntry[] sg, int nents, int[] sgOffset, int pageSize) {
        this.pageSize = pageSize;
        return provider.mapMrSg(this, sg, nents, sgOffset);
    }

    @Override
    public int mapMrSgPi(SgEntry[] dataSg, int dataNents, int[] dataSgOffset, SgEntry[] metaSg, int metaNents,
            int[] metaSgOffset, int pageSize) {
        this.pageSize = pageSize;
        return provider.mapMrSgPi(this, dataSg, dataNents, dataSgOffset, metaSg, metaNents, metaSgOffset);
    }

    @Override
    public SigAttrs sigAttrs() {
        return sigAttrs;
    }

    @Override
    public int checkMrStatus(int checkMask, MrStatus status) {
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
        provider.dereg();
    }
}
