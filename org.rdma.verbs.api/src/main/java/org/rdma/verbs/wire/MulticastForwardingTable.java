package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One block of a switch's multicast forwarding table (IBTA vol. 1, 14.2.5.12), attribute ID
 * {@link Smp#IB_SMP_ATTR_MCAST_FORWARD_TABLE}, 64 bytes: 32 16-bit port masks.
 *
 * <p>The attribute modifier is {@code Position(4) << 28 | rsv(19) | BlockNumber(9)}: entry
 * {@code i} of block {@code b} belongs to MLID {@code 0xC000 + 32 b + i}, and bit {@code p} of its
 * mask (bit 0 = least significant) to port {@code 16 * Position + p}. Layout as opensm's
 * {@code IB_MCAST_*} constants (include/iba/ib_types.h).
 */
public final class MulticastForwardingTable implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_MCAST_FORWARD_TABLE;
    /** Size on the wire. */
    public static final int BYTES = 64;
    /** MLIDs per block ({@code IB_MCAST_BLOCK_SIZE}). */
    public static final int IB_MCAST_BLOCK_SIZE = 32;
    /** Ports per mask. */
    public static final int IB_MCAST_MASK_SIZE = 16;
    /** Highest position ({@code IB_MCAST_POSITION_MAX}). */
    public static final int IB_MCAST_POSITION_MAX = 0xF;
    /** Shift of the position in the attribute modifier ({@code IB_MCAST_POSITION_SHIFT}). */
    public static final int IB_MCAST_POSITION_SHIFT = 28;
    /** Highest block number ({@code IB_MCAST_BLOCK_ID_MASK_HO}). */
    public static final int IB_MCAST_BLOCK_ID_MAX = 0x1FF;
    /** The first multicast LID ({@code IB_LID_MCAST_START}). */
    public static final int IB_LID_MCAST_START = 0xC000;

    /** The port mask of each MLID of the block, 16 bits each. */
    public int[] portMasks = new int[IB_MCAST_BLOCK_SIZE];

    /** The field table: 32 16-bit entries. */
    public static final List<IbField<MulticastForwardingTable>> TABLE = table();

    private static List<IbField<MulticastForwardingTable>> table() {
        List<IbField<MulticastForwardingTable>> t = new ArrayList<>(IB_MCAST_BLOCK_SIZE);
        for (int i = 0; i < IB_MCAST_BLOCK_SIZE; i++) {
            final int n = i;
            t.add(IbField.of("mft:port_mask" + n, n / 2, (n % 2) * 16, 16,
                    a -> a.portMasks[n], (a, v) -> a.portMasks[n] = (int) v));
        }
        return List.copyOf(t);
    }

    /** Creates an empty block. */
    public MulticastForwardingTable() {
    }

    /**
     * The attribute modifier addressing one block of port masks.
     *
     * @param position which 16 ports, 0..15
     * @param block    block number, 0..511
     * @return {@code position << 28 | block}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if either is out of range
     */
    public static int attrMod(int position, int block) {
        if (position < 0 || position > IB_MCAST_POSITION_MAX) {
            throw IbFieldTables.einval("multicast position must be in [0, 15], got " + position);
        }
        if (block < 0 || block > IB_MCAST_BLOCK_ID_MAX) {
            throw IbFieldTables.einval("multicast block must be in [0, 511], got " + block);
        }
        return position << IB_MCAST_POSITION_SHIFT | block;
    }

    /**
     * @param attrMod an attribute modifier
     * @return its position field
     */
    public static int position(int attrMod) {
        return attrMod >>> IB_MCAST_POSITION_SHIFT;
    }

    /**
     * @param attrMod an attribute modifier
     * @return its block number field
     */
    public static int block(int attrMod) {
        return attrMod & IB_MCAST_BLOCK_ID_MAX;
    }

    /**
     * @param mlid a multicast LID, at least {@link #IB_LID_MCAST_START}
     * @return the block holding {@code mlid}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for a unicast LID
     */
    public static int blockOf(int mlid) {
        if (mlid < IB_LID_MCAST_START || mlid > 0xFFFF) {
            throw IbFieldTables.einval("not a multicast LID: 0x" + Integer.toHexString(mlid));
        }
        return (mlid - IB_LID_MCAST_START) / IB_MCAST_BLOCK_SIZE;
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
    public MulticastForwardingTable unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public MulticastForwardingTable copy() {
        MulticastForwardingTable c = new MulticastForwardingTable();
        c.portMasks = portMasks.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof MulticastForwardingTable
                && Arrays.equals(portMasks, ((MulticastForwardingTable) o).portMasks));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(portMasks);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("MulticastForwardingTable{portMasks=[");
        for (int i = 0; i < portMasks.length; i++) {
            sb.append(i == 0 ? "" : ",").append(String.format("%04x", portMasks[i]));
        }
        return sb.append("]}").toString();
    }
}
