package org.rdma.mad.sa;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** ServiceRecord (IBTA 15.2.5.14): {@code struct ib_sa_service_rec}, {@code service_rec_table}. */
public final class ServiceRecord implements SaRecord {
    /** Bytes on the wire. */
    public static final int BYTES = 176;
    /** {@code IB_SA_SERVICE_REC_SERVICE_ID}. */
    public static final long SERVICE_ID = 1L;
    /** {@code IB_SA_SERVICE_REC_SERVICE_GID}. */
    public static final long SERVICE_GID = 1L << 1;
    /** {@code IB_SA_SERVICE_REC_SERVICE_PKEY}. */
    public static final long SERVICE_PKEY = 1L << 2;
    /** {@code IB_SA_SERVICE_REC_SERVICE_LEASE}. */
    public static final long SERVICE_LEASE = 1L << 4;
    /** {@code IB_SA_SERVICE_REC_SERVICE_KEY}. */
    public static final long SERVICE_KEY = 1L << 5;
    /** {@code IB_SA_SERVICE_REC_SERVICE_NAME}. */
    public static final long SERVICE_NAME = 1L << 6;

    /** {@code id}. */
    public long id;
    /** {@code gid}. */
    public Gid gid = Gid.ZERO;
    /** {@code pkey}. */
    public int pkey;
    /** {@code lease} (seconds, 0xffffffff = indefinite). */
    public int lease;
    /** {@code key} (16 bytes). */
    public byte[] key = new byte[16];
    /** {@code name} (64 bytes, NUL padded). */
    public byte[] name = new byte[64];
    /** {@code data8}, {@code data16}, {@code data32}, {@code data64}: 64 bytes of service data. */
    public byte[] data = new byte[64];

    /** {@code service_rec_table} (the data arrays kept as one 64-byte block). */
    public static final List<IbField<ServiceRecord>> TABLE = List.of(
            IbField.of("sa_service_rec:id", 0, 0, 64, r -> r.id, (r, v) -> r.id = v),
            IbField.gid("sa_service_rec:gid", 2, 0, r -> r.gid, (r, v) -> r.gid = v),
            IbField.of("sa_service_rec:pkey", 6, 0, 16, r -> r.pkey, (r, v) -> r.pkey = (int) v),
            IbField.reserved(6, 16, 16),
            IbField.of("sa_service_rec:lease", 7, 0, 32, r -> r.lease & 0xffff_ffffL, (r, v) -> r.lease = (int) v),
            IbField.bytes("sa_service_rec:key", 8, 0, 128, r -> r.key, (r, v) -> r.key = v),
            IbField.bytes("sa_service_rec:name", 12, 0, 512, r -> r.name, (r, v) -> r.name = v),
            IbField.bytes("sa_service_rec:data", 28, 0, 512, r -> r.data, (r, v) -> r.data = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<ServiceRecord> CODEC = IbCodec.of(TABLE);

    /** Sets the name (UTF-8, at most 64 bytes). */
    public ServiceRecord setName(String text) {
        name = Arrays.copyOf(text.getBytes(StandardCharsets.UTF_8), 64);
        return this;
    }

    /** The name up to its first NUL. */
    public String nameText() {
        int n = 0;
        while (n < name.length && name[n] != 0) {
            n++;
        }
        return new String(name, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public int attrId() {
        return SaMad.ATTR_SERVICE_REC;
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
    public ServiceRecord unpack(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
        return this;
    }
}
