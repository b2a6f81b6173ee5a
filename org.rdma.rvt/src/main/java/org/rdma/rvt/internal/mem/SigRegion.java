package org.rdma.rvt.internal.mem;

import java.nio.ByteBuffer;
import org.rdma.rvt.internal.pi.PiDomain;
import org.rdma.rvt.internal.pi.T10Pi;
import org.rdma.verbs.Errno;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.SigErrType;
import org.rdma.verbs.spi.DmaSpace;

/**
 * The signature engine of an INTEGRITY region (what a signature-handover HCA does on the fly):
 * the region presents the wire-domain view, zero based, and translates each access to the
 * memory domain, interval by interval.
 *
 * <p>Layouts. The memory domain is the data list (with 8-byte tuples interleaved after each
 * interval when the memory domain has protection but no metadata list was mapped) plus, DIX
 * style, the metadata list holding one tuple per interval. The wire domain is each interval's
 * data followed by its tuple when the wire domain has protection, else the data alone.
 *
 * <p>Reading the view (the region is the source of a WRITE/SEND or the target of a remote READ)
 * produces wire tuples: each field copied from the memory tuple where both domains expect the
 * same value (so a bad field passes through), else generated from the wire domain's parameters;
 * the memory tuple is checked when its interval has been produced. Writing the view (target of
 * a WRITE/SEND, or READ responses landing) checks each wire tuple once its last byte arrived, and
 * stores memory tuples the same way (copied or generated). Tuples split across packets are
 * staged. The first failed check is kept until {@link #checkStatus} reports it; the transfer
 * itself continues, as hardware does.
 *
 * <p>One transfer at a time per region (the ULP owns the MR for one I/O); nothing here allocates.
 */
public final class SigRegion {
    private final ElemList data;
    private final ElemList meta;
    private final Seg seg = new Seg();

    private final PiDomain pendMem = new PiDomain();
    private final PiDomain pendWire = new PiDomain();
    private int pendCheck;

    private final PiDomain mem = new PiDomain();
    private final PiDomain wire = new PiDomain();
    private int check;
    private int interval;
    private int memBlock;
    private int wireBlock;
    private boolean interleaved;
    private long wireLen;
    private int key;
    private long staged;
    private boolean fault;

    private final Object errLock = new Object();
    private boolean errExists;
    private SigErrType errType;
    private int errExpected;
    private int errActual;
    private long errOffset;
    private int errKey;

    SigRegion(DmaSpace dma, int maxDataSg, int maxMetaSg) {
        this.data = new ElemList(dma, maxDataSg);
        this.meta = new ElemList(dma, maxMetaSg);
    }

    /** {@code map_mr_sg_pi}: maps every element of both lists; 0 or a negative errno. */
    int map(SgEntry[] dataSg, int dataNents, int[] dataOffset, SgEntry[] metaSg, int metaNents, int[] metaOffset) {
        if (dataNents <= 0) {
            return -Errno.EINVAL.value;
        }
        int r = data.map(dataSg, dataNents, dataOffset != null ? dataOffset[0] : 0);
        if (r == 0) {
            r = meta.map(metaSg, metaNents, metaOffset != null ? metaOffset[0] : 0);
        }
        if (r != 0) {
            data.map(dataSg, 0, 0);
            return r;
        }
        if (dataOffset != null) {
            dataOffset[0] = 0;
        }
        if (metaOffset != null) {
            metaOffset[0] = 0;
        }
        return 0;
    }

    /** Data plus metadata bytes mapped ({@code mr->length} after {@code ib_map_mr_sg_pi()}). */
    long mappedLength() {
        return data.total() + meta.total();
    }

    /** Metadata bytes mapped ({@code sig_attrs->meta_length}). */
    int metaLength() {
        return (int) meta.total();
    }

    /**
     * Snapshots the attributes a REG_MR_INTEGRITY carries (at post time, as the HCA reads them
     * into its work queue entry); false when the device cannot apply them.
     */
    boolean stage(SigAttrs a) {
        if (a == null || !PiDomain.valid(a.mem) || !PiDomain.valid(a.wire)) {
            return false;
        }
        if (a.mem.isDif() && a.wire.isDif() && a.mem.dif.piInterval != a.wire.dif.piInterval) {
            return false;
        }
        pendMem.set(a.mem);
        pendWire.set(a.wire);
        pendCheck = a.checkMask & 0xff;
        return true;
    }

