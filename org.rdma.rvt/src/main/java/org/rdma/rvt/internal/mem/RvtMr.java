package org.rdma.rvt.internal.mem;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.MrType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.spi.DmaRegion;
import org.rdma.verbs.spi.DmaSpace;
import org.rdma.verbs.spi.MrMapTarget;
import org.rdma.verbs.spi.ProviderMr;
import org.rdma.verbs.spi.SgToPages;

/**
 * A memory region ({@code struct rvt_mregion}/{@code rxe_mr}). lkey and rkey are the same key. Four
 * kinds translate addresses differently: USER regions index their buffer slice, DMA regions look the
 * address up in the core's DMA space, MEM_REG regions go through their page list and SG_GAPS regions
 * through their element list (both filled by {@code map_mr_sg} and made valid by a REG_MR work
 * request). INTEGRITY regions present a zero-based wire-domain view through their
 * {@link SigRegion}, made valid by a REG_MR_INTEGRITY work request; {@link #translate} refuses
 * them, so every access goes through {@link #sigGather}/{@link #sigScatter}.
 *
 * <p>States: a fast-registration region starts FREE; REG_MR makes it VALID, local invalidate (or
 * send with invalidate) makes it FREE again; deregistration makes any region ZOMBIE. As in rxe,
 * {@code map_mr_sg} may map a region whose registration is still VALID (rdma_rw maps a pooled MR
 * before the LOCAL_INV of its previous use executes); the next REG_MR requires it FREE.
 */
public final class RvtMr implements ProviderMr {
    /** Not registered (fast registration) or invalidated. */
    public static final int FREE = 0;
    /** Usable. */
    public static final int VALID = 1;
    /** Deregistered. */
    public static final int ZOMBIE = 2;

    /** The type. */
    public final MrType type;
    /** The PD. */
    public final RvtPd pd;
    private final KeyTable keys;
    private final DmaSpace dma;
    private final ByteBuffer buf;

    /** The current key (lkey == rkey). */
    public volatile int key;
    /** The state. */
    public volatile int state;
    /** Access flags. */
    public volatile int access;
    /** First virtual address. */
    public volatile long iova;
    /** Length in bytes. */
    public volatile long length;
    /** Called once when the region is deregistered (the device's count). */
    public Runnable onDereg;
    /** Memory windows bound to this region. */
    public final AtomicInteger boundMws = new AtomicInteger();
    /** The signature engine of an INTEGRITY region, else null. */
    public final SigRegion sig;

    // fast registration: page list (MEM_REG) or element list (SG_GAPS)
    private final long[] pages;
    private final int[] elemLen;
    private int npages;
    private int pageSize;
    private final SgToPages.PageSink pageSink = this::addPage;
    private int firstOffset;

    private RvtMr(MrType type, RvtPd pd, KeyTable keys, DmaSpace dma, ByteBuffer buf, int maxSg) {
        this.type = type;
        this.pd = pd;
        this.keys = keys;
        this.dma = dma;
        this.buf = buf;
        this.pages = maxSg > 0 && type != MrType.INTEGRITY ? new long[maxSg] : null;
        this.elemLen = type == MrType.SG_GAPS ? new int[maxSg] : null;
        this.sig = null;
    }

    private RvtMr(RvtPd pd, KeyTable keys, DmaSpace dma, int maxDataSg, int maxMetaSg) {
        this.type = MrType.INTEGRITY;
        this.pd = pd;
        this.keys = keys;
        this.dma = dma;
        this.buf = null;
        this.pages = null;
        this.elemLen = null;
        this.sig = new SigRegion(dma, maxDataSg, maxMetaSg);
    }

    /** {@code reg_user_mr}: {@code buffer} at {@code iova}. */
    public static RvtMr user(RvtPd pd, KeyTable keys, ByteBuffer buffer, long iova, int access) {
        RvtMr mr = new RvtMr(MrType.USER, pd, keys, null, buffer, 0);
        mr.iova = iova;
        mr.length = buffer.remaining();
        mr.access = access;
        return mr.publish(VALID);
    }

    /** {@code get_dma_mr}: the whole DMA space, translated through {@code dma}. */
    public static RvtMr dma(RvtPd pd, KeyTable keys, DmaSpace dma, int access) {
        RvtMr mr = new RvtMr(MrType.DMA, pd, keys, dma, null, 0);
        mr.iova = 0;
        mr.length = Long.MAX_VALUE;
        mr.access = access;
        return mr.publish(VALID);
    }

