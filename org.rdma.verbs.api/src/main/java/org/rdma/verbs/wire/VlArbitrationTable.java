package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One block of a port's VL arbitration table (IBTA vol. 1, 14.2.5.9), attribute ID
 * {@link Smp#IB_SMP_ATTR_VL_ARB_TABLE}, 64 bytes: 32 entries of {@code rsv(4) VL(4) | Weight(8)}
 * ({@code struct ib_vl_weight_elem}, include/rdma/ib_smi.h).
 *
 * <p>The attribute modifier is {@code PortNum(16) << 16 | Block(16)}, the block being one of
 * {@link #LOW_0_31}, {@link #LOW_32_63}, {@link #HIGH_0_31} and {@link #HIGH_32_63}.
 */
public final class VlArbitrationTable implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_VL_ARB_TABLE;
    /** Size on the wire. */
    public static final int BYTES = 64;
    /** Entries per block ({@code IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK}). */
    public static final int IB_VL_ARB_BLOCK_SIZE = 32;
    /** Block: low-priority entries 0-31. */
    public static final int LOW_0_31 = 1;
    /** Block: low-priority entries 32-63. */
    public static final int LOW_32_63 = 2;
    /** Block: high-priority entries 0-31. */
    public static final int HIGH_0_31 = 3;
    /** Block: high-priority entries 32-63. */
    public static final int HIGH_32_63 = 4;

    /** The VL of each entry, 4 bits each. */
    public int[] vls = new int[IB_VL_ARB_BLOCK_SIZE];
    /** The weight of each entry, 8 bits each. */
    public int[] weights = new int[IB_VL_ARB_BLOCK_SIZE];

    /** The field table: 32 entries of reserved(4), VL(4), weight(8). */
    public static final List<IbField<VlArbitrationTable>> TABLE = table();

    private static List<IbField<VlArbitrationTable>> table() {
        List<IbField<VlArbitrationTable>> t = new ArrayList<>(IB_VL_ARB_BLOCK_SIZE * 3);
        for (int i = 0; i < IB_VL_ARB_BLOCK_SIZE; i++) {
            final int n = i;
            int word = n / 2;
            int bit = (n % 2) * 16;
            t.add(IbField.reserved(word, bit, 4));
            t.add(IbField.of("vl_arb:vl" + n, word, bit + 4, 4, a -> a.vls[n], (a, v) -> a.vls[n] = (int) v));
            t.add(IbField.of("vl_arb:weight" + n, word, bit + 8, 8,
                    a -> a.weights[n], (a, v) -> a.weights[n] = (int) v));
        }
        return List.copyOf(t);
    }

    /** Creates an all-zero block. */
    public VlArbitrationTable() {
    }

    /**
     * @param portNum switch port, 0 for a CA
     * @param block   {@link #LOW_0_31}, {@link #LOW_32_63}, {@link #HIGH_0_31} or {@link #HIGH_32_63}
     * @return {@code portNum << 16 | block}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for an unknown block or a port that
     *                                  does not fit in 16 bits
     */
    public static int attrMod(int portNum, int block) {
        if (block < LOW_0_31 || block > HIGH_32_63) {
            throw IbFieldTables.einval("VL arbitration block must be 1..4, got " + block);
        }
        if ((portNum & ~0xFFFF) != 0) {
            throw IbFieldTables.einval("port number must fit in 16 bits, got " + portNum);
        }
        return portNum << 16 | block;
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
    public VlArbitrationTable unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public VlArbitrationTable copy() {
        VlArbitrationTable c = new VlArbitrationTable();
        c.vls = vls.clone();
        c.weights = weights.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VlArbitrationTable)) {
            return false;
        }
        VlArbitrationTable a = (VlArbitrationTable) o;
        return Arrays.equals(vls, a.vls) && Arrays.equals(weights, a.weights);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(vls), Arrays.hashCode(weights));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("VlArbitrationTable{");
        for (int i = 0; i < vls.length; i++) {
            sb.append(i == 0 ? "" : ",").append(vls[i]).append(':').append(weights[i]);
        }
        return sb.append('}').toString();
    }
}
