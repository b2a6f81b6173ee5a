package org.rdma.verbs.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A subnet management packet (IBTA vol. 1, 14.2.1), 256 bytes, LID routed (class
 * {@link MadHdr#IB_MGMT_CLASS_SUBN_LID_ROUTED}, 14.2.1.1) or directed route (class
 * {@link MadHdr#IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE}, 14.2.1.2).
 *
 * <p>Mirrors {@code struct ib_smp} and the SMP constants of include/rdma/ib_smi.h. One layout
 * serves both classes, as in the kernel: in a LID-routed SMP the hop pointer, hop count, DrSLID,
 * DrDLID and both paths are reserved and left 0.
 *
 * <pre>
 *  word 0:       BaseVersion(8) | MgmtClass(8) | ClassVersion(8) | Method(8)
 *  word 1:       D(1) Status(15) | HopPointer(8) | HopCount(8)
 *  words 2-3:    TransactionID(64)
 *  word 4:       AttributeID(16) | Reserved(16)
 *  word 5:       AttributeModifier(32)
 *  words 6-7:    M_Key(64)
 *  word 8:       DrSLID(16) | DrDLID(16)
 *  words 9-15:   Reserved(224)
 *  bytes 64-127:   SMP data (the attribute)
 *  bytes 128-191:  InitialPath[0..63]
 *  bytes 192-255:  ReturnPath[0..63]
 * </pre>
 *
 * <p>{@link #status} holds all 16 bits; the top one is the direction bit
 * {@link #IB_SMP_DIRECTION} (see {@link #direction()}).
 */
public final class Smp {

    /** Size of an SMP ({@link MadHdr#IB_MGMT_MAD_SIZE}). */
    public static final int IB_SMP_BYTES = MadHdr.IB_MGMT_MAD_SIZE;
    /** Size of the SMP data area ({@code IB_SMP_DATA_SIZE}). */
    public static final int IB_SMP_DATA_SIZE = 64;
    /** Offset of the SMP data area in the MAD. */
    public static final int IB_SMP_DATA_OFFSET = 64;
    /** Entries in each of the initial and return paths ({@code IB_SMP_MAX_PATH_HOPS}). */
    public static final int IB_SMP_MAX_PATH_HOPS = 64;
    /** The direction bit of {@link #status} ({@code IB_SMP_DIRECTION}): set on returning DR SMPs. */
    public static final int IB_SMP_DIRECTION = 0x8000;
    /** SMP class version. */
    public static final int IB_SMP_CLASS_VERSION = 1;
    /** The permissive LID ({@code IB_LID_PERMISSIVE}): DrSLID/DrDLID of a purely directed route. */
    public static final int IB_LID_PERMISSIVE = 0xFFFF;

    /** {@code IB_SMP_ATTR_NOTICE}. */
    public static final int IB_SMP_ATTR_NOTICE = 0x0002;
    /** {@code IB_SMP_ATTR_NODE_DESC}. */
    public static final int IB_SMP_ATTR_NODE_DESC = 0x0010;
    /** {@code IB_SMP_ATTR_NODE_INFO}. */
    public static final int IB_SMP_ATTR_NODE_INFO = 0x0011;
    /** {@code IB_SMP_ATTR_SWITCH_INFO}. */
    public static final int IB_SMP_ATTR_SWITCH_INFO = 0x0012;
    /** {@code IB_SMP_ATTR_GUID_INFO}. */
    public static final int IB_SMP_ATTR_GUID_INFO = 0x0014;
    /** {@code IB_SMP_ATTR_PORT_INFO}. */
    public static final int IB_SMP_ATTR_PORT_INFO = 0x0015;
    /** {@code IB_SMP_ATTR_PKEY_TABLE}. */
    public static final int IB_SMP_ATTR_PKEY_TABLE = 0x0016;
    /** {@code IB_SMP_ATTR_SL_TO_VL_TABLE}. */
    public static final int IB_SMP_ATTR_SL_TO_VL_TABLE = 0x0017;
    /** {@code IB_SMP_ATTR_VL_ARB_TABLE}. */
    public static final int IB_SMP_ATTR_VL_ARB_TABLE = 0x0018;
    /** {@code IB_SMP_ATTR_LINEAR_FORWARD_TABLE}. */
    public static final int IB_SMP_ATTR_LINEAR_FORWARD_TABLE = 0x0019;
    /** {@code IB_SMP_ATTR_RANDOM_FORWARD_TABLE}. */
    public static final int IB_SMP_ATTR_RANDOM_FORWARD_TABLE = 0x001A;
    /** {@code IB_SMP_ATTR_MCAST_FORWARD_TABLE}. */
    public static final int IB_SMP_ATTR_MCAST_FORWARD_TABLE = 0x001B;
    /** {@code IB_SMP_ATTR_SM_INFO}. */
    public static final int IB_SMP_ATTR_SM_INFO = 0x0020;
    /** {@code IB_SMP_ATTR_VENDOR_DIAG}. */
    public static final int IB_SMP_ATTR_VENDOR_DIAG = 0x0030;
    /** {@code IB_SMP_ATTR_LED_INFO}. */
    public static final int IB_SMP_ATTR_LED_INFO = 0x0031;
    /** {@code IB_SMP_ATTR_VENDOR_MASK}: attribute IDs 0xFF00-0xFFFF are vendor specific. */
    public static final int IB_SMP_ATTR_VENDOR_MASK = 0xFF00;

    /** Base version, 8 bits. */
    public int baseVersion;
    /** Management class, 8 bits: 0x01 or 0x81. */
    public int mgmtClass;
    /** Class version, 8 bits. */
    public int classVersion;
    /** Method, 8 bits. */
    public int method;
    /** Status, 16 bits, the direction bit {@link #IB_SMP_DIRECTION} included. */
    public int status;
    /** Hop pointer, 8 bits (directed route). */
    public int hopPtr;
    /** Hop count, 8 bits (directed route). */
    public int hopCnt;
    /** Transaction ID, 64 bits. */
    public long tid;
    /** Attribute ID, 16 bits ({@code IB_SMP_ATTR_*}). */
    public int attrId;
    /** Attribute modifier, 32 bits (held as a signed {@code int} with the same bit pattern). */
    public int attrMod;
    /** M_Key, 64 bits. */
    public long mkey;
    /** Directed route source LID, 16 bits. */
    public int drSlid;
    /** Directed route destination LID, 16 bits. */
    public int drDlid;
    /** The SMP data area, {@link #IB_SMP_DATA_SIZE} bytes. */
    public byte[] data = new byte[IB_SMP_DATA_SIZE];
    /** The initial path, {@link #IB_SMP_MAX_PATH_HOPS} port numbers; entry 0 is unused. */
    public byte[] initialPath = new byte[IB_SMP_MAX_PATH_HOPS];
    /** The return path, {@link #IB_SMP_MAX_PATH_HOPS} port numbers; entry 0 is unused. */
    public byte[] returnPath = new byte[IB_SMP_MAX_PATH_HOPS];

    /** The field table, the layout of {@code struct ib_smp}. */
    public static final List<IbField<Smp>> TABLE = List.of(
            IbField.of("smp:base_version", 0, 0, 8, h -> h.baseVersion, (h, v) -> h.baseVersion = (int) v),
            IbField.of("smp:mgmt_class", 0, 8, 8, h -> h.mgmtClass, (h, v) -> h.mgmtClass = (int) v),
            IbField.of("smp:class_version", 0, 16, 8, h -> h.classVersion, (h, v) -> h.classVersion = (int) v),
            IbField.of("smp:method", 0, 24, 8, h -> h.method, (h, v) -> h.method = (int) v),
            IbField.of("smp:status", 1, 0, 16, h -> h.status, (h, v) -> h.status = (int) v),
            IbField.of("smp:hop_ptr", 1, 16, 8, h -> h.hopPtr, (h, v) -> h.hopPtr = (int) v),
            IbField.of("smp:hop_cnt", 1, 24, 8, h -> h.hopCnt, (h, v) -> h.hopCnt = (int) v),
            IbField.of("smp:tid", 2, 0, 64, h -> h.tid, (h, v) -> h.tid = v),
            IbField.of("smp:attr_id", 4, 0, 16, h -> h.attrId, (h, v) -> h.attrId = (int) v),
            IbField.reserved(4, 16, 16),
            IbField.of("smp:attr_mod", 5, 0, 32, h -> h.attrMod & 0xFFFF_FFFFL, (h, v) -> h.attrMod = (int) v),
            IbField.of("smp:mkey", 6, 0, 64, h -> h.mkey, (h, v) -> h.mkey = v),
            IbField.of("smp:dr_slid", 8, 0, 16, h -> h.drSlid, (h, v) -> h.drSlid = (int) v),
            IbField.of("smp:dr_dlid", 8, 16, 16, h -> h.drDlid, (h, v) -> h.drDlid = (int) v),
            IbFieldTables.reservedBytes(36, 28),
            IbField.bytes("smp:data", 16, 0, IB_SMP_DATA_SIZE * 8, h -> h.data, (h, v) -> h.data = v),
            IbField.bytes("smp:initial_path", 32, 0, IB_SMP_MAX_PATH_HOPS * 8,
                    h -> h.initialPath, (h, v) -> h.initialPath = v),
            IbField.bytes("smp:return_path", 48, 0, IB_SMP_MAX_PATH_HOPS * 8,
                    h -> h.returnPath, (h, v) -> h.returnPath = v));

    /** Creates an all-zero SMP. */
    public Smp() {
    }

    /**
     * A LID-routed SMP request (class {@link MadHdr#IB_MGMT_CLASS_SUBN_LID_ROUTED}).
     *
     * @param method  method, e.g. {@link MadHdr#IB_MGMT_METHOD_GET}
     * @param attrId  attribute ID ({@code IB_SMP_ATTR_*})
     * @param attrMod attribute modifier
     * @param tid     transaction ID
     * @return the SMP
     */
    public static Smp lidRouted(int method, int attrId, int attrMod, long tid) {
        Smp s = new Smp();
        s.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
        s.mgmtClass = MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED;
        s.classVersion = IB_SMP_CLASS_VERSION;
        s.method = method;
        s.attrId = attrId;
        s.attrMod = attrMod;
        s.tid = tid;
        return s;
    }

    /**
     * An outgoing, purely directed-route SMP request (14.2.2): DrSLID and DrDLID permissive, hop
     * pointer 0, hop count {@code path.length}, {@code initialPath[i + 1] = path[i]}.
     *
     * @param method  method, e.g. {@link MadHdr#IB_MGMT_METHOD_GET}
     * @param attrId  attribute ID ({@code IB_SMP_ATTR_*})
     * @param attrMod attribute modifier
     * @param tid     transaction ID
     * @param path    the output port at each hop, starting with the sender's own port; at most 63
     *                entries of 0..255
     * @return the SMP
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for a path longer than 63 hops or a
     *                                  port number out of range
     */
    public static Smp directed(int method, int attrId, int attrMod, long tid, int... path) {
        if (path.length >= IB_SMP_MAX_PATH_HOPS) {
            throw IbFieldTables.einval("a directed route has at most " + (IB_SMP_MAX_PATH_HOPS - 1)
                    + " hops, got " + path.length);
        }
        Smp s = lidRouted(method, attrId, attrMod, tid);
        s.mgmtClass = MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
        s.drSlid = IB_LID_PERMISSIVE;
        s.drDlid = IB_LID_PERMISSIVE;
        s.hopCnt = path.length;
        for (int i = 0; i < path.length; i++) {
            if (path[i] < 0 || path[i] > 255) {
                throw IbFieldTables.einval("port number out of range at hop " + (i + 1) + ": " + path[i]);
            }
            s.initialPath[i + 1] = (byte) path[i];
        }
        return s;
    }

    /** @return whether this is a directed-route SMP (class 0x81) */
    public boolean isDirectedRoute() {
        return mgmtClass == MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
    }

    /**
     * The D bit: set on a returning directed-route SMP. Mirrors {@code ib_get_smp_direction()}
     * (include/rdma/ib_smi.h).
     *
     * @return whether {@link #IB_SMP_DIRECTION} is set in {@link #status}
     */
    public boolean direction() {
        return (status & IB_SMP_DIRECTION) != 0;
    }

    /**
     * Sets or clears the D bit, leaving the 15 status bits alone.
     *
     * @param returning whether the SMP is on its return path
     * @return this SMP
     */
    public Smp setDirection(boolean returning) {
        status = returning ? status | IB_SMP_DIRECTION : status & ~IB_SMP_DIRECTION;
        return this;
    }

    /** @return the 15 status bits below the D bit */
    public int statusCode() {
        return status & ~IB_SMP_DIRECTION & 0xFFFF;
    }

    /**
     * The port number at {@code initialPath[index]}.
     *
     * @param index 0..63
     * @return the unsigned port number
     */
    public int initialPort(int index) {
        return initialPath[index] & 0xFF;
    }

    /**
     * The port number at {@code returnPath[index]}.
     *
     * @param index 0..63
     * @return the unsigned port number
     */
    public int returnPort(int index) {
        return returnPath[index] & 0xFF;
    }

    /**
     * Clears the data area and packs {@code attr} at its start.
     *
     * @param attr an attribute of at most {@link #IB_SMP_DATA_SIZE} bytes
     * @return this SMP
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the attribute is larger than the
     *                                  SMP data area
     */
    public Smp setData(MadAttribute attr) {
        if (attr.byteLength() > IB_SMP_DATA_SIZE) {
            throw IbFieldTables.einval("attribute 0x" + Integer.toHexString(attr.attrId()) + " has "
                    + attr.byteLength() + " bytes, the SMP data area " + IB_SMP_DATA_SIZE);
        }
        data = new byte[IB_SMP_DATA_SIZE];
        attr.pack(data, 0);
        return this;
    }

    /**
     * The common MAD header view of this SMP: the status with its D bit, and the hop pointer and
     * hop count as the class-specific word.
     *
     * @return a new header
     */
    public MadHdr madHdr() {
        MadHdr h = new MadHdr();
        h.baseVersion = baseVersion;
        h.mgmtClass = mgmtClass;
        h.classVersion = classVersion;
        h.method = method;
        h.status = status;
        h.classSpecific = (hopPtr & 0xFF) << 8 | (hopCnt & 0xFF);
        h.tid = tid;
        h.attrId = attrId;
        h.attrMod = attrMod;
        return h;
    }

    /**
     * Packs this SMP with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first byte
     * @return {@link #IB_SMP_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_SMP_BYTES;
    }

    /**
     * Unpacks this SMP with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this SMP
     */
    public Smp unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this SMP */
    public Smp copy() {
        Smp c = new Smp();
        c.baseVersion = baseVersion;
        c.mgmtClass = mgmtClass;
        c.classVersion = classVersion;
        c.method = method;
        c.status = status;
        c.hopPtr = hopPtr;
        c.hopCnt = hopCnt;
        c.tid = tid;
        c.attrId = attrId;
        c.attrMod = attrMod;
        c.mkey = mkey;
        c.drSlid = drSlid;
        c.drDlid = drDlid;
        c.data = IbFieldTables.clone(data);
        c.initialPath = IbFieldTables.clone(initialPath);
        c.returnPath = IbFieldTables.clone(returnPath);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Smp)) {
            return false;
        }
        Smp h = (Smp) o;
        return baseVersion == h.baseVersion && mgmtClass == h.mgmtClass && classVersion == h.classVersion
                && method == h.method && status == h.status && hopPtr == h.hopPtr && hopCnt == h.hopCnt
                && tid == h.tid && attrId == h.attrId && attrMod == h.attrMod && mkey == h.mkey
                && drSlid == h.drSlid && drDlid == h.drDlid && Arrays.equals(data, h.data)
                && Arrays.equals(initialPath, h.initialPath) && Arrays.equals(returnPath, h.returnPath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseVersion, mgmtClass, classVersion, method, status, hopPtr, hopCnt, tid, attrId,
                attrMod, mkey, drSlid, drDlid, Arrays.hashCode(data), Arrays.hashCode(initialPath),
                Arrays.hashCode(returnPath));
    }

    private static String path(byte[] p, int hops) {
        if (p == null) {
            return "null";
        }
        int n = Math.min(p.length, Math.max(0, Math.min(hops, IB_SMP_MAX_PATH_HOPS - 1)) + 1);
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append(p[i] & 0xFF);
        }
        return sb.append(']').toString();
    }

    @Override
    public String toString() {
        return String.format("Smp{baseVersion=%d, mgmtClass=0x%02x, classVersion=%d, method=0x%02x, status=0x%04x, "
                        + "hopPtr=%d, hopCnt=%d, tid=0x%016x, attrId=0x%04x, attrMod=0x%08x, mkey=0x%016x, "
                        + "drSlid=0x%04x, drDlid=0x%04x, data=%s, initialPath=%s, returnPath=%s}",
                baseVersion, mgmtClass, classVersion, method, status, hopPtr, hopCnt, tid, attrId, attrMod, mkey,
                drSlid, drDlid, data == null ? "null" : HexFormat.of().formatHex(data),
                path(initialPath, hopCnt), path(returnPath, hopCnt));
    }
}
