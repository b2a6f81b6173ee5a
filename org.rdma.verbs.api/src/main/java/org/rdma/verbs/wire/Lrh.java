package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The InfiniBand Local Route Header (IBTA vol. 1, 7.7), 8 bytes, present in every native IB packet.
 *
 * <p>Mirrors {@code struct ib_unpacked_lrh} (include/rdma/ib_pack.h) and its field table
 * {@code lrh_table} (drivers/infiniband/core/ud_header.c).
 *
 * <pre>
 *  word 0:  VL(4) | LVer(4) | SL(4) | rsv(2) | LNH(2) | DLID(16)
 *  word 1:  rsv(5) | PktLen(11) | SLID(16)
 * </pre>
 *
 * <p>All fields are unsigned and held in {@code int}s; {@link #pack pack} keeps only the low bits
 * that fit each field.
 */
public final class Lrh {

    /** Size of the LRH on the wire ({@code IB_LRH_BYTES}). */
    public static final int IB_LRH_BYTES = 8;

    /** LNH: raw packet, no IBA transport ({@code IB_LNH_RAW}). */
    public static final int LNH_RAW = 0;
    /** LNH: raw IPv6 packet ({@code IB_LNH_IP}). */
    public static final int LNH_IP = 1;
    /** LNH: IBA transport, BTH follows the LRH ({@code IB_LNH_IBA_LOCAL}). */
    public static final int LNH_IBA_LOCAL = 2;
    /** LNH: IBA transport, a GRH follows the LRH ({@code IB_LNH_IBA_GLOBAL}). */
    public static final int LNH_IBA_GLOBAL = 3;

    /** Virtual lane, 4 bits (variant: rewritten by switches, excluded from the ICRC). */
    public int vl;
    /** Link version, 4 bits; must be 0. */
    public int lver;
    /** Service level, 4 bits. */
    public int sl;
    /** Link next header, 2 bits ({@code LNH_*}). */
    public int lnh;
    /** Destination LID, 16 bits. */
    public int dlid;
    /** Packet length in 4-byte words from the first LRH byte through the ICRC, 11 bits. */
    public int packetLength;
    /** Source LID, 16 bits. */
    public int slid;

    /** The field table, equivalent to the kernel's {@code lrh_table}. */
    public static final List<IbField<Lrh>> TABLE = List.of(
            IbField.of("lrh:virtual_lane", 0, 0, 4, h -> h.vl, (h, v) -> h.vl = (int) v),
            IbField.of("lrh:link_version", 0, 4, 4, h -> h.lver, (h, v) -> h.lver = (int) v),
            IbField.of("lrh:service_level", 0, 8, 4, h -> h.sl, (h, v) -> h.sl = (int) v),
            IbField.reserved(0, 12, 2),
            IbField.of("lrh:link_next_header", 0, 14, 2, h -> h.lnh, (h, v) -> h.lnh = (int) v),
            IbField.of("lrh:destination_lid", 0, 16, 16, h -> h.dlid, (h, v) -> h.dlid = (int) v),
            IbField.reserved(1, 0, 5),
            IbField.of("lrh:packet_length", 1, 5, 11, h -> h.packetLength, (h, v) -> h.packetLength = (int) v),
            IbField.of("lrh:source_lid", 1, 16, 16, h -> h.slid, (h, v) -> h.slid = (int) v));

    /** Creates an all-zero header. */
    public Lrh() {
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first LRH byte
     * @return {@link #IB_LRH_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_LRH_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first LRH byte
     * @return this header
     */
    public Lrh unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public Lrh copy() {
        Lrh c = new Lrh();
        c.vl = vl;
        c.lver = lver;
        c.sl = sl;
        c.lnh = lnh;
        c.dlid = dlid;
        c.packetLength = packetLength;
        c.slid = slid;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Lrh)) {
            return false;
        }
        Lrh h = (Lrh) o;
        return vl == h.vl && lver == h.lver && sl == h.sl && lnh == h.lnh && dlid == h.dlid
                && packetLength == h.packetLength && slid == h.slid;
    }

    @Override
    public int hashCode() {
        return Objects.hash(vl, lver, sl, lnh, dlid, packetLength, slid);
    }

    @Override
    public String toString() {
        return String.format("Lrh{vl=%d, lver=%d, sl=%d, lnh=%d, dlid=0x%04x, packetLength=%d, slid=0x%04x}",
                vl, lver, sl, lnh, dlid, packetLength, slid);
    }
}
