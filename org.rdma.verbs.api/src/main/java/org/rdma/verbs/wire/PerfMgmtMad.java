package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A performance management MAD (IBTA vol. 1, 16.1.1), class {@link MadHdr#IB_MGMT_CLASS_PERF_MGMT},
 * 256 bytes: the common MAD header, 40 reserved bytes and 192 bytes of attribute data.
 *
 * <p>Mirrors {@code struct ib_pma_mad} and the attribute IDs and ClassPortInfo capability bits of
 * include/rdma/ib_pma.h.
 *
 * <pre>
 *  bytes 0-23:    common MAD header ({@link MadHdr})
 *  bytes 24-63:   reserved
 *  bytes 64-255:  data (the attribute)
 * </pre>
 */
public final class PerfMgmtMad {

    /** Size of a PMA MAD. */
    public static final int IB_PMA_MAD_BYTES = MadHdr.IB_MGMT_MAD_SIZE;
    /** Offset of the data area ({@link MadHdr#IB_MGMT_DEVICE_HDR}). */
    public static final int IB_PMA_DATA_OFFSET = 64;
    /** Size of the data area ({@link MadHdr#IB_MGMT_DEVICE_DATA}). */
    public static final int IB_PMA_DATA_SIZE = 192;
    /** Class version of the performance management class. */
    public static final int IB_PMA_CLASS_VERSION = 1;

    /** {@code IB_PMA_CLASS_PORT_INFO}. */
    public static final int IB_PMA_CLASS_PORT_INFO = 0x0001;
    /** {@code IB_PMA_PORT_SAMPLES_CONTROL}. */
    public static final int IB_PMA_PORT_SAMPLES_CONTROL = 0x0010;
    /** {@code IB_PMA_PORT_SAMPLES_RESULT}. */
    public static final int IB_PMA_PORT_SAMPLES_RESULT = 0x0011;
    /** {@code IB_PMA_PORT_COUNTERS}. */
    public static final int IB_PMA_PORT_COUNTERS = 0x0012;
    /** {@code IB_PMA_PORT_COUNTERS_EXT}. */
    public static final int IB_PMA_PORT_COUNTERS_EXT = 0x001D;
    /** {@code IB_PMA_PORT_SAMPLES_RESULT_EXT}. */
    public static final int IB_PMA_PORT_SAMPLES_RESULT_EXT = 0x001E;

    /** ClassPortInfo capability: AllPortSelect ({@code IB_PMA_CLASS_CAP_ALLPORTSELECT}). */
    public static final int IB_PMA_CLASS_CAP_ALLPORTSELECT = 1 << 8;
    /** ClassPortInfo capability: extended width counters ({@code IB_PMA_CLASS_CAP_EXT_WIDTH}). */
    public static final int IB_PMA_CLASS_CAP_EXT_WIDTH = 1 << 9;
    /** ClassPortInfo capability: extended width without the IETF counters ({@code IB_PMA_CLASS_CAP_EXT_WIDTH_NOIETF}). */
    public static final int IB_PMA_CLASS_CAP_EXT_WIDTH_NOIETF = 1 << 10;
    /** ClassPortInfo capability: PortXmitWait supported ({@code IB_PMA_CLASS_CAP_XMIT_WAIT}). */
    public static final int IB_PMA_CLASS_CAP_XMIT_WAIT = 1 << 12;

    /** The common MAD header. */
    public MadHdr madHdr = new MadHdr();
    /** The data area, {@link #IB_PMA_DATA_SIZE} bytes. */
    public byte[] data = new byte[IB_PMA_DATA_SIZE];

    /** The field table: the common header's entries, 40 reserved bytes, the data area. */
    public static final List<IbField<PerfMgmtMad>> TABLE = table();

    private static List<IbField<PerfMgmtMad>> table() {
        List<IbField<PerfMgmtMad>> t = new ArrayList<>(IbFieldTables.embed(MadHdr.TABLE, m -> m.madHdr, 0));
        t.add(IbFieldTables.reservedBytes(MadHdr.IB_MGMT_MAD_HDR, IB_PMA_DATA_OFFSET - MadHdr.IB_MGMT_MAD_HDR));
        t.add(IbField.bytes("pma:data", IB_PMA_DATA_OFFSET / 4, 0, IB_PMA_DATA_SIZE * 8,
                m -> m.data, (m, v) -> m.data = v));
        return List.copyOf(t);
    }

    /** Creates an all-zero MAD. */
    public PerfMgmtMad() {
    }

    /**
     * A PMA request.
     *
     * @param method  {@link MadHdr#IB_MGMT_METHOD_GET} or {@link MadHdr#IB_MGMT_METHOD_SET}
     * @param attrId  attribute ID ({@code IB_PMA_*})
     * @param attrMod attribute modifier
     * @param tid     transaction ID
     * @return the MAD
     */
    public static PerfMgmtMad of(int method, int attrId, int attrMod, long tid) {
        PerfMgmtMad m = new PerfMgmtMad();
        m.madHdr = MadHdr.of(MadHdr.IB_MGMT_CLASS_PERF_MGMT, IB_PMA_CLASS_VERSION, method, attrId, attrMod, tid);
        return m;
    }

    /**
     * Clears the data area and packs {@code attr} at its start.
     *
     * @param attr an attribute of at most {@link #IB_PMA_DATA_SIZE} bytes
     * @return this MAD
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the attribute does not fit
     */
    public PerfMgmtMad setData(MadAttribute attr) {
        if (attr.byteLength() > IB_PMA_DATA_SIZE) {
            throw IbFieldTables.einval("attribute 0x" + Integer.toHexString(attr.attrId()) + " has "
                    + attr.byteLength() + " bytes, the PMA data area " + IB_PMA_DATA_SIZE);
        }
        data = new byte[IB_PMA_DATA_SIZE];
        attr.pack(data, 0);
        return this;
    }

    /**
     * Packs this MAD with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first byte
     * @return {@link #IB_PMA_MAD_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_PMA_MAD_BYTES;
    }

    /**
     * Unpacks this MAD with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this MAD
     */
    public PerfMgmtMad unpack(byte[] buf, int off) {
        if (madHdr == null) {
            madHdr = new MadHdr();
        }
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this MAD */
    public PerfMgmtMad copy() {
        PerfMgmtMad c = new PerfMgmtMad();
        c.madHdr = madHdr == null ? null : madHdr.copy();
        c.data = IbFieldTables.clone(data);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PerfMgmtMad)) {
            return false;
        }
        PerfMgmtMad m = (PerfMgmtMad) o;
        return Objects.equals(madHdr, m.madHdr) && Arrays.equals(data, m.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(madHdr, Arrays.hashCode(data));
    }

    @Override
    public String toString() {
        return "PerfMgmtMad{madHdr=" + madHdr + ", data=" + (data == null ? "null" : HexFormat.of().formatHex(data)) + "}";
    }
}