    /**
     * The device-wide local DMA region of {@code IBK_LOCAL_DMA_LKEY} devices: every PD, local
     * access only, not in the key table ({@code key} is reserved there).
     */
    public static RvtMr globalDma(KeyTable keys, DmaSpace dma, int key) {
        RvtMr mr = new RvtMr(MrType.DMA, null, keys, dma, null, 0);
        mr.length = Long.MAX_VALUE;
        mr.access = AccessFlags.LOCAL_WRITE;
        mr.key = key;
        mr.state = VALID;
        return mr;
    }

    /** {@code alloc_mr}: a MEM_REG or SG_GAPS region for {@code maxNumSg} pages or elements. */
    public static RvtMr fastReg(RvtPd pd, KeyTable keys, DmaSpace dma, MrType type, int maxNumSg) {
        RvtMr mr = new RvtMr(type, pd, keys, dma, null, maxNumSg);
        return mr.publish(FREE);
    }

    /** {@code alloc_mr_integrity}: a signature region for {@code maxDataSg} data and {@code maxMetaSg} metadata elements. */
    public static RvtMr integrity(RvtPd pd, KeyTable keys, DmaSpace dma, int maxDataSg, int maxMetaSg) {
        return new RvtMr(pd, keys, dma, maxDataSg, maxMetaSg).publish(FREE);
    }

    private RvtMr publish(int initial) {
        key = keys.reserve();
        state = initial;
        keys.publish(key, this);
        return this;
    }

    @Override
    public int lkey() {
        return key;
    }

    @Override
    public int rkey() {
        return key;
    }

    /** Whether this region may be the target of fast registration and local invalidation. */
    public boolean isFastReg() {
        return type == MrType.MEM_REG || type == MrType.SG_GAPS || type == MrType.INTEGRITY;
    }

    /** Whether {@code [va, va + len)} lies inside the region (and, for DMA, inside one mapping). */
    public boolean inBounds(long va, long len) {
        if (len == 0) {
            return true;
        }
        if (type == MrType.DMA) {
            return dma.find(va, len) != null;
        }
        long start = iova;
        return va >= start && len <= length && va - start <= length - len;
    }

    /**
     * Translates the largest contiguous piece of {@code [va, va + len)} into {@code out}; the range
     * must be in bounds. Returns false if the memory behind it disappeared (a DMA mapping removed).
     */
    public boolean translate(long va, int len, Seg out) {
        switch (type) {
            case USER:
                out.set(buf, (int) (va - iova), len);
                return true;
            case DMA:
                return dmaPiece(va, len, out);
            case MEM_REG: {
                long off = va - iova + firstOffset;
                int page = (int) (off / pageSize);
                int within = (int) (off % pageSize);
                if (page >= npages) {
                    return false;
                }
                return dmaPiece(pages[page] + within, Math.min(len, pageSize - within), out);
            }
            case SG_GAPS: {
                long off = va - iova;
                for (int i = 0; i < npages; i++) {
                    if (off < elemLen[i]) {
                        return dmaPiece(pages[i] + off, (int) Math.min(len, elemLen[i] - off), out);
                    }
                    off -= elemLen[i];
                }
                return false;
            }
            default:
                return false;
        }
    }

    private boolean dmaPiece(long addr, int len, Seg out) {
        DmaRegion r = dma.find(addr, 1);
        if (r == null) {
            return false;
        }
        int n = (int) Math.min(len, r.dmaAddr + r.length - addr);
        out.set(r.buffer, (int) (addr - r.dmaAddr), n);
        return true;
    }

    // ---------------------------------------------------------------- fast registration

    @Override
    public int mapMrSg(MrMapTarget target, SgEntry[] sg, int nents, int[] sgOffset) {
        if (!isFastReg() || sig != null) {
            return -Errno.EINVAL.value;
        }
        npages = 0;
        if (type == MrType.SG_GAPS) {
            return mapElements(target, sg, nents, sgOffset);
        }
        pageSize = target.pageSize();
        // ib_sg_to_pages() sets the IOVA to the first element's address plus the offset into it
        long first = nents > 0 ? sg[0].dmaAddress + (sgOffset != null ? sgOffset[0] : 0) : 0;
        int n = SgToPages.sgToPages(target, sg, nents, sgOffset, pageSink);
        firstOffset = (int) (first & (pageSize - 1));
        iova = first;
        length = target.length();
        return n;
    }

    private int addPage(long pageAddr) {
        if (npages == pages.length) {
            return -Errno.ENOMEM.value;
        }
        pages[npages++] = pageAddr;
        return 0;
    }

