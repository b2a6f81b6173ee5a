package org.rdma.verbs.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The ClassPortInfo attribute (IBTA vol. 1, 13.4.8.1, table 113), attribute ID
 * {@link MadHdr#IB_MGMT_ATTR_CLASS_PORT_INFO}, 72 bytes: what a class agent supports and where
 * to redirect requests and send traps. Shared by all GSI classes (SA, PMA, CM, ...).
 *
 * <p>Mirrors {@code struct ib_class_port_info} (include/rdma/ib_mad.h), with the packed
 * {@code cap_mask2_resp_time}, {@code *_tcslfl} and {@code trap_hlqp} words split into fields.
 *
 * <pre>
 *  word 0:       BaseVersion(8) | ClassVersion(8) | CapabilityMask(16)
 *  word 1:       CapabilityMask2(27) | RespTimeValue(5)
 *  words 2-5:    RedirectGID(128)
 *  word 6:       RedirectTC(8) | RedirectSL(4) | RedirectFL(20)
 *  word 7:       RedirectLID(16) | RedirectP_Key(16)
 *  word 8:       rsv(8) | RedirectQP(24)
 *  word 9:       RedirectQ_Key(32)
 *  words 10-13:  TrapGID(128)
 *  word 14:      TrapTC(8) | TrapSL(4) | TrapFL(20)
 *  word 15:      TrapLID(16) | TrapP_Key(16)
 *  word 16:      TrapHL(8) | TrapQP(24)
 *  word 17:      TrapQ_Key(32)
 * </pre>
 */
public final class ClassPortInfo implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = MadHdr.IB_MGMT_ATTR_CLASS_PORT_INFO;
    /** Size on the wire. */
    public static final int BYTES = 72;

    /** CapabilityMask: the class generates traps ({@code IB_CLASS_CAP_TRAP}). */
    public static final int CAP_TRAP = 0x0001;
    /** CapabilityMask: the class implements Get/Set of Notice ({@code IB_CLASS_CAP_GETSET}). */
    public static final int CAP_GETSET = 0x0002;
    /** CapabilityMask: CapabilityMask2 is valid ({@code IB_CLASS_CAP_CAPMASK2}). */
    public static final int CAP_CAPMASK2 = 0x0004;

    /** Highest supported MAD base version, 8 bits. */
    public int baseVersion;
    /** Highest supported class version, 8 bits. */
    public int classVersion;
    /** Class capability mask, 16 bits. */
    public int capabilityMask;
    /** Class capability mask 2, 27 bits. */
    public int capabilityMask2;
    /** Response time value, 5 bits (4.096 us * 2^value). */
    public int respTimeValue;
    /** GID to redirect requests to, 16 bytes. */
    public byte[] redirectGid = new byte[16];
    /** Traffic class for redirected requests, 8 bits. */
    public int redirectTc;
    /** SL for redirected requests, 4 bits. */
    public int redirectSl;
    /** Flow label for redirected requests, 20 bits. */
    public int redirectFl;
    /** LID to redirect requests to (0: no redirection), 16 bits. */
    public int redirectLid;
    /** P_Key for redirected requests, 16 bits. */
    public int redirectPkey;
    /** QP to redirect requests to, 24 bits. */
    public int redirectQp;
    /** Q_Key for redirected requests, 32 bits (held as a signed {@code int}). */
    public int redirectQkey;
    /** GID to send traps to, 16 bytes. */
    public byte[] trapGid = new byte[16];
    /** Traffic class for traps, 8 bits. */
    public int trapTc;
    /** SL for traps, 4 bits. */
    public int trapSl;
    /** Flow label for traps, 20 bits. */
    public int trapFl;
    /** LID to send traps to, 16 bits. */
    public int trapLid;
    /** P_Key for traps, 16 bits. */
    public int trapPkey;
    /** Hop limit for traps, 8 bits. */
    public int trapHl;
    /** QP to send traps to, 24 bits. */
    public int trapQp;
    /** Q_Key for traps, 32 bits (held as a signed {@code int}). */
    public int trapQkey;

    /** The field table. */
    public static final List<IbField<ClassPortInfo>> TABLE = List.of(
            IbField.of("cpi:base_version", 0, 0, 8, a -> a.baseVersion, (a, v) -> a.baseVersion = (int) v),
            IbField.of("cpi:class_version", 0, 8, 8, a -> a.classVersion, (a, v) -> a.classVersion = (int) v),
            IbField.of("cpi:capability_mask", 0, 16, 16, a -> a.capabilityMask, (a, v) -> a.capabilityMask = (int) v),
            IbField.of("cpi:capability_mask2", 1, 0, 27,
                    a -> a.capabilityMask2, (a, v) -> a.capabilityMask2 = (int) v),
            IbField.of("cpi:resp_time_value", 1, 27, 5, a -> a.respTimeValue, (a, v) -> a.respTimeValue = (int) v),
            IbField.bytes("cpi:redirect_gid", 2, 0, 128, a -> a.redirectGid, (a, v) -> a.redirectGid = v),
            IbField.of("cpi:redirect_tc", 6, 0, 8, a -> a.redirectTc, (a, v) -> a.redirectTc = (int) v),
            IbField.of("cpi:redirect_sl", 6, 8, 4, a -> a.redirectSl, (a, v) -> a.redirectSl = (int) v),
            IbField.of("cpi:redirect_fl", 6, 12, 20, a -> a.redirectFl, (a, v) -> a.redirectFl = (int) v),
            IbField.of("cpi:redirect_lid", 7, 0, 16, a -> a.redirectLid, (a, v) -> a.redirectLid = (int) v),
            IbField.of("cpi:redirect_pkey", 7, 16, 16, a -> a.redirectPkey, (a, v) -> a.redirectPkey = (int) v),
            IbField.reserved(8, 0, 8),
            IbField.of("cpi:redirect_qp", 8, 8, 24, a -> a.redirectQp, (a, v) -> a.redirectQp = (int) v),
            IbField.of("cpi:redirect_qkey", 9, 0, 32,
                    a -> a.redirectQkey & 0xFFFF_FFFFL, (a, v) -> a.redirectQkey = (int) v),
            IbField.bytes("cpi:trap_gid", 10, 0, 128, a -> a.trapGid, (a, v) -> a.trapGid = v),
            IbField.of("cpi:trap_tc", 14, 0, 8, a -> a.trapTc, (a, v) -> a.trapTc = (int) v),
            IbField.of("cpi:trap_sl", 14, 8, 4, a -> a.trapSl, (a, v) -> a.trapSl = (int) v),
            IbField.of("cpi:trap_fl", 14, 12, 20, a -> a.trapFl, (a, v) -> a.trapFl = (int) v),
            IbField.of("cpi:trap_lid", 15, 0, 16, a -> a.trapLid, (a, v) -> a.trapLid = (int) v),
            IbField.of("cpi:trap_pkey", 15, 16, 16, a -> a.trapPkey, (a, v) -> a.trapPkey = (int) v),
            IbField.of("cpi:trap_hl", 16, 0, 8, a -> a.trapHl, (a, v) -> a.trapHl = (int) v),
            IbField.of("cpi:trap_qp", 16, 8, 24, a -> a.trapQp, (a, v) -> a.trapQp = (int) v),
            IbField.of("cpi:trap_qkey", 17, 0, 32,
                    a -> a.trapQkey & 0xFFFF_FFFFL, (a, v) -> a.trapQkey = (int) v));

    /** Creates an all-zero attribute. */
    public ClassPortInfo() {
    }

    @Override
    public int attrId() {
        return ATTR_ID;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return BYTES;
    }

    /**
     * Unpacks this attribute with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this attribute
     */
    public ClassPortInfo unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public ClassPortInfo copy() {
        ClassPortInfo c = new ClassPortInfo();
        c.baseVersion = baseVersion;
        c.classVersion = classVersion;
        c.capabilityMask = capabilityMask;
        c.capabilityMask2 = capabilityMask2;
        c.respTimeValue = respTimeValue;
        c.redirectGid = IbFieldTables.clone(redirectGid);
        c.redirectTc = redirectTc;
        c.redirectSl = redirectSl;
        c.redirectFl = redirectFl;
        c.redirectLid = redirectLid;
        c.redirectPkey = redirectPkey;
        c.redirectQp = redirectQp;
        c.redirectQkey = redirectQkey;
        c.trapGid = IbFieldTables.clone(trapGid);
        c.trapTc = trapTc;
        c.trapSl = trapSl;
        c.trapFl = trapFl;
        c.trapLid = trapLid;
        c.trapPkey = trapPkey;
        c.trapHl = trapHl;
        c.trapQp = trapQp;
        c.trapQkey = trapQkey;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ClassPortInfo)) {
            return false;
        }
        ClassPortInfo a = (ClassPortInfo) o;
        return baseVersion == a.baseVersion && classVersion == a.classVersion && capabilityMask == a.capabilityMask
                && capabilityMask2 == a.capabilityMask2 && respTimeValue == a.respTimeValue
                && Arrays.equals(redirectGid, a.redirectGid) && redirectTc == a.redirectTc
                && redirectSl == a.redirectSl && redirectFl == a.redirectFl && redirectLid == a.redirectLid
                && redirectPkey == a.redirectPkey && redirectQp == a.redirectQp && redirectQkey == a.redirectQkey
                && Arrays.equals(trapGid, a.trapGid) && trapTc == a.trapTc && trapSl == a.trapSl
                && trapFl == a.trapFl && trapLid == a.trapLid && trapPkey == a.trapPkey && trapHl == a.trapHl
                && trapQp == a.trapQp && trapQkey == a.trapQkey;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseVersion, classVersion, capabilityMask, capabilityMask2, respTimeValue,
                Arrays.hashCode(redirectGid), redirectTc, redirectSl, redirectFl, redirectLid, redirectPkey,
                redirectQp, redirectQkey, Arrays.hashCode(trapGid), trapTc, trapSl, trapFl, trapLid, trapPkey,
                trapHl, trapQp, trapQkey);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return String.format("ClassPortInfo{baseVersion=%d, classVersion=%d, capabilityMask=0x%04x, "
                        + "capabilityMask2=0x%07x, respTimeValue=%d, redirectGid=%s, redirectTc=0x%02x, redirectSl=%d, "
                        + "redirectFl=0x%05x, redirectLid=0x%04x, redirectPkey=0x%04x, redirectQp=0x%06x, "
                        + "redirectQkey=0x%08x, trapGid=%s, trapTc=0x%02x, trapSl=%d, trapFl=0x%05x, trapLid=0x%04x, "
                        + "trapPkey=0x%04x, trapHl=%d, trapQp=0x%06x, trapQkey=0x%08x}",
                baseVersion, classVersion, capabilityMask, capabilityMask2, respTimeValue,
                redirectGid == null ? "null" : hex.formatHex(redirectGid), redirectTc, redirectSl, redirectFl,
                redirectLid, redirectPkey, redirectQp, redirectQkey, trapGid == null ? "null" : hex.formatHex(trapGid),
                trapTc, trapSl, trapFl, trapLid, trapPkey, trapHl, trapQp, trapQkey);
    }
}