    /**
     * Executes the registration: the staged attributes apply under {@code newKey}. Returns the
     * length of the wire view, or -1 when the mapped lists do not hold whole intervals (and
     * their tuples).
     */
    long activate(int newKey) {
        mem.set(pendMem);
        wire.set(pendWire);
        check = pendCheck;
        key = newKey;
        staged = 0;
        long dataLen = data.total();
        if (!mem.dif && !wire.dif) {
            if (dataLen <= 0 || dataLen > Integer.MAX_VALUE) {
                return -1;
            }
            interval = (int) dataLen;
        } else {
            interval = mem.dif ? mem.interval : wire.interval;
        }
        interleaved = mem.dif && meta.count() == 0;
        memBlock = interval + (interleaved ? T10Pi.TUPLE_BYTES : 0);
        wireBlock = interval + (wire.dif ? T10Pi.TUPLE_BYTES : 0);
        long blocks = dataLen / memBlock;
        if (blocks == 0 || dataLen % memBlock != 0
                || mem.dif && !interleaved && meta.total() < blocks * T10Pi.TUPLE_BYTES) {
            return -1;
        }
        wireLen = blocks * wireBlock;
        return wireLen;
    }

    // ================================================================== the view

    /** Produces {@code n} wire-view bytes at {@code off} into {@code dst[di..]}; false if memory is unmapped. */
    boolean gather(long off, ByteBuffer dst, int di, int n) {
        if (off < 0 || off + n > wireLen) {
            return false;
        }
        fault = false;
        while (n > 0) {
            long blk = off / wireBlock;
            int within = (int) (off - blk * wireBlock);
            int take;
            if (within < interval) {
                take = Math.min(n, interval - within);
                if (!data.copyOut(blk * memBlock + within, dst, di, take, seg)) {
                    return false;
                }
                if (!wire.dif && mem.dif && within + take == interval) {
                    long m = readMemTuple(blk);
                    if (!fault) {
                        verify(mem, blk, m);
                    }
                }
            } else {
                int p = within - interval;
                take = Math.min(n, T10Pi.TUPLE_BYTES - p);
                long t = wireTuple(blk, p + take == T10Pi.TUPLE_BYTES);
                for (int k = 0; k < take; k++) {
                    dst.put(di + k, T10Pi.byteAt(t, p + k));
                }
            }
            if (fault) {
                return false;
            }
            off += take;
            di += take;
            n -= take;
        }
        return true;
    }

    /** Consumes {@code n} wire-view bytes at {@code off} from {@code src[si..]}; false if memory is unmapped. */
    boolean scatter(long off, ByteBuffer src, int si, int n) {
        if (off < 0 || off + n > wireLen) {
            return false;
        }
        fault = false;
        while (n > 0) {
            long blk = off / wireBlock;
            int within = (int) (off - blk * wireBlock);
            int take;
            if (within < interval) {
                take = Math.min(n, interval - within);
                if (!data.copyIn(blk * memBlock + within, src, si, take, seg)) {
                    return false;
                }
                if (!wire.dif && mem.dif && within + take == interval) {
                    writeMemTuple(blk, convert(wire, 0, mem, blk));
                }
            } else {
                int p = within - interval;
                take = Math.min(n, T10Pi.TUPLE_BYTES - p);
                for (int k = 0; k < take; k++) {
                    staged = T10Pi.withByte(staged, p + k, src.get(si + k));
                }
                if (p + take == T10Pi.TUPLE_BYTES) {
                    verify(wire, blk, staged);
                    if (mem.dif && !fault) {
                        writeMemTuple(blk, convert(wire, staged, mem, blk));
                    }
                }
            }
            if (fault) {
                return false;
            }
            off += take;
            si += take;
            n -= take;
        }
        return true;
    }

    /** The wire tuple of interval {@code blk}, checking the memory tuple first when {@code checkSource}. */
    private long wireTuple(long blk, boolean checkSource) {
        long m = 0;
        if (mem.dif) {
            m = readMemTuple(blk);
            if (fault) {
                return 0;
            }
            if (checkSource) {
                verify(mem, blk, m);
            }
        }
        return convert(mem, m, wire, blk);
    }

    /** The tuple {@code to} holds for interval {@code blk}: fields of {@code t} (from {@code from}) copied where equal, else generated. */
    private long convert(PiDomain from, long t, PiDomain to, long blk) {
        int g = from.dif && from.sameGuard(to) ? T10Pi.guard(t) : guard(to, blk);
        int a = from.dif && from.sameApp(to) ? T10Pi.appTag(t) : to.appTag;
        int r = from.dif && from.sameRef(to) ? T10Pi.refTag(t) : to.refTag(blk);
        return T10Pi.tuple(g, a, r);
    }

