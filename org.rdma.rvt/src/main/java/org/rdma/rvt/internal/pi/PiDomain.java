package org.rdma.rvt.internal.pi;

import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.SigDomain;
import org.rdma.verbs.T10DifBgType;
import org.rdma.verbs.T10DifDomain;

/**
 * One signature domain as the device applies it: a snapshot of {@code struct ib_sig_domain}
 * taken when a REG_MR_INTEGRITY is posted, in primitive fields the datapath reads without
 * allocating. Knows what the tuple of protection interval {@code i} must hold, which tuple bytes
 * are checked, and when another domain's field may be copied instead of regenerated (equal
 * configuration: the device then passes the field through, errors included).
 */
public final class PiDomain {
    /** The domain carries T10 DIF tuples. */
    public boolean dif;
    /** Internet checksum guard instead of the CRC. */
    public boolean csum;
    /** Data bytes per tuple. */
    public int interval;
    /** Guard seed. */
    public int bg;
    /** Application tag. */
    public int appTag;
    /** Reference tag of interval 0. */
    public int refTag;
    /** The reference tag increments per interval. */
    public boolean refRemap;
    /** Skip checks when the application tag is 0xFFFF. */
    public boolean appEscape;
    /** Skip checks when the tags are 0xFFFF / 0xFFFFFFFF. */
    public boolean refEscape;
    /** Checked application tag bits. */
    public int apptagCheckMask;

    /** Whether {@code d} is a domain the device supports: NONE, or T10 DIF with a power-of-two interval of 512 to 4096 bytes. */
    public static boolean valid(SigDomain d) {
        if (d.sigType == null) {
            return false;
        }
        if (!d.isDif()) {
            return true;
        }
        T10DifDomain t = d.dif;
        return t.bgType != null && t.piInterval >= 512 && t.piInterval <= 4096 && Integer.bitCount(t.piInterval) == 1;
    }

    /** Takes the values of {@code d}. */
    public void set(SigDomain d) {
        dif = d.isDif();
        T10DifDomain t = d.dif;
        csum = t.bgType == T10DifBgType.CSUM;
        interval = t.piInterval;
        bg = t.bg & 0xffff;
        appTag = t.appTag & 0xffff;
        refTag = t.refTag;
        refRemap = t.refRemap;
        appEscape = t.appEscape;
        refEscape = t.refEscape;
        apptagCheckMask = t.apptagCheckMask & 0xffff;
    }

    /** Copies another snapshot. */
    public void set(PiDomain d) {
        dif = d.dif;
        csum = d.csum;
        interval = d.interval;
        bg = d.bg;
        appTag = d.appTag;
        refTag = d.refTag;
        refRemap = d.refRemap;
        appEscape = d.appEscape;
        refEscape = d.refEscape;
        apptagCheckMask = d.apptagCheckMask;
    }

    /** The reference tag interval {@code blk} must carry. */
    public int refTag(long blk) {
        return refRemap ? refTag + (int) blk : refTag;
    }

    /** Whether both compute the same guard (kind and seed). */
    public boolean sameGuard(PiDomain o) {
        return csum == o.csum && bg == o.bg;
    }

    /** Whether both expect the same application tag. */
    public boolean sameApp(PiDomain o) {
        return appTag == o.appTag;
    }

    /** Whether both expect the same reference tags. */
    public boolean sameRef(PiDomain o) {
        return refTag == o.refTag && refRemap == o.refRemap;
    }

    /** Whether the checks of a tuple are skipped by the escape values. */
    public boolean escaped(long tuple) {
        int app = T10Pi.appTag(tuple);
        return appEscape && app == 0xffff || refEscape && app == 0xffff && T10Pi.refTag(tuple) == -1;
    }

    /** The guard bits {@code checkMask} ({@link SigAttrs#checkMask}) selects. */
    public static int guardMask(int checkMask) {
        return ((checkMask & 0x80) != 0 ? 0xff00 : 0) | ((checkMask & 0x40) != 0 ? 0xff : 0);
    }

    /** The application tag bits {@code checkMask} selects, under this domain's check mask. */
    public int appMask(int checkMask) {
        return (((checkMask & 0x20) != 0 ? 0xff00 : 0) | ((checkMask & 0x10) != 0 ? 0xff : 0)) & apptagCheckMask;
    }

    /** The reference tag bits {@code checkMask} selects. */
    public static int refMask(int checkMask) {
        int m = 0;
        for (int b = 0; b < 4; b++) {
            if ((checkMask & (1 << b)) != 0) {
                m |= 0xff << (8 * b);
            }
        }
        return m;
    }
}
