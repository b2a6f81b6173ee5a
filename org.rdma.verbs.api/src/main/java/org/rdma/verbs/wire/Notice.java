package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The Notice attribute (IBTA vol. 1, 13.4.8.2, table 114), attribute ID
 * {@link MadHdr#IB_MGMT_ATTR_NOTICE}: a trap or notice, 80 bytes.
 *
 * <p>Mirrors {@code struct ib_mad_notice_attr} (include/rdma/ib_mad.h), with the raw 54 bytes of
 * data details, and adds the IssuerGID that follows them in the full attribute. An SMP carries
 * only the first 64 bytes (the SMP data area); use {@link #SMP_TABLE}, {@link #packSmp} and
 * {@link #unpackSmp} there.
 *
 * <pre>
 *  word 0:      IsGeneric(1) Type(7) | ProducerType / VendorID(24)
 *  word 1:      TrapNumber / DeviceID(16) | IssuerLID(16)
 *  word 2:      NoticeToggle(1) NoticeCount(15) | DataDetails[0..1]
 *  words 3-15:  DataDetails[2..53]
 *  words 16-19: IssuerGID(128)
 * </pre>
 */
public final class Notice implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = MadHdr.IB_MGMT_ATTR_NOTICE;
    /** Size of the full attribute. */
    public static final int BYTES = 80;
    /** Size of the part carried in an SMP. */
    public static final int SMP_BYTES = Smp.IB_SMP_DATA_SIZE;
    /** Size of the data details. */
    public static final int DATA_DETAILS_BYTES = 54;

    /** Type: fatal. */
    public static final int TYPE_FATAL = 0;
    /** Type: urgent. */
    public static final int TYPE_URGENT = 1;
    /** Type: security. */
    public static final int TYPE_SECURITY = 2;
    /** Type: subnet management. */
    public static final int TYPE_SUBN_MGMT = 3;
    /** Type: informational. */
    public static final int TYPE_INFO = 4;
    /** Type: empty (no notice queued). */
    public static final int TYPE_EMPTY = 0x7F;

    /** Producer type of a generic notice: channel adapter ({@code IB_NOTICE_PROD_CA}). */
    public static final int PROD_CA = 1;
    /** Producer type: switch ({@code IB_NOTICE_PROD_SWITCH}). */
    public static final int PROD_SWITCH = 2;
    /** Producer type: router ({@code IB_NOTICE_PROD_ROUTER}). */
    public static final int PROD_ROUTER = 3;
    /** Producer type: class manager ({@code IB_NOTICE_PROD_CLASS_MGR}). */
    public static final int PROD_CLASS_MGR = 4;

    /** Trap 64: GID in service. */
    public static final int TRAP_GID_IN_SERVICE = 64;
    /** Trap 65: GID out of service. */
    public static final int TRAP_GID_OUT_OF_SERVICE = 65;
    /** Trap 66: multicast group created. */
    public static final int TRAP_MCAST_GROUP_CREATED = 66;
    /** Trap 67: multicast group deleted. */
    public static final int TRAP_MCAST_GROUP_DELETED = 67;
    /** Trap 128: link state change. */
    public static final int TRAP_LINK_STATE_CHANGE = 128;
    /** Trap 129: local link integrity threshold ({@code IB_NOTICE_TRAP_LLI_THRESH}). */
    public static final int TRAP_LLI_THRESH = 129;
    /** Trap 130: excessive buffer overrun threshold ({@code IB_NOTICE_TRAP_EBO_THRESH}). */
    public static final int TRAP_EBO_THRESH = 130;
    /** Trap 131: flow control update watchdog ({@code IB_NOTICE_TRAP_FLOW_UPDATE}). */
    public static final int TRAP_FLOW_UPDATE = 131;
    /** Trap 144: capability mask changed ({@code IB_NOTICE_TRAP_CAP_MASK_CHG}). */
    public static final int TRAP_CAP_MASK_CHG = 144;
    /** Trap 145: system image GUID changed ({@code IB_NOTICE_TRAP_SYS_GUID_CHG}). */
    public static final int TRAP_SYS_GUID_CHG = 145;
    /** Trap 256: bad M_Key ({@code IB_NOTICE_TRAP_BAD_MKEY}). */
    public static final int TRAP_BAD_MKEY = 256;
    /** Trap 257: bad P_Key ({@code IB_NOTICE_TRAP_BAD_PKEY}). */
    public static final int TRAP_BAD_PKEY = 257;
    /** Trap 258: bad Q_Key ({@code IB_NOTICE_TRAP_BAD_QKEY}). */
    public static final int TRAP_BAD_QKEY = 258;
    /** Trap 259: bad P_Key at a switch external port. */
    public static final int TRAP_BAD_SWITCH_PKEY = 259;

    /** Whether this is a generic notice (else vendor specific), 1 bit. */
    public boolean isGeneric;
    /** Notice type, 7 bits ({@code TYPE_*}). */
    public int type;
    /** Producer type ({@code PROD_*}) when generic, vendor OUI otherwise, 24 bits. */
    public int producerTypeOrVendorId;
    /** Trap number ({@code TRAP_*}) when generic, device ID otherwise, 16 bits. */
    public int trapNumberOrDeviceId;
    /** LID of the issuer, 16 bits. */
    public int issuerLid;
    /** Notice toggle, 1 bit. */
    public boolean noticeToggle;
    /** Notice count, 15 bits. */
    public int noticeCount;
    /** The trap-specific data details, {@link #DATA_DETAILS_BYTES} bytes. */
    public byte[] dataDetails = new byte[DATA_DETAILS_BYTES];
    /** GID of the issuer, 16 bytes (not carried in SMPs). */
    public byte[] issuerGid = new byte[16];

    /** The field table of the first 64 bytes, the part carried in an SMP. */
    public static final List<IbField<Notice>> SMP_TABLE = List.of(
            IbField.of("notice:is_generic", 0, 0, 1, a -> a.isGeneric ? 1 : 0, (a, v) -> a.isGeneric = v != 0),
            IbField.of("notice:type", 0, 1, 7, a -> a.type, (a, v) -> a.type = (int) v),
            IbField.of("notice:producer_type", 0, 8, 24,
                    a -> a.producerTypeOrVendorId, (a, v) -> a.producerTypeOrVendorId = (int) v),
            IbField.of("notice:trap_num", 1, 0, 16,
                    a -> a.trapNumberOrDeviceId, (a, v) -> a.trapNumberOrDeviceId = (int) v),
            IbField.of("notice:issuer_lid", 1, 16, 16, a -> a.issuerLid, (a, v) -> a.issuerLid = (int) v),
            IbField.of("notice:toggle", 2, 0, 1, a -> a.noticeToggle ? 1 : 0, (a, v) -> a.noticeToggle = v != 0),
            IbField.of("notice:count", 2, 1, 15, a -> a.noticeCount, (a, v) -> a.noticeCount = (int) v),
            IbField.bytes("notice:data_details", 2, 16, DATA_DETAILS_BYTES * 8,
                    a -> a.dataDetails, (a, v) -> a.dataDetails = v));

    /** The field table of the full attribute. */
    public static final List<IbField<Notice>> TABLE = List.copyOf(concat(SMP_TABLE,
            IbField.bytes("notice:issuer_gid", 16, 0, 128, a -> a.issuerGid, (a, v) -> a.issuerGid = v)));

    private static List<IbField<Notice>> concat(List<IbField<Notice>> head, IbField<Notice> tail) {
        List<IbField<Notice>> l = new ArrayList<>(head);
        l.add(tail);
        return l;
    }

    /** Creates an all-zero notice. */
    public Notice() {
    }

    /**
     * A generic trap as an SMA sends it (13.4.8.2; {@code IB_NOTICE_TYPE_*} of the kernel carry
     * the IsGeneric bit in their 0x80).
     *
     * @param type         {@code TYPE_*}
     * @param producerType {@code PROD_*}
     * @param trapNumber   {@code TRAP_*}
     * @param issuerLid    the issuer's LID
     * @return the notice
     */
    public static Notice generic(int type, int producerType, int trapNumber, int issuerLid) {
        Notice n = new Notice();
        n.isGeneric = true;
        n.type = type;
        n.producerTypeOrVendorId = producerType;
        n.trapNumberOrDeviceId = trapNumber;
        n.issuerLid = issuerLid;
        return n;
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
     * Packs the first 64 bytes (everything but the IssuerGID), as carried in an SMP.
     *
     * @param buf destination, e.g. {@link Smp#data}
     * @param off offset of the first byte
     * @return {@link #SMP_BYTES}
     */
    public int packSmp(byte[] buf, int off) {
        IbPack.pack(SMP_TABLE, this, buf, off);
        return SMP_BYTES;
    }

    /**
     * Unpacks the full attribute with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this notice
     */
    public Notice unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /**
     * Unpacks the 64 bytes carried in an SMP; {@link #issuerGid} is left unchanged.
     *
     * @param buf source, e.g. {@link Smp#data}
     * @param off offset of the first byte
     * @return this notice
     */
    public Notice unpackSmp(byte[] buf, int off) {
        IbPack.unpack(SMP_TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this notice */
    public Notice copy() {
        Notice c = new Notice();
        c.isGeneric = isGeneric;
        c.type = type;
        c.producerTypeOrVendorId = producerTypeOrVendorId;
        c.trapNumberOrDeviceId = trapNumberOrDeviceId;
        c.issuerLid = issuerLid;
        c.noticeToggle = noticeToggle;
        c.noticeCount = noticeCount;
        c.dataDetails = IbFieldTables.clone(dataDetails);
        c.issuerGid = IbFieldTables.clone(issuerGid);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Notice)) {
            return false;
        }
        Notice a = (Notice) o;
        return isGeneric == a.isGeneric && type == a.type && producerTypeOrVendorId == a.producerTypeOrVendorId
                && trapNumberOrDeviceId == a.trapNumberOrDeviceId && issuerLid == a.issuerLid
                && noticeToggle == a.noticeToggle && noticeCount == a.noticeCount
                && Arrays.equals(dataDetails, a.dataDetails) && Arrays.equals(issuerGid, a.issuerGid);
    }

    @Override
    public int hashCode() {
        return Objects.hash(isGeneric, type, producerTypeOrVendorId, trapNumberOrDeviceId, issuerLid, noticeToggle,
                noticeCount, Arrays.hashCode(dataDetails), Arrays.hashCode(issuerGid));
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return String.format("Notice{isGeneric=%b, type=%d, producerTypeOrVendorId=0x%06x, trapNumberOrDeviceId=%d, "
                        + "issuerLid=0x%04x, noticeToggle=%b, noticeCount=%d, dataDetails=%s, issuerGid=%s}",
                isGeneric, type, producerTypeOrVendorId, trapNumberOrDeviceId, issuerLid, noticeToggle, noticeCount,
                dataDetails == null ? "null" : hex.formatHex(dataDetails),
                issuerGid == null ? "null" : hex.formatHex(issuerGid));
    }
}
