package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The SLtoVLMappingTable SMP attribute (IBTA vol. 1, 14.2.5.8), attribute ID
 * {@link Smp#IB_SMP_ATTR_SL_TO_VL_TABLE}, 8 bytes: the VL of each of the 16 SLs, 4 bits each, SL0
 * in the high nibble of byte 0 (opensm's {@code ib_slvl_table_t}). For a switch the attribute
 * modifier is {@code InputPort(8) << 8 | OutputPort(8)}.
 */
public final class SlToVlTable implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_SL_TO_VL_TABLE;
    /** Size on the wire. */
    public static final int BYTES = 8;
    /** Number of SLs. */
    public static final int IB_NUM_SLS = 16;

    /** The VL of each SL, 4 bits each. */
    public int[] vls = new int[IB_NUM_SLS];

    /** The field table: 16 4-bit entries. */
    public static final List<IbField<SlToVlTable>> TABLE = table();

    private static List<IbField<SlToVlTable>> table() {
        List<IbField<SlToVlTable>> t = new ArrayList<>(IB_NUM_SLS);
        for (int i = 0; i < IB_NUM_SLS; i++) {
            final int n = i;
            t.add(IbField.of("sl2vl:sl" + n, n / 8, (n % 8) * 4, 4, a -> a.vls[n], (a, v) -> a.vls[n] = (int) v));
        }
        return List.copyOf(t);
    }

    /** Creates a table mapping every SL to VL0. */
    public SlToVlTable() {
    }

    /**
     * @param inPort  input port of the switch
     * @param outPort output port of the switch
     * @return {@code inPort << 8 | outPort}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if a port does not fit in 8 bits
     */
    public static int attrMod(int inPort, int outPort) {
        if ((inPort & ~0xFF) != 0 || (outPort & ~0xFF) != 0) {
            throw IbFieldTables.einval("SL2VL ports are 8 bits, got " + inPort + ", " + outPort);
        }
        return inPort << 8 | outPort;
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
    public SlToVlTable unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public SlToVlTable copy() {
        SlToVlTable c = new SlToVlTable();
        c.vls = vls.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof SlToVlTable && Arrays.equals(vls, ((SlToVlTable) o).vls));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(vls);
    }

    @Override
    public String toString() {
        return "SlToVlTable{vls=" + Arrays.toString(vls) + "}";
    }
}
