package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The UDP header (RFC 768), 8 bytes, that carries RoCEv2.
 *
 * <p>Mirrors {@code struct ib_unpacked_udp} (include/rdma/ib_pack.h) and {@code udp_table}
 * (drivers/infiniband/core/ud_header.c).
 *
 * <pre>
 *  word 0:  Source Port(16) | Destination Port(16)
 *  word 1:  Length(16) | Checksum(16)
 * </pre>
 */
public final class UdpHeader {

    /** Size of the UDP header on the wire ({@code IB_UDP_BYTES}). */
    public static final int IB_UDP_BYTES = 8;
    /** The IANA-assigned RoCEv2 destination port ({@code ROCE_V2_UDP_DPORT}). */
    public static final int ROCE_V2_UDP_DPORT = 4791;

    /** Source port, 16 bits. */
    public int sport;
    /** Destination port, 16 bits. */
    public int dport;
    /** Length of the UDP header plus payload in bytes, 16 bits. */
    public int length;
    /** Checksum, 16 bits; RoCEv2 senders usually send 0 (variant for the ICRC). */
    public int checksum;

    /** The field table, equivalent to the kernel's {@code udp_table}. */
    public static final List<IbField<UdpHeader>> TABLE = List.of(
            IbField.of("udp:sport", 0, 0, 16, h -> h.sport, (h, v) -> h.sport = (int) v),
            IbField.of("udp:dport", 0, 16, 16, h -> h.dport, (h, v) -> h.dport = (int) v),
            IbField.of("udp:length", 1, 0, 16, h -> h.length, (h, v) -> h.length = (int) v),
            IbField.of("udp:csum", 1, 16, 16, h -> h.checksum, (h, v) -> h.checksum = (int) v));

    /** Creates an all-zero header. */
    public UdpHeader() {
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first byte
     * @return {@link #IB_UDP_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_UDP_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this header
     */
    public UdpHeader unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public UdpHeader copy() {
        UdpHeader c = new UdpHeader();
        c.sport = sport;
        c.dport = dport;
        c.length = length;
        c.checksum = checksum;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UdpHeader)) {
            return false;
        }
        UdpHeader h = (UdpHeader) o;
        return sport == h.sport && dport == h.dport && length == h.length && checksum == h.checksum;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sport, dport, length, checksum);
    }

    @Override
    public String toString() {
        return String.format("UdpHeader{sport=%d, dport=%d, length=%d, checksum=0x%04x}", sport, dport, length, checksum);
    }
}
