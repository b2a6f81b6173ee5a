package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The common MAD header (IBTA vol. 1, 13.4.2 and 13.4.3), the first 24 bytes of every management
 * datagram.
 *
 * <p>Mirrors {@code struct ib_mad_hdr} and the management constants of include/rdma/ib_mad.h, plus
 * the SA methods of include/rdma/ib_sa.h. The SMP variant of this header, whose status and
 * class-specific words carry the direction bit, hop pointer and hop count, is part of {@link Smp}.
 *
 * <pre>
 *  word 0:     BaseVersion(8) | MgmtClass(8) | ClassVersion(8) | R(1) Method(7)
 *  word 1:     Status(16) | ClassSpecific(16)
 *  words 2-3:  TransactionID(64)
 *  word 4:     AttributeID(16) | Reserved(16)
 *  word 5:     AttributeModifier(32)
 * </pre>
 *
 * <p>{@link #method} holds all 8 bits, the response bit {@link #IB_MGMT_METHOD_RESP} included.
 */
public final class MadHdr {

    /** Size of the common MAD header ({@code IB_MGMT_MAD_HDR}). */
    public static final int IB_MGMT_MAD_HDR = 24;
    /** Size of the data following the common header ({@code IB_MGMT_MAD_DATA}). */
    public static final int IB_MGMT_MAD_DATA = 232;
    /** Size of a MAD ({@code IB_MGMT_MAD_SIZE}). */
    public static final int IB_MGMT_MAD_SIZE = IB_MGMT_MAD_HDR + IB_MGMT_MAD_DATA;
    /** Common header plus RMPP header ({@code IB_MGMT_RMPP_HDR}). */
    public static final int IB_MGMT_RMPP_HDR = 36;
    /** Headers of a vendor class range 2 MAD, OUI included ({@code IB_MGMT_VENDOR_HDR}). */
    public static final int IB_MGMT_VENDOR_HDR = 40;
    /** Headers of an SA MAD ({@code IB_MGMT_SA_HDR}). */
    public static final int IB_MGMT_SA_HDR = 56;
    /** Data of an SA MAD ({@code IB_MGMT_SA_DATA}). */
    public static final int IB_MGMT_SA_DATA = 200;
    /** Headers of a device management MAD, also the PMA's ({@code IB_MGMT_DEVICE_HDR}). */
    public static final int IB_MGMT_DEVICE_HDR = 64;
    /** Data of a device management MAD ({@code IB_MGMT_DEVICE_DATA}). */
    public static final int IB_MGMT_DEVICE_DATA = 192;

    /** {@code IB_MGMT_BASE_VERSION}. */
    public static final int IB_MGMT_BASE_VERSION = 1;
    /** The well-known Q_Key of QP1 ({@code IB_QP1_QKEY}). */
    public static final int IB_QP1_QKEY = 0x80010000;

    // ---- management classes (13.4.4)

    /** {@code IB_MGMT_CLASS_SUBN_LID_ROUTED}: LID-routed subnet management. */
    public static final int IB_MGMT_CLASS_SUBN_LID_ROUTED = 0x01;
    /** {@code IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE}: directed-route subnet management. */
    public static final int IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE = 0x81;
    /** {@code IB_MGMT_CLASS_SUBN_ADM}: subnet administration. */
    public static final int IB_MGMT_CLASS_SUBN_ADM = 0x03;
    /** {@code IB_MGMT_CLASS_PERF_MGMT}: performance management. */
    public static final int IB_MGMT_CLASS_PERF_MGMT = 0x04;
    /** {@code IB_MGMT_CLASS_BM}: baseboard management. */
    public static final int IB_MGMT_CLASS_BM = 0x05;
    /** {@code IB_MGMT_CLASS_DEVICE_MGMT}: device management. */
    public static final int IB_MGMT_CLASS_DEVICE_MGMT = 0x06;
    /** {@code IB_MGMT_CLASS_CM}: communication management. */
    public static final int IB_MGMT_CLASS_CM = 0x07;
    /** {@code IB_MGMT_CLASS_SNMP}: SNMP tunneling. */
    public static final int IB_MGMT_CLASS_SNMP = 0x08;
    /** {@code IB_MGMT_CLASS_DEVICE_ADM}. */
    public static final int IB_MGMT_CLASS_DEVICE_ADM = 0x10;
    /** {@code IB_MGMT_CLASS_BOOT_MGMT}. */
    public static final int IB_MGMT_CLASS_BOOT_MGMT = 0x11;
    /** {@code IB_MGMT_CLASS_BIS}. */
    public static final int IB_MGMT_CLASS_BIS = 0x12;
    /** {@code IB_MGMT_CLASS_CONG_MGMT}: congestion control. */
    public static final int IB_MGMT_CLASS_CONG_MGMT = 0x21;
    /** {@code IB_MGMT_CLASS_VENDOR_RANGE2_START}. */
    public static final int IB_MGMT_CLASS_VENDOR_RANGE2_START = 0x30;
    /** {@code IB_MGMT_CLASS_VENDOR_RANGE2_END}. */
    public static final int IB_MGMT_CLASS_VENDOR_RANGE2_END = 0x4F;

    // ---- methods (13.4.5, 15.2.2)

    /** {@code IB_MGMT_METHOD_GET}. */
    public static final int IB_MGMT_METHOD_GET = 0x01;
    /** {@code IB_MGMT_METHOD_SET}. */
    public static final int IB_MGMT_METHOD_SET = 0x02;
    /** {@code IB_MGMT_METHOD_SEND}. */
    public static final int IB_MGMT_METHOD_SEND = 0x03;
    /** {@code IB_MGMT_METHOD_TRAP}. */
    public static final int IB_MGMT_METHOD_TRAP = 0x05;
    /** {@code IB_MGMT_METHOD_REPORT}. */
    public static final int IB_MGMT_METHOD_REPORT = 0x06;
    /** {@code IB_MGMT_METHOD_TRAP_REPRESS}. */
    public static final int IB_MGMT_METHOD_TRAP_REPRESS = 0x07;
    /** {@code IB_MGMT_METHOD_RESP}: the R bit of the method byte. */
    public static final int IB_MGMT_METHOD_RESP = 0x80;
    /** {@code IB_MGMT_METHOD_GET_RESP}. */
    public static final int IB_MGMT_METHOD_GET_RESP = 0x81;
    /** {@code IB_MGMT_METHOD_REPORT_RESP}. */
    public static final int IB_MGMT_METHOD_REPORT_RESP = 0x86;
    /** {@code IB_SA_METHOD_GET_TABLE}. */
    public static final int IB_SA_METHOD_GET_TABLE = 0x12;
    /** {@code IB_SA_METHOD_GET_TABLE_RESP}. */
    public static final int IB_SA_METHOD_GET_TABLE_RESP = 0x92;
    /** {@code IB_SA_METHOD_GET_TRACE_TBL}. */
    public static final int IB_SA_METHOD_GET_TRACE_TBL = 0x13;
    /** GetTraceTable response. */
    public static final int IB_SA_METHOD_GET_TRACE_TBL_RESP = 0x93;
    /** {@code IB_SA_METHOD_GET_MULTI}. */
    public static final int IB_SA_METHOD_GET_MULTI = 0x14;
    /** {@code IB_SA_METHOD_GET_MULTI_RESP}. */
    public static final int IB_SA_METHOD_GET_MULTI_RESP = 0x94;
    /** {@code IB_SA_METHOD_DELETE}. */
    public static final int IB_SA_METHOD_DELETE = 0x15;
    /** {@code IB_SA_METHOD_DELETE_RESP}. */
    public static final int IB_SA_METHOD_DELETE_RESP = 0x95;

    /** {@code IB_BM_ATTR_MOD_RESP}: the response bit of a BM attribute modifier. */
    public static final int IB_BM_ATTR_MOD_RESP = 0x00000001;

    // ---- status (13.4.7, table 109)

    /** {@code IB_MGMT_MAD_STATUS_SUCCESS}. */
    public static final int IB_MGMT_MAD_STATUS_SUCCESS = 0x0000;
    /** {@code IB_MGMT_MAD_STATUS_BUSY}: bit 0. */
    public static final int IB_MGMT_MAD_STATUS_BUSY = 0x0001;
    /** {@code IB_MGMT_MAD_STATUS_REDIRECT_REQD}: bit 1. */
    public static final int IB_MGMT_MAD_STATUS_REDIRECT_REQD = 0x0002;
    /** The invalid-field code, bits 2-4 of the status. */
    public static final int IB_MGMT_MAD_STATUS_CODE_MASK = 0x001C;
    /** {@code IB_MGMT_MAD_STATUS_BAD_VERSION}: code 1. */
    public static final int IB_MGMT_MAD_STATUS_BAD_VERSION = 0x0004;
    /** {@code IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD}: code 2. */
    public static final int IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD = 0x0008;
    /** {@code IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB}: code 3. */
    public static final int IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB = 0x000C;
    /** {@code IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE}: code 7. */
    public static final int IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE = 0x001C;
    /** Bits 8-15 of the status are class specific. */
    public static final int IB_MGMT_MAD_STATUS_CLASS_MASK = 0xFF00;

    // ---- attributes common to all classes (13.4.8)

    /** {@code IB_MGMT_CLASSPORTINFO_ATTR_ID}: ClassPortInfo. */
    public static final int IB_MGMT_ATTR_CLASS_PORT_INFO = 0x0001;
    /** Notice. */
    public static final int IB_MGMT_ATTR_NOTICE = 0x0002;
    /** InformInfo. */
    public static final int IB_MGMT_ATTR_INFORM_INFO = 0x0003;

    /** Base version, 8 bits. */
    public int baseVersion;
    /** Management class, 8 bits ({@code IB_MGMT_CLASS_*}). */
    public int mgmtClass;
    /** Class version, 8 bits. */
    public int classVersion;
    /** Method, 8 bits including the response bit ({@code IB_MGMT_METHOD_*}). */
    public int method;
    /** Status, 16 bits ({@code IB_MGMT_MAD_STATUS_*}). */
    public int status;
    /** Class specific, 16 bits. */
    public int classSpecific;
    /** Transaction ID, 64 bits. */
    public long tid;
    /** Attribute ID, 16 bits. */
    public int attrId;
    /** Attribute modifier, 32 bits (held as a signed {@code int} with the same bit pattern). */
    public int attrMod;

    private static final IbField<MadHdr> BASE_VERSION =
            IbField.of("mad:base_version", 0, 0, 8, h -> h.baseVersion, (h, v) -> h.baseVersion = (int) v);
    private static final IbField<MadHdr> MGMT_CLASS =
            IbField.of("mad:mgmt_class", 0, 8, 8, h -> h.mgmtClass, (h, v) -> h.mgmtClass = (int) v);
    private static final IbField<MadHdr> CLASS_VERSION =
            IbField.of("mad:class_version", 0, 16, 8, h -> h.classVersion, (h, v) -> h.classVersion = (int) v);
    private static final IbField<MadHdr> METHOD =
            IbField.of("mad:method", 0, 24, 8, h -> h.method, (h, v) -> h.method = (int) v);
    private static final IbField<MadHdr> STATUS =
            IbField.of("mad:status", 1, 0, 16, h -> h.status, (h, v) -> h.status = (int) v);
    private static final IbField<MadHdr> TID = IbField.of("mad:tid", 2, 0, 64, h -> h.tid, (h, v) -> h.tid = v);
    private static final IbField<MadHdr> ATTR_ID =
            IbField.of("mad:attr_id", 4, 0, 16, h -> h.attrId, (h, v) -> h.attrId = (int) v);
    private static final IbField<MadHdr> ATTR_MOD =
            IbField.of("mad:attr_mod", 5, 0, 32, h -> h.attrMod & 0xFFFF_FFFFL, (h, v) -> h.attrMod = (int) v);

    /** The field table, the layout of {@code struct ib_mad_hdr}. */
    public static final List<IbField<MadHdr>> TABLE = List.of(
            BASE_VERSION,
            MGMT_CLASS,
            CLASS_VERSION,
            METHOD,
            STATUS,
            IbField.of("mad:class_specific", 1, 16, 16, h -> h.classSpecific, (h, v) -> h.classSpecific = (int) v),
            TID,
            ATTR_ID,
            IbField.reserved(4, 16, 16),
            ATTR_MOD);

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<MadHdr> CODEC = IbCodec.of(TABLE);

    /** Creates an all-zero header. */
    public MadHdr() {
    }

    /**
     * A request header with base version {@link #IB_MGMT_BASE_VERSION} and status 0.
     *
     * @param mgmtClass    management class
     * @param classVersion class version
     * @param method       method
     * @param attrId       attribute ID
     * @param attrMod      attribute modifier
     * @param tid          transaction ID
     * @return the header
     */
    public static MadHdr of(int mgmtClass, int classVersion, int method, int attrId, int attrMod, long tid) {
        MadHdr h = new MadHdr();
        h.baseVersion = IB_MGMT_BASE_VERSION;
        h.mgmtClass = mgmtClass;
        h.classVersion = classVersion;
        h.method = method;
        h.attrId = attrId;
        h.attrMod = attrMod;
        h.tid = tid;
        return h;
    }

    /**
     * Whether this MAD was generated in response to a request or a trap.
     *
     * <p>Mirrors {@code ib_response_mad()} (drivers/infiniband/core/mad.c): the R bit of the
     * method, TrapRepress, or a BM MAD whose attribute modifier has {@link #IB_BM_ATTR_MOD_RESP}.
     *
     * @return whether this is a response
     */
    public boolean isResponse() {
        return isResponse(mgmtClass, method, attrMod);
    }

    private static boolean isResponse(int mgmtClass, int method, int attrMod) {
        return (method & IB_MGMT_METHOD_RESP) != 0
                || method == IB_MGMT_METHOD_TRAP_REPRESS
                || (mgmtClass == IB_MGMT_CLASS_BM && (attrMod & IB_BM_ATTR_MOD_RESP) != 0);
    }

    // ---- single fields of a MAD in a buffer: what the MAD layer reads of every MAD it moves, as
    // the kernel reads members of struct ib_mad_hdr, without unpacking the whole header

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code base_version}
     */
    public static int baseVersion(byte[] mad, int off) {
        return (int) IbPack.get(BASE_VERSION, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code mgmt_class}
     */
    public static int mgmtClass(byte[] mad, int off) {
        return (int) IbPack.get(MGMT_CLASS, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code class_version}
     */
    public static int classVersion(byte[] mad, int off) {
        return (int) IbPack.get(CLASS_VERSION, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code method}, response bit included
     */
    public static int method(byte[] mad, int off) {
        return (int) IbPack.get(METHOD, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code status}
     */
    public static int status(byte[] mad, int off) {
        return (int) IbPack.get(STATUS, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code tid}
     */
    public static long tid(byte[] mad, int off) {
        return IbPack.get(TID, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code attr_id}
     */
    public static int attrId(byte[] mad, int off) {
        return (int) IbPack.get(ATTR_ID, mad, off);
    }

    /**
     * @param mad a MAD
     * @param off offset of its first byte
     * @return its {@code attr_mod}
     */
    public static int attrMod(byte[] mad, int off) {
        return (int) IbPack.get(ATTR_MOD, mad, off);
    }

    /**
     * {@code ib_response_mad()} of the MAD in {@code mad} at {@code off}: {@link #isResponse()}
     * without unpacking the header.
     *
     * @param mad a MAD
     * @param off offset of its first byte
     * @return whether it is a response
     */
    public static boolean isResponse(byte[] mad, int off) {
        return isResponse(mgmtClass(mad, off), method(mad, off), attrMod(mad, off));
    }

    /**
     * The offset of the class data in a MAD of this class; mirrors {@code ib_get_mad_data_offset()}
     * (drivers/infiniband/core/mad.c).
     *
     * @param mgmtClass the management class
     * @return {@link #IB_MGMT_SA_HDR}, {@link #IB_MGMT_DEVICE_HDR}, {@link #IB_MGMT_VENDOR_HDR}
     *         or {@link #IB_MGMT_MAD_HDR}
     */
    public static int dataOffset(int mgmtClass) {
        if (mgmtClass == IB_MGMT_CLASS_SUBN_ADM) {
            return IB_MGMT_SA_HDR;
        } else if (mgmtClass == IB_MGMT_CLASS_DEVICE_MGMT || mgmtClass == IB_MGMT_CLASS_DEVICE_ADM
                || mgmtClass == IB_MGMT_CLASS_BIS) {
            return IB_MGMT_DEVICE_HDR;
        } else if (mgmtClass >= IB_MGMT_CLASS_VENDOR_RANGE2_START && mgmtClass <= IB_MGMT_CLASS_VENDOR_RANGE2_END) {
            return IB_MGMT_VENDOR_HDR;
        }
        return IB_MGMT_MAD_HDR;
    }

    /**
     * Whether MADs of this class may use RMPP; mirrors {@code ib_is_mad_class_rmpp()}.
     *
     * @param mgmtClass the management class
     * @return whether the class carries an RMPP header
     */
    public static boolean isClassRmpp(int mgmtClass) {
        return mgmtClass == IB_MGMT_CLASS_SUBN_ADM || mgmtClass == IB_MGMT_CLASS_DEVICE_MGMT
                || mgmtClass == IB_MGMT_CLASS_DEVICE_ADM || mgmtClass == IB_MGMT_CLASS_BIS
                || (mgmtClass >= IB_MGMT_CLASS_VENDOR_RANGE2_START && mgmtClass <= IB_MGMT_CLASS_VENDOR_RANGE2_END);
    }

    /**
     * Packs this header: {@link IbPack#pack(List, Object, byte[], int)} of {@link #TABLE}, compiled ({@link IbCodec}).
     *
     * @param buf destination
     * @param off offset of the first header byte
     * @return {@link #IB_MGMT_MAD_HDR}
     */
    public int pack(byte[] buf, int off) {
        CODEC.pack(this, buf, off);
        return IB_MGMT_MAD_HDR;
    }

    /**
     * Unpacks this header: {@link IbPack#unpack(List, byte[], int, Object)} of {@link #TABLE}, compiled ({@link IbCodec}).
     *
     * @param buf source
     * @param off offset of the first header byte
     * @return this header
     */
    public MadHdr unpack(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public MadHdr copy() {
        MadHdr c = new MadHdr();
        c.baseVersion = baseVersion;
        c.mgmtClass = mgmtClass;
        c.classVersion = classVersion;
        c.method = method;
        c.status = status;
        c.classSpecific = classSpecific;
        c.tid = tid;
        c.attrId = attrId;
        c.attrMod = attrMod;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MadHdr)) {
            return false;
        }
        MadHdr h = (MadHdr) o;
        return baseVersion == h.baseVersion && mgmtClass == h.mgmtClass && classVersion == h.classVersion
                && method == h.method && status == h.status && classSpecific == h.classSpecific && tid == h.tid
                && attrId == h.attrId && attrMod == h.attrMod;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseVersion, mgmtClass, classVersion, method, status, classSpecific, tid, attrId, attrMod);
    }

    @Override
    public String toString() {
        return String.format("MadHdr{baseVersion=%d, mgmtClass=0x%02x, classVersion=%d, method=0x%02x, "
                        + "status=0x%04x, classSpecific=0x%04x, tid=0x%016x, attrId=0x%04x, attrMod=0x%08x}",
                baseVersion, mgmtClass, classVersion, method, status, classSpecific, tid, attrId, attrMod);
    }
}