    /** SG_GAPS: every element is kept as is (no page alignment needed), up to the list size. */
    private int mapElements(MrMapTarget target, SgEntry[] sg, int nents, int[] sgOffset) {
        int offset = sgOffset != null ? sgOffset[0] : 0;
        if (nents <= 0 || offset > sg[0].dmaLength) {
            return -Errno.EINVAL.value;
        }
        long total = 0;
        int i = 0;
        for (; i < nents && npages < pages.length; i++) {
            long addr = sg[i].dmaAddress + (i == 0 ? offset : 0);
            int len = sg[i].dmaLength - (i == 0 ? offset : 0);
            pages[npages] = addr;
            elemLen[npages++] = len;
            total += len;
        }
        target.setIova(sg[0].dmaAddress + offset);
        target.setLength(total);
        iova = sg[0].dmaAddress + offset;
        length = total;
        if (sgOffset != null) {
            sgOffset[0] = 0;
        }
        return i;
    }

    // ---------------------------------------------------------------- signature regions

    @Override
    public int mapMrSgPi(MrMapTarget target, SgEntry[] dataSg, int dataNents, int[] dataSgOffset, SgEntry[] metaSg,
            int metaNents, int[] metaSgOffset) {
        if (sig == null) {
            return -Errno.EOPNOTSUPP.value;
        }
        int r = sig.map(dataSg, dataNents, dataSgOffset, metaSg, metaNents, metaSgOffset);
        if (r != 0) {
            return r;
        }
        // zero based, as signature-handover HCAs register it; the view's length comes with REG_MR_INTEGRITY
        iova = 0;
        length = sig.mappedLength();
        target.setIova(0);
        target.setLength(length);
        SigAttrs a = target.sigAttrs();
        if (a != null) {
            a.metaLength = sig.metaLength();
        }
        return 0;
    }

    /** Snapshots a REG_MR_INTEGRITY's attributes at post time; false for other regions or attributes the device cannot apply. */
    public boolean stageSig(SigAttrs attrs) {
        return sig != null && sig.stage(attrs);
    }

    /**
     * Executes a REG_MR_INTEGRITY work request: the rules of {@link #fastRegister}, then the
     * staged signature attributes apply and the region becomes the wire view {@code [0, length)}.
     */
    public boolean fastRegisterIntegrity(RvtPd qpPd, int newKey, int newAccess) {
        if (sig == null || !registrable(qpPd, newKey, newAccess)) {
            return false;
        }
        long view = sig.activate(newKey);
        if (view < 0) {
            return false;
        }
        iova = 0;
        length = view;
        access = newAccess;
        key = newKey;
        state = VALID;
        return true;
    }

    /** Reads {@code n} bytes of the signature view at {@code va} into {@code dst[di..]}. */
    public boolean sigGather(long va, ByteBuffer dst, int di, int n) {
        return sig.gather(va - iova, dst, di, n);
    }

    /** Writes {@code n} bytes from {@code src[si..]} into the signature view at {@code va}. */
    public boolean sigScatter(long va, ByteBuffer src, int si, int n) {
        return sig.scatter(va - iova, src, si, n);
    }

    @Override
    public int checkMrStatus(int checkMask, MrStatus status) {
        return sig == null ? -Errno.EINVAL.value : sig.checkStatus(checkMask, status);
    }

    private boolean registrable(RvtPd qpPd, int newKey, int newAccess) {
        if (state != FREE || qpPd != pd || (newKey & 0xffffff00) != (key & 0xffffff00)) {
            return false;
        }
        return (newAccess & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) == 0
                || (newAccess & AccessFlags.LOCAL_WRITE) != 0;
    }

    /**
     * Executes a REG_MR work request ({@code rvt_fast_reg_mr()}): the region must be free, in the
     * QP's PD, and {@code newKey} may change only the key byte. Returns false on any violation.
     */
    public boolean fastRegister(RvtPd qpPd, int newKey, int newAccess, long newIova) {
        if (!isFastReg() || sig != null || !registrable(qpPd, newKey, newAccess)) {
            return false;
        }
        if (newIova != iova) {
            // The consumer moved the region's IOVA after mapping (e.g. zero based): keep the pages.
            iova = newIova;
        }
        access = newAccess;
        key = newKey;
        state = VALID;
        return true;
    }

    /** Local invalidate / send with invalidate ({@code rxe_invalidate_mr()}). */
    public boolean invalidate(int rkey, RvtPd qpPd) {
        if (key != rkey || !isFastReg() || state != VALID || boundMws.get() > 0 || (qpPd != null && qpPd != pd)) {
            return false;
        }
        state = FREE;
        return true;
    }

    @Override
    public void keysUpdated(int lkey, int rkey) {
        // The new key takes effect with the next REG_MR, which carries it and is checked then.
    }

    @Override
    public void dereg() {
        if (boundMws.get() > 0) {
            throw new RdmaException(Errno.EBUSY, "MR 0x" + Integer.toHexString(key) + " has memory windows bound");
        }
        state = ZOMBIE;
        keys.remove(key);
        if (onDereg != null) {
            onDereg.run();
        }
    }
}
