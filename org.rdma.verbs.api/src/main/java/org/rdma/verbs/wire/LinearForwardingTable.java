package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One block of a switch's linear forwarding table (IBTA vol. 1, 14.2.5.10), attribute ID
 * {@link Smp#IB_SMP_ATTR_LINEAR_FORWARD_TABLE}, 64 bytes: the output port of 64 consecutive LIDs.
 * The attribute modifier is the block number; block {@code b} holds LIDs {@code 64 b} to
 * {@code 64 b + 63}, entry {@code i} being byte {@code i}.
 */
public final class LinearForwardingTable implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_LINEAR_FORWARD_TABLE;
    /** Size on the wire. */
    public static final int BYTES = 64;
    /** LIDs per block. */
    public static final int IB_LFT_BLOCK_SIZE = 64;
    /** Port value meaning "no route": packets to this LID are dropped (opensm's {@code OSM_NO_PATH}). */
    public static final int IB_LFT_NO_PATH = 0xFF;

    /** Output port of each LID of the block, 8 bits each. */
    public int[] ports = new int[IB_LFT_BLOCK_SIZE];

    /** The field table: 64 one-byte entries. */
    public static final List<IbField<LinearForwardingTable>> TABLE = table();

    private static List<IbField<LinearForwardingTable>> table() {
        List<IbField<LinearForwardingTable>> t = new ArrayList<>(IB_LFT_BLOCK_SIZE);
        for (int i = 0; i < IB_LFT_BLOCK_SIZE; i++) {
            final int n = i;
            t.add(IbField.of("lft:port" + n, n / 4, (n % 4) * 8, 8, a -> a.ports[n], (a, v) -> a.ports[n] = (int) v));
        }
        return List.copyOf(t);
    }

    /** Creates a block routing every LID to port 0. */
    public LinearForwardingTable() {
    }

    /**
     * @param lid a unicast LID
     * @return the block (and attribute modifier) holding {@code lid}
     */
    public static int blockOf(int lid) {
        return lid / IB_LFT_BLOCK_SIZE;
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
    public LinearForwardingTable unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public LinearForwardingTable copy() {
        LinearForwardingTable c = new LinearForwardingTable();
        c.ports = ports.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof LinearForwardingTable && Arrays.equals(ports, ((LinearForwardingTable) o).ports));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ports);
    }

    @Override
    public String toString() {
        return "LinearForwardingTable{ports=" + Arrays.toString(ports) + "}";
    }
}
