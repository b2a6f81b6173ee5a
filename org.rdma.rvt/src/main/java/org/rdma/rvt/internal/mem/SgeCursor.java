package org.rdma.rvt.internal.mem;

import java.nio.ByteBuffer;

/**
 * A position in a scatter/gather list ({@code struct rvt_sge_state}): which element, how far into
 * it, how much is left. Copies scatter into or gather from the list piece by piece through each
 * element's already checked region; a region that was invalidated or re-keyed since the check
 * makes the copy fail before its first byte of that piece moves. {@link #contiguous} answers
 * whether a piece can be handed out in place without a cursor.
 */
public final class SgeCursor {
    private long[] addr;
    private int[] len;
    private int[] lkey;
    private RvtMr[] mr;
    private int num;
    private int idx;
    private long off;
    private long resid;

    /** Binds the cursor to a checked list and rewinds it. */
    public SgeCursor bind(long[] addr, int[] len, int[] lkey, RvtMr[] mr, int num, long total) {
        this.addr = addr;
        this.len = len;
        this.lkey = lkey;
        this.mr = mr;
        this.num = num;
        this.idx = 0;
        this.off = 0;
        this.resid = total;
        return this;
    }

    /** Bytes left. */
    public long resid() {
        return resid;
    }

    /** {@code rvt_restart_sge()}: back to the start, then {@code skip(offset)}. */
    public void restart(long total, long offset) {
        idx = 0;
        off = 0;
        resid = total;
        skip(offset);
    }

    /** {@code rvt_skip_sge()}: moves forward {@code n} bytes without copying. */
    public void skip(long n) {
        resid -= n;
        while (n > 0 && idx < num) {
            long avail = (len[idx] & 0xffff_ffffL) - off;
            if (n < avail) {
                off += n;
                return;
            }
            n -= avail;
            idx++;
            off = 0;
        }
    }

    /**
     * The next piece of at most {@code max} bytes: a buffer range in {@code seg}, or for a
     * signature region {@code seg.buf == null} and the piece's length (its bytes exist only in
     * the region's view).
     */
    private boolean piece(int max, Seg seg) {
        while (idx < num && (len[idx] & 0xffff_ffffL) == off) {
            idx++;
            off = 0;
        }
        if (idx >= num) {
            return false;
        }
        RvtMr r = mr[idx];
        if (r == null || r.state != RvtMr.VALID || r.key != lkey[idx]) {
            return false;
        }
        int want = (int) Math.min(max, (len[idx] & 0xffff_ffffL) - off);
        if (r.sig != null) {
            seg.set(null, 0, want);
            return true;
        }
        return r.translate(addr[idx] + off, want, seg);
    }

    private void advance(int n) {
        off += n;
        resid -= n;
    }

    /**
     * Sets {@code seg} to the {@code n} bytes ({@code n > 0}) at {@code offset} into a checked
     * list if they are contiguous in one buffer, with the checks a copy makes on that piece; false
     * otherwise (the caller then gathers through a bound cursor). Needs no cursor: the requester
     * asks this for every packet, and binding, rewinding and skipping a cursor only to look cost
     * more than the lookup.
     */
    public static boolean contiguous(long[] addr, int[] len, int[] lkey, RvtMr[] mr, int num, long offset, int n,
            Seg seg) {
        int i = 0;
        long off = offset;
        while (i < num) {
            long l = len[i] & 0xffff_ffffL;
            if (off < l) {
                break;
            }
            off -= l;
            i++;
        }
        if (i >= num) {
            return false;
        }
        RvtMr r = mr[i];
        if (r == null || r.state != RvtMr.VALID || r.key != lkey[i] || r.sig != null
                || (len[i] & 0xffff_ffffL) - off < n) {
            return false;
        }
        return r.translate(addr[i] + off, n, seg) && seg.buf != null && seg.len == n;
    }

    /** {@code rvt_copy_sge()}: copies {@code n} bytes from {@code src[srcIdx..]} into the list. */
    public boolean scatter(ByteBuffer src, int srcIdx, int n, Seg seg) {
        while (n > 0) {
            if (!piece(n, seg)) {
                return false;
            }
            if (seg.buf == null) {
                if (!mr[idx].sigScatter(addr[idx] + off, src, srcIdx, seg.len)) {
                    return false;
                }
            } else {
                seg.buf.put(seg.index, src, srcIdx, seg.len);
            }
            srcIdx += seg.len;
            n -= seg.len;
            advance(seg.len);
        }
        return true;
    }

    /** Copies {@code n} bytes from the list into {@code dst[dstIdx..]}. */
    public boolean gather(ByteBuffer dst, int dstIdx, int n, Seg seg) {
        while (n > 0) {
            if (!piece(n, seg)) {
                return false;
            }
            if (seg.buf == null) {
                if (!mr[idx].sigGather(addr[idx] + off, dst, dstIdx, seg.len)) {
                    return false;
                }
            } else {
                dst.put(dstIdx, seg.buf, seg.index, seg.len);
            }
            dstIdx += seg.len;
            n -= seg.len;
            advance(seg.len);
        }
        return true;
    }

    /** The next 8 bytes as one piece (atomic results), or false. */
    public boolean piece8(Seg seg) {
        return piece(8, seg) && seg.buf != null && seg.len == 8;
    }
}
