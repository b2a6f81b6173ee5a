package org.rdma.verbs;

/**
 * T10 DIF parameters of one signature domain: {@code struct ib_t10_dif_domain}. The expected
 * tuple of protection interval {@code i} is (guard over the interval's data seeded with
 * {@link #bg}, {@link #appTag}, {@link #refTag} plus {@code i} when {@link #refRemap} is set).
 */
public final class T10DifDomain {
    /** {@code bg_type}. */
    public T10DifBgType bgType = T10DifBgType.CRC;
    /** {@code pi_interval}: data bytes per protection tuple (512 or 4096 in practice). */
    public int piInterval = 512;
    /** {@code bg}: seed of the guard computation (0 for standard T10 DIF). */
    public int bg;
    /** {@code app_tag}: the application tag (16 bits). */
    public int appTag;
    /** {@code ref_tag}: the reference tag of the first interval (32 bits). */
    public int refTag;
    /** {@code ref_remap}: the reference tag increments with each interval (DIF types 1 and 2). */
    public boolean refRemap;
    /** {@code app_escape}: skip the checks of an interval whose application tag is 0xFFFF. */
    public boolean appEscape;
    /** {@code ref_escape}: skip the checks of an interval whose tags are 0xFFFF and 0xFFFFFFFF. */
    public boolean refEscape;
    /** {@code apptag_check_mask}: the application tag bits that are checked. */
    public int apptagCheckMask = 0xffff;

    /** Copies every field from {@code src}. */
    public T10DifDomain copyFrom(T10DifDomain src) {
        bgType = src.bgType;
        piInterval = src.piInterval;
        bg = src.bg;
        appTag = src.appTag;
        refTag = src.refTag;
        refRemap = src.refRemap;
        appEscape = src.appEscape;
        refEscape = src.refEscape;
        apptagCheckMask = src.apptagCheckMask;
        return this;
    }
}
