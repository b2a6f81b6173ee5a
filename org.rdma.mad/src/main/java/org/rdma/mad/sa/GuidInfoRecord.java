package org.rdma.mad.sa;

import java.util.List;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** GUIDInfoRecord (IBTA 15.2.5.18): {@code struct ib_sa_guidinfo_rec}, {@code guidinfo_rec_table}. */
public final class GuidInfoRecord implements SaRecord {
    /** Bytes on the wire. */
    public static final int BYTES = 72;
    /** {@code IB_SA_GUIDINFO_REC_LID}. */
    public static final long LID = 1L;
    /** {@code IB_SA_GUIDINFO_REC_BLOCK_NUM}. */
    public static final long BLOCK_NUM = 1L << 1;
    /** {@code IB_SA_GUIDINFO_REC_GID0}: GUID {@code n} of the block is bit {@code 4 + n}. */
    public static final long GID0 = 1L << 4;

    /** {@code lid}. */
    public int lid;
    /** {@code block_num}. */
    public int blockNum;
    /** {@code guid_info_list}: 8 GUIDs. */
    public long[] guids = new long[8];

    /** {@code guidinfo_rec_table}. */
    public static final List<IbField<GuidInfoRecord>> TABLE;

    static {
        java.util.ArrayList<IbField<GuidInfoRecord>> t = new java.util.ArrayList<>();
        t.add(IbField.of("sa_guidinfo_rec:lid", 0, 0, 16, r -> r.lid, (r, v) -> r.lid = (int) v));
        t.add(IbField.of("sa_guidinfo_rec:block_num", 0, 16, 8, r -> r.blockNum, (r, v) -> r.blockNum = (int) v));
        t.add(IbField.reserved(0, 24, 8));
        t.add(IbField.reserved(1, 0, 32));
        for (int i = 0; i < 8; i++) {
            final int n = i;
            t.add(IbField.of("sa_guidinfo_rec:guid_info_list", 2 + 2 * i, 0, 64, r -> r.guids[n], (r, v) -> r.guids[n] = v));
        }
        TABLE = List.copyOf(t);
    }

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<GuidInfoRecord> CODEC = IbCodec.of(TABLE);

    @Override
    public int attrId() {
        return SaMad.ATTR_GUID_INFO_REC;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        CODEC.pack(this, buf, off);
        return BYTES;
    }

    @Override
    public GuidInfoRecord unpack(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
        return this;
    }
}
