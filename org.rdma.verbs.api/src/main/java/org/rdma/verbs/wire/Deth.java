package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The Datagram Extended Transport Header (IBTA vol. 1, 9.3.3), 8 bytes, following the BTH of UD
 * (and RD) packets.
 *
 * <p>Mirrors {@code struct ib_unpacked_deth} (include/rdma/ib_pack.h) and {@code deth_table}
 * (drivers/infiniband/core/ud_header.c).
 *
 * <pre>
 *  word 0:  Q_Key(32)
 *  word 1:  rsv(8) | SrcQP(24)
 * </pre>
 */
public final class Deth {

    /** Size of the DETH on the wire ({@code IB_DETH_BYTES}). */
    public static final int IB_DETH_BYTES = 8;

    /** Queue key, 32 bits (held as a signed {@code int} with the same bit pattern). */
    public int qkey;
    /** Source queue pair number, 24 bits. */
    public int srcQpn;

    /** The field table, equivalent to the kernel's {@code deth_table}. */
    public static final List<IbField<Deth>> TABLE = List.of(
            IbField.of("deth:qkey", 0, 0, 32, h -> h.qkey & 0xFFFF_FFFFL, (h, v) -> h.qkey = (int) v),
            IbField.reserved(1, 0, 8),
            IbField.of("deth:source_qpn", 1, 8, 24, h -> h.srcQpn, (h, v) -> h.srcQpn = (int) v));

    /** Creates an all-zero header. */
    public Deth() {
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first DETH byte
     * @return {@link #IB_DETH_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_DETH_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first DETH byte
     * @return this header
     */
    public Deth unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public Deth copy() {
        Deth c = new Deth();
        c.qkey = qkey;
        c.srcQpn = srcQpn;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Deth)) {
            return false;
        }
        Deth h = (Deth) o;
        return qkey == h.qkey && srcQpn == h.srcQpn;
    }

    @Override
    public int hashCode() {
        return Objects.hash(qkey, srcQpn);
    }

    @Override
    public String toString() {
        return String.format("Deth{qkey=0x%08x, srcQpn=0x%06x}", qkey, srcQpn);
    }
}
