package org.rdma.verbs.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The Ethernet II header (IEEE 802.3 / RFC 894), 14 bytes, that starts RoCE frames.
 *
 * <p>Mirrors {@code struct ib_unpacked_eth} (include/rdma/ib_pack.h) and {@code eth_table}
 * (drivers/infiniband/core/ud_header.c). The kernel splits each MAC into 32- and 16-bit pieces
 * ({@code dmac_h}/{@code dmac_l}, {@code smac_h}/{@code smac_l}) so that every piece fits its
 * 32-bit word; this table describes each MAC as one byte-aligned 48-bit field, which gives the same
 * wire bytes.
 *
 * <pre>
 *  bytes 0-5:   destination MAC
 *  bytes 6-11:  source MAC
 *  bytes 12-13: EtherType
 * </pre>
 */
public final class EthHeader {

    /** Size of the Ethernet header on the wire ({@code IB_ETH_BYTES}). */
    public static final int IB_ETH_BYTES = 14;
    /** EtherType of IPv4 ({@code ETH_P_IP}), used by RoCEv2 over IPv4. */
    public static final int ETH_P_IP = 0x0800;
    /** EtherType of IPv6 ({@code ETH_P_IPV6}), used by RoCEv2 over IPv6. */
    public static final int ETH_P_IPV6 = 0x86DD;
    /** EtherType of an IEEE 802.1Q VLAN tag ({@code ETH_P_8021Q}). */
    public static final int ETH_P_8021Q = 0x8100;
    /** EtherType of RoCEv1 / IBoE ({@code ETH_P_IBOE}): a GRH follows. */
    public static final int ETH_P_IBOE = 0x8915;

    /** Destination MAC address, 6 bytes. */
    public byte[] dmac = new byte[6];
    /** Source MAC address, 6 bytes. */
    public byte[] smac = new byte[6];
    /** EtherType (or the TPID 0x8100 when a VLAN tag follows), 16 bits. */
    public int etherType;

    /** The field table, equivalent to the kernel's {@code eth_table}. */
    public static final List<IbField<EthHeader>> TABLE = List.of(
            IbField.bytes("eth:dmac", 0, 0, 48, h -> h.dmac, (h, v) -> h.dmac = v),
            IbField.bytes("eth:smac", 1, 16, 48, h -> h.smac, (h, v) -> h.smac = v),
            IbField.of("eth:type", 3, 0, 16, h -> h.etherType, (h, v) -> h.etherType = (int) v));

    /** Creates an all-zero header. */
    public EthHeader() {
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first byte
     * @return {@link #IB_ETH_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_ETH_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this header
     */
    public EthHeader unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this header */
    public EthHeader copy() {
        EthHeader c = new EthHeader();
        c.dmac = dmac == null ? null : dmac.clone();
        c.smac = smac == null ? null : smac.clone();
        c.etherType = etherType;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EthHeader)) {
            return false;
        }
        EthHeader h = (EthHeader) o;
        return etherType == h.etherType && Arrays.equals(dmac, h.dmac) && Arrays.equals(smac, h.smac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(etherType, Arrays.hashCode(dmac), Arrays.hashCode(smac));
    }

    @Override
    public String toString() {
        HexFormat mac = HexFormat.ofDelimiter(":");
        return String.format("EthHeader{dmac=%s, smac=%s, etherType=0x%04x}",
                dmac == null ? "null" : mac.formatHex(dmac), smac == null ? "null" : mac.formatHex(smac), etherType);
    }
}