    /** Checks tuple {@code t} of interval {@code blk} against domain {@code d}: guard, then reference tag, then application tag. */
    private void verify(PiDomain d, long blk, long t) {
        if (d.escaped(t)) {
            return;
        }
        int gm = PiDomain.guardMask(check);
        if (gm != 0) {
            int g = guard(d, blk);
            if (fault) {
                return;
            }
            if (((g ^ T10Pi.guard(t)) & gm) != 0) {
                record(SigErrType.BAD_GUARD, g, T10Pi.guard(t), blk);
                return;
            }
        }
        int rm = PiDomain.refMask(check);
        int ref = d.refTag(blk);
        if (((ref ^ T10Pi.refTag(t)) & rm) != 0) {
            record(SigErrType.BAD_REFTAG, ref, T10Pi.refTag(t), blk);
            return;
        }
        if (((d.appTag ^ T10Pi.appTag(t)) & d.appMask(check)) != 0) {
            record(SigErrType.BAD_APPTAG, d.appTag, T10Pi.appTag(t), blk);
        }
    }

    /** The guard of interval {@code blk}'s data in memory, as domain {@code d} computes it. */
    private int guard(PiDomain d, long blk) {
        long off = blk * memBlock;
        int left = interval;
        int pos = 0;
        int acc = d.bg;
        while (left > 0) {
            if (!data.piece(off, left, seg)) {
                fault = true;
                return 0;
            }
            acc = d.csum ? T10Pi.csumAdd(acc, seg.buf, seg.index, seg.len, (pos & 1) != 0)
                    : T10Pi.crc16(acc, seg.buf, seg.index, seg.len);
            off += seg.len;
            pos += seg.len;
            left -= seg.len;
        }
        return d.csum ? T10Pi.csumFold(acc) : acc;
    }

    private long readMemTuple(long blk) {
        ElemList list = interleaved ? data : meta;
        long off = interleaved ? blk * memBlock + interval : blk * T10Pi.TUPLE_BYTES;
        long t = 0;
        int got = 0;
        while (got < T10Pi.TUPLE_BYTES) {
            if (!list.piece(off + got, T10Pi.TUPLE_BYTES - got, seg)) {
                fault = true;
                return 0;
            }
            for (int k = 0; k < seg.len; k++) {
                t = T10Pi.withByte(t, got + k, seg.buf.get(seg.index + k));
            }
            got += seg.len;
        }
        return t;
    }

    private void writeMemTuple(long blk, long t) {
        if (fault) {
            return;
        }
        ElemList list = interleaved ? data : meta;
        long off = interleaved ? blk * memBlock + interval : blk * T10Pi.TUPLE_BYTES;
        int put = 0;
        while (put < T10Pi.TUPLE_BYTES) {
            if (!list.piece(off + put, T10Pi.TUPLE_BYTES - put, seg)) {
                fault = true;
                return;
            }
            for (int k = 0; k < seg.len; k++) {
                seg.buf.put(seg.index + k, T10Pi.byteAt(t, put + k));
            }
            put += seg.len;
        }
    }

    // ================================================================== status

    private void record(SigErrType type, int expected, int actual, long blk) {
        synchronized (errLock) {
            if (errExists) {
                return;
            }
            errExists = true;
            errType = type;
            errExpected = expected;
            errActual = actual;
            errOffset = blk * wireBlock;
            errKey = key;
        }
    }

    /** {@code check_mr_status}: reports and clears the first error since the last check. */
    int checkStatus(int checkMask, MrStatus status) {
        if ((checkMask & ~MrStatus.CHECK_SIG_STATUS) != 0) {
            return -Errno.EINVAL.value;
        }
        status.failStatus = 0;
        if ((checkMask & MrStatus.CHECK_SIG_STATUS) != 0) {
            synchronized (errLock) {
                if (errExists) {
                    errExists = false;
                    status.failStatus |= MrStatus.CHECK_SIG_STATUS;
                    status.sigErr.errType = errType;
                    status.sigErr.expected = errExpected;
                    status.sigErr.actual = errActual;
                    status.sigErr.sigErrOffset = errOffset;
                    status.sigErr.key = errKey;
                }
            }
        }
        return 0;
    }
}
