package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One block of a port's partition table (IBTA vol. 1, 14.2.5.7), attribute ID
 * {@link Smp#IB_SMP_ATTR_PKEY_TABLE}, 64 bytes: 32 16-bit P_Keys. The attribute modifier is
 * {@code PortNum(16) << 16 | BlockNum(16)}; the port number only matters for a switch's external
 * ports.
 */
public final class PKeyTable implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_PKEY_TABLE;
    /** Size on the wire. */
    public static final int BYTES = 64;
    /** P_Keys per block. */
    public static final int IB_PKEY_BLOCK_SIZE = 32;
    /** The default, full-member P_Key ({@code IB_DEFAULT_PKEY_FULL}). */
    public static final int IB_DEFAULT_PKEY_FULL = 0xFFFF;
    /** The default P_Key, limited member ({@code IB_DEFAULT_PKEY_PARTIAL}). */
    public static final int IB_DEFAULT_PKEY_PARTIAL = 0x7FFF;
    /** The membership bit of a P_Key: set for a full member. */
    public static final int IB_PKEY_FULL_MEMBER = 0x8000;

    /** The P_Keys of the block, 16 bits each. */
    public int[] pkeys = new int[IB_PKEY_BLOCK_SIZE];

    /** The field table: 32 16-bit entries. */
    public static final List<IbField<PKeyTable>> TABLE = table();

    private static List<IbField<PKeyTable>> table() {
        List<IbField<PKeyTable>> t = new ArrayList<>(IB_PKEY_BLOCK_SIZE);
        for (int i = 0; i < IB_PKEY_BLOCK_SIZE; i++) {
            final int n = i;
            t.add(IbField.of("pkey_table:pkey" + n, n / 2, (n % 2) * 16, 16,
                    a -> a.pkeys[n], (a, v) -> a.pkeys[n] = (int) v));
        }
        return List.copyOf(t);
    }

    /** Creates a block of invalid (zero) P_Keys. */
    public PKeyTable() {
    }

    /**
     * @param portNum switch external port, 0 for a CA or a switch's port 0
     * @param block   block number
     * @return {@code portNum << 16 | block}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if either does not fit in 16 bits
     */
    public static int attrMod(int portNum, int block) {
        if ((portNum & ~0xFFFF) != 0 || (block & ~0xFFFF) != 0) {
            throw IbFieldTables.einval("P_Key table port and block are 16 bits, got " + portNum + ", " + block);
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
    public PKeyTable unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public PKeyTable copy() {
        PKeyTable c = new PKeyTable();
        c.pkeys = pkeys.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof PKeyTable && Arrays.equals(pkeys, ((PKeyTable) o).pkeys));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(pkeys);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("PKeyTable{pkeys=[");
        for (int i = 0; i < pkeys.length; i++) {
            sb.append(i == 0 ? "" : ",").append(String.format("%04x", pkeys[i]));
        }
        return sb.append("]}").toString();
    }
}
