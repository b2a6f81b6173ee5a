package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One block of a port's GUID table (IBTA vol. 1, 14.2.5.5), attribute ID
 * {@link Smp#IB_SMP_ATTR_GUID_INFO}, 64 bytes: 8 GUIDs. The attribute modifier is the block number;
 * block {@code b} holds GUID indices {@code 8 b} to {@code 8 b + 7}.
 */
public final class GuidInfo implements MadAttribute {

    /** Attribute ID. */
    public static final int ATTR_ID = Smp.IB_SMP_ATTR_GUID_INFO;
    /** Size on the wire. */
    public static final int BYTES = 64;
    /** GUIDs per block. */
    public static final int IB_GUID_BLOCK_SIZE = 8;

    /** The GUIDs of the block, 64 bits each. */
    public long[] guids = new long[IB_GUID_BLOCK_SIZE];

    /** The field table: 8 64-bit entries. */
    public static final List<IbField<GuidInfo>> TABLE = table();

    private static List<IbField<GuidInfo>> table() {
        List<IbField<GuidInfo>> t = new ArrayList<>(IB_GUID_BLOCK_SIZE);
        for (int i = 0; i < IB_GUID_BLOCK_SIZE; i++) {
            final int n = i;
            t.add(IbField.of("guid_info:guid" + n, n * 2, 0, 64, a -> a.guids[n], (a, v) -> a.guids[n] = v));
        }
        return List.copyOf(t);
    }

    /** Creates a block of zero GUIDs. */
    public GuidInfo() {
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
    public GuidInfo unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this attribute */
    public GuidInfo copy() {
        GuidInfo c = new GuidInfo();
        c.guids = guids.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof GuidInfo && Arrays.equals(guids, ((GuidInfo) o).guids));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(guids);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("GuidInfo{guids=[");
        for (int i = 0; i < guids.length; i++) {
            sb.append(i == 0 ? "" : ",").append(String.format("%016x", guids[i]));
        }
        return sb.append("]}").toString();
    }
}
