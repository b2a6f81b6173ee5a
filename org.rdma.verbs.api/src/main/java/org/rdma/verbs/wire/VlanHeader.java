package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The 4 bytes that follow an Ethernet header whose EtherType is {@link EthHeader#ETH_P_8021Q}:
 * the IEEE 802.1Q tag control information and the encapsulated EtherType.
 *
 * <p>Mirrors {@code struct ib_unpacked_vlan} (include/rdma/ib_pack.h) and {@code vlan_table}
 * (drivers/infiniband/core/ud_header.c).
 *
 * <pre>
 *  word 0:  TCI(16) = PCP(3) | DEI(1) | VID(12)   | EtherType(16)
 * </pre>
 */
public final class VlanHeader {

    /** Size of the VLAN tag remainder on the wire ({@code IB_VLAN_BYTES}). */
    public static final int IB_VLAN_BYTES = 4;

    /** Tag control information: priority (3 bits), drop eligible (1 bit), VLAN id (12 bits). */
    public int tci;
    /** EtherType of the encapsulated protocol, 16 bits. */
    public int etherType;

    /** The field table, equivalent to the kernel's {@code vlan_table}. */
    public static final List<IbField<VlanHeader>> TABLE = List.of(
            IbField.of("vlan:tag", 0, 0, 16, h -> h.tci, (h, v) -> h.tci = (int) v),
            IbField.of("vlan:type", 0, 16, 16, h -> h.etherType, (h, v) -> h.etherType = (int) v));

    /** Creates an all-zero header. */
    public VlanHeader() {
    }

    /**
     * Builds a tag control information value.
     *
     * @param pcp priority code point, 3 bits
     * @param dei drop eligible indicator
     * @param vid VLAN identifier, 12 bits
     * @return the 16-bit TCI
     * @throws IllegalArgumentException if {@code pcp} or {@code vid} is out of range
     */
    public static int tci(int pcp, boolean dei, int vid) {
        if (pcp < 0 || pcp > 7) {
            throw new IllegalArgumentException("pcp out of range: " + pcp);
        }
        if (vid < 0 || vid > 0xFFF) {
            throw new IllegalArgumentException("vid out of range: " + vid);
        }
        return pcp << 13 | (dei ? 1 << 12 : 0) | vid;
    }

    /** @return the priority code point (top 3 bits of the TCI) */
    public int pcp() {
        return (tci >>> 13) & 7;
    }

    /** @return the drop eligible indicator */
    public boolean dei() {
        return (tci & 0x1000) != 0;
    }

    /** @return the VLAN identifier (low 12 bits of the TCI) */
    public int vid() {
        return tci & 0xFFF;
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first byte
     * @return {@link #IB_VLAN_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_VLAN_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this header
     */
    public VlanHeader unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public VlanHeader copy() {
        VlanHeader c = new VlanHeader();
        c.tci = tci;
        c.etherType = etherType;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof VlanHeader)) {
            return false;
        }
        VlanHeader h = (VlanHeader) o;
        return tci == h.tci && etherType == h.etherType;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tci, etherType);
    }

    @Override
    public String toString() {
        return String.format("VlanHeader{tci=0x%04x, etherType=0x%04x}", tci, etherType);
    }
}
