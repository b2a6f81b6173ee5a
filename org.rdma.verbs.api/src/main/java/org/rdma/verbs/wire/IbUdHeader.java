package org.rdma.verbs.wire;

import java.util.Objects;

/**
 * The headers of an Unreliable Datagram SEND packet, for native InfiniBand (LRH [+ GRH]) and for
 * RoCE (Ethernet [+ VLAN] + GRH for RoCEv1, or + IPv4/IPv6 + UDP for RoCEv2), followed by
 * BTH + DETH [+ immediate data].
 *
 * <p>Mirrors {@code struct ib_ud_header} (include/rdma/ib_pack.h) and the functions
 * {@code ib_ud_header_init()}, {@code ib_ud_header_pack()}, {@code ib_ud_ip4_csum()} and
 * {@code ib_ud_header_unpack()} (drivers/infiniband/core/ud_header.c; unpack was removed from
 * recent kernels and is modelled on its last version). The kernel uses these for QP0/QP1 (MAD)
 * traffic that drivers build in software.
 *
 * <p>Errors are reported as {@link IllegalArgumentException}s whose message starts with
 * {@code "EINVAL: "}, where the kernel returns {@code -EINVAL}.
 *
 * <p>Typical use (RoCEv2 over IPv4):
 * <pre>{@code
 * IbUdHeader h = new IbUdHeader().init(256, false, true, false, false, 4, true, false);
 * h.eth.dmac = ...; h.eth.smac = ...; h.eth.etherType = EthHeader.ETH_P_IP;
 * h.ip4.ttl = 64; h.ip4.saddr = ...; h.ip4.daddr = ...;
 * h.ip4.checksum = h.ipv4Checksum();
 * h.udp.sport = 0xC000; h.udp.dport = UdpHeader.ROCE_V2_UDP_DPORT;
 * h.bth.pkey = 0xFFFF; h.bth.destQpn = 1; h.deth.qkey = 0x80010000; h.deth.srcQpn = 1;
 * int n = h.pack(frame, 0);
 * }</pre>
 */
public final class IbUdHeader {

    /** Size of the immediate data on the wire. */
    public static final int IMMEDIATE_BYTES = 4;
    /** Size of the ICRC on the wire ({@code IB_ICRC_BYTES}). */
    public static final int IB_ICRC_BYTES = 4;

    /** Whether an LRH starts the packet (native InfiniBand). */
    public boolean lrhPresent;
    /** The Local Route Header. */
    public Lrh lrh = new Lrh();
    /** Whether an Ethernet header starts the packet (RoCE). */
    public boolean ethPresent;
    /** The Ethernet header. */
    public EthHeader eth = new EthHeader();
    /** Whether an 802.1Q tag follows the Ethernet header. */
    public boolean vlanPresent;
    /** The VLAN tag remainder (TCI and inner EtherType). */
    public VlanHeader vlan = new VlanHeader();
    /** Whether a GRH (native IB, RoCEv1) or IPv6 header (RoCEv2) is present. */
    public boolean grhPresent;
    /** The GRH, also used as the IPv6 header of RoCEv2. */
    public Grh grh = new Grh();
    /** Whether an IPv4 header is present (RoCEv2 over IPv4). */
    public boolean ipv4Present;
    /** The IPv4 header. */
    public Ipv4Header ip4 = new Ipv4Header();
    /** Whether a UDP header is present (RoCEv2). */
    public boolean udpPresent;
    /** The UDP header. */
    public UdpHeader udp = new UdpHeader();
    /** The Base Transport Header. */
    public Bth bth = new Bth();
    /** The Datagram Extended Transport Header. */
    public Deth deth = new Deth();
    /** Whether 4 bytes of immediate data follow the DETH. */
    public boolean immediatePresent;
    /** The immediate data, written big-endian (the kernel keeps it as a {@code __be32}). */
    public int immediateData;

    /** Creates a header with every part absent and zero. */
    public IbUdHeader() {
    }

    private static IllegalArgumentException einval(String what) {
        return new IllegalArgumentException("EINVAL: " + what);
    }

    /**
     * Clears this header and fills in the layout and length fields for a UD SEND of
     * {@code payloadBytes} bytes.
     *
     * <p>Mirrors {@code ib_ud_header_init()} (drivers/infiniband/core/ud_header.c), with the same
     * results:
     * <ul>
     *   <li>{@code grhPresent} is ignored when {@code ipVersion} is non-zero (the IP header takes
     *       its place); {@code ipVersion == 6} makes {@link #grh} the IPv6 header;</li>
     *   <li>LRH (if present): link version 0; LNH {@link Lrh#LNH_IBA_GLOBAL} with a GRH, else
     *       {@link Lrh#LNH_IBA_LOCAL}; packet length = ceil((LRH + [GRH] + BTH + DETH + payload +
     *       ICRC) / 4) words;</li>
     *   <li>VLAN present: {@code eth.etherType} = {@link EthHeader#ETH_P_8021Q} (the caller sets
     *       {@code vlan.etherType});</li>
     *   <li>GRH/IPv6: IP version 6, payload length = ([UDP] + BTH + DETH + payload + ICRC) rounded
     *       up to a multiple of 4, next header {@link Grh#NEXT_HEADER_UDP} with UDP else
     *       {@link Grh#NEXT_HEADER_IBA};</li>
     *   <li>IPv4: version 4, IHL 5, total length = IPv4 + [UDP] + BTH + DETH + payload + ICRC
     *       (not rounded), protocol UDP. Like the kernel, TTL, TOS, addresses and the checksum are
     *       left to the caller (see {@link #ipv4Checksum()});</li>
     *   <li>UDP: length = UDP + BTH + DETH + payload + ICRC;</li>
     *   <li>BTH: opcode {@link Bth#OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE} or
     *       {@link Bth#OPCODE_UD_SEND_ONLY}, pad count {@code (4 - payloadBytes) & 3}, transport
     *       header version 0.</li>
     * </ul>
     * As in the kernel, none of the lengths counts the 4 bytes of immediate data nor, except where
     * rounding is stated, the BTH pad bytes.
     *
     * @param payloadBytes      the payload length in bytes, without padding
     * @param lrhPresent        native InfiniBand: start with an LRH
     * @param ethPresent        RoCE: start with an Ethernet header
     * @param vlanPresent       RoCE: include an 802.1Q tag
     * @param grhPresent        include a GRH (ignored when {@code ipVersion != 0})
     * @param ipVersion         0 (none), 4 or 6: RoCEv2 IP header
     * @param udpPresent        RoCEv2: include a UDP header; needs {@code ipVersion} 4 or 6
     * @param immediatePresent  include immediate data (SEND_ONLY_WITH_IMMEDIATE)
     * @return this header
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if UDP is requested without an IP
     *                                  header, if {@code ipVersion} is not 0, 4 or 6, or if
     *                                  {@code payloadBytes} is negative
     */
    public IbUdHeader init(int payloadBytes, boolean lrhPresent, boolean ethPresent, boolean vlanPresent,
                           boolean grhPresent, int ipVersion, boolean udpPresent, boolean immediatePresent) {
        if (ipVersion != 0 && ipVersion != 4 && ipVersion != 6) {
            throw einval("IP version must be 0, 4 or 6, got " + ipVersion);
        }
        if (udpPresent && ipVersion == 0) {
            throw einval("a UDP header needs an IPv4 or IPv6 header");
        }
        if (payloadBytes < 0) {
            throw einval("negative payload length " + payloadBytes);
        }
        boolean grh = grhPresent && ipVersion == 0;
        int udpBytes = udpPresent ? UdpHeader.IB_UDP_BYTES : 0;

        clear();

        if (lrhPresent) {
            lrh.lver = 0;
            lrh.lnh = grh ? Lrh.LNH_IBA_GLOBAL : Lrh.LNH_IBA_LOCAL;
            lrh.packetLength = (Lrh.IB_LRH_BYTES + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES
                    + (grh ? Grh.IB_GRH_BYTES : 0) + payloadBytes + IB_ICRC_BYTES + 3) / 4;
        }
        if (vlanPresent) {
            eth.etherType = EthHeader.ETH_P_8021Q;
        }
        if (ipVersion == 6 || grh) {
            this.grh.ipVersion = 6;
            this.grh.payloadLength = (udpBytes + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES + payloadBytes
                    + IB_ICRC_BYTES + 3) & ~3;
            this.grh.nextHeader = udpPresent ? Grh.NEXT_HEADER_UDP : Grh.NEXT_HEADER_IBA;
        }
        if (ipVersion == 4) {
            ip4.version = 4;
            ip4.ihl = 5;
            ip4.totalLength = Ipv4Header.IB_IP4_BYTES + udpBytes + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES
                    + payloadBytes + IB_ICRC_BYTES;
            ip4.protocol = Ipv4Header.IPPROTO_UDP;
        }
        if (udpPresent) {
            udp.length = UdpHeader.IB_UDP_BYTES + Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES + payloadBytes
                    + IB_ICRC_BYTES;
        }
        bth.opcode = immediatePresent ? Bth.OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE : Bth.OPCODE_UD_SEND_ONLY;
        bth.padCount = (4 - payloadBytes) & 3;
        bth.tver = 0;

        this.lrhPresent = lrhPresent;
        this.ethPresent = ethPresent;
        this.vlanPresent = vlanPresent;
        this.grhPresent = grh || ipVersion == 6;
        this.ipv4Present = ipVersion == 4;
        this.udpPresent = udpPresent;
        this.immediatePresent = immediatePresent;
        return this;
    }

    private void clear() {
        lrhPresent = false;
        lrh = new Lrh();
        ethPresent = false;
        eth = new EthHeader();
        vlanPresent = false;
        vlan = new VlanHeader();
        grhPresent = false;
        grh = new Grh();
        ipv4Present = false;
        ip4 = new Ipv4Header();
        udpPresent = false;
        udp = new UdpHeader();
        bth = new Bth();
        deth = new Deth();
        immediatePresent = false;
        immediateData = 0;
    }

    /**
     * The IPv4 header checksum for {@link #ip4}, computed as if the header had version 4, IHL 5
     * and a zero checksum field, whatever those fields hold. Store the result in
     * {@code ip4.checksum} before packing.
     *
     * <p>Mirrors {@code ib_ud_ip4_csum()} (drivers/infiniband/core/ud_header.c).
     *
     * @return the 16-bit header checksum (RFC 791/RFC 1071)
     */
    public int ipv4Checksum() {
        Ipv4Header h = ip4.copy();
        h.version = 4;
        h.ihl = 5;
        return h.computeChecksum();
    }

    /** @return the number of bytes {@link #pack} writes for the headers currently present */
    public int packedLength() {
        int len = 0;
        if (lrhPresent) {
            len += Lrh.IB_LRH_BYTES;
        }
        if (ethPresent) {
            len += EthHeader.IB_ETH_BYTES;
        }
        if (vlanPresent) {
            len += VlanHeader.IB_VLAN_BYTES;
        }
        if (grhPresent) {
            len += Grh.IB_GRH_BYTES;
        }
        if (ipv4Present) {
            len += Ipv4Header.IB_IP4_BYTES;
        }
        if (udpPresent) {
            len += UdpHeader.IB_UDP_BYTES;
        }
        len += Bth.IB_BTH_BYTES + Deth.IB_DETH_BYTES;
        if (immediatePresent) {
            len += IMMEDIATE_BYTES;
        }
        return len;
    }

    /**
     * Writes the present headers into {@code buf} in wire order:
     * LRH | Ethernet | VLAN | GRH (or IPv6) | IPv4 | UDP | BTH | DETH | immediate data.
     *
     * <p>Mirrors {@code ib_ud_header_pack()} (drivers/infiniband/core/ud_header.c).
     *
     * @param buf destination
     * @param off offset of the first byte to write
     * @return the number of bytes written ({@link #packedLength()})
     * @throws IndexOutOfBoundsException if the headers do not fit; nothing is written then
     */
    public int pack(byte[] buf, int off) {
        Objects.checkFromIndexSize(off, packedLength(), buf.length);
        int len = off;
        if (lrhPresent) {
            len += lrh.pack(buf, len);
        }
        if (ethPresent) {
            len += eth.pack(buf, len);
        }
        if (vlanPresent) {
            len += vlan.pack(buf, len);
        }
        if (grhPresent) {
            len += grh.pack(buf, len);
        }
        if (ipv4Present) {
            len += ip4.pack(buf, len);
        }
        if (udpPresent) {
            len += udp.pack(buf, len);
        }
        len += bth.pack(buf, len);
        len += deth.pack(buf, len);
        if (immediatePresent) {
            IbPack.putBits(buf, len, 0, 32, immediateData);
            len += IMMEDIATE_BYTES;
        }
        return len - off;
    }

    /**
     * Parses a native InfiniBand UD packet that starts with an LRH, validating it like the kernel.
     *
     * <p>Mirrors {@code ib_ud_header_unpack()} (drivers/infiniband/core/ud_header.c, last present in
     * Linux 5.x), checking in the kernel's order: LRH link version 0; LNH local (no GRH) or global
     * (GRH with IP version 6 and next header 0x1B); BTH opcode UD SEND_ONLY or
     * SEND_ONLY_WITH_IMMEDIATE; BTH transport header version 0. Additionally the buffer must hold
     * every header (the kernel trusts its caller for that).
     *
     * <p>On success the present flags describe the packet, headers that are absent are reset to
     * zero, and the number of header bytes consumed is returned. On failure this header may be
     * partly updated.
     *
     * @param buf source
     * @param off offset of the first LRH byte
     * @return the number of header bytes parsed (offset of the payload relative to {@code off})
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if a check fails or the buffer is
     *                                  too short
     */
    public int unpack(byte[] buf, int off) {
        clear();
        int pos = off;
        need(buf, pos, Lrh.IB_LRH_BYTES, "LRH");
        lrh.unpack(buf, pos);
        lrhPresent = true;
        pos += Lrh.IB_LRH_BYTES;
        if (lrh.lver != 0) {
            throw einval("LRH link version must be 0, got " + lrh.lver);
        }
        switch (lrh.lnh) {
            case Lrh.LNH_IBA_LOCAL:
                grhPresent = false;
                break;
            case Lrh.LNH_IBA_GLOBAL:
                need(buf, pos, Grh.IB_GRH_BYTES, "GRH");
                grh.unpack(buf, pos);
                grhPresent = true;
                pos += Grh.IB_GRH_BYTES;
                if (grh.ipVersion != 6) {
                    throw einval("GRH IP version must be 6, got " + grh.ipVersion);
                }
                if (grh.nextHeader != Grh.NEXT_HEADER_IBA) {
                    throw einval(String.format("GRH next header must be 0x1b, got 0x%02x", grh.nextHeader));
                }
                break;
            default:
                throw einval("LRH link next header must be 2 (IBA local) or 3 (IBA global), got " + lrh.lnh);
        }
        return unpackTransport(buf, pos) - off;
    }

    /**
     * Parses a RoCE UD packet that starts with an Ethernet header: RoCEv1 (EtherType 0x8915, GRH)
     * or RoCEv2 (EtherType 0x0800 or 0x86DD, IP + UDP), optionally behind an 802.1Q tag.
     *
     * <p>The Ethernet counterpart of {@link #unpack(byte[], int)}, which the kernel never had; it
     * applies the same transport checks plus: a GRH/IPv6 header must have IP version 6 and next
     * header 0x1B (RoCEv1) or UDP (RoCEv2); an IPv4 header must have version 4, IHL 5 (no options)
     * and protocol UDP; the UDP destination port must be {@link UdpHeader#ROCE_V2_UDP_DPORT}.
     *
     * @param buf source
     * @param off offset of the first Ethernet byte
     * @return the number of header bytes parsed
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if a check fails or the buffer is
     *                                  too short
     */
    public int unpackEth(byte[] buf, int off) {
        clear();
        int pos = off;
        need(buf, pos, EthHeader.IB_ETH_BYTES, "Ethernet header");
        eth.unpack(buf, pos);
        ethPresent = true;
        pos += EthHeader.IB_ETH_BYTES;
        int type = eth.etherType;
        if (type == EthHeader.ETH_P_8021Q) {
            need(buf, pos, VlanHeader.IB_VLAN_BYTES, "VLAN tag");
            vlan.unpack(buf, pos);
            vlanPresent = true;
            pos += VlanHeader.IB_VLAN_BYTES;
            type = vlan.etherType;
        }
        switch (type) {
            case EthHeader.ETH_P_IBOE:
                pos = unpackGrh(buf, pos, Grh.NEXT_HEADER_IBA);
                break;
            case EthHeader.ETH_P_IPV6:
                pos = unpackGrh(buf, pos, Grh.NEXT_HEADER_UDP);
                pos = unpackUdp(buf, pos);
                break;
            case EthHeader.ETH_P_IP:
                need(buf, pos, Ipv4Header.IB_IP4_BYTES, "IPv4 header");
                ip4.unpack(buf, pos);
                ipv4Present = true;
                pos += Ipv4Header.IB_IP4_BYTES;
                if (ip4.version != 4) {
                    throw einval("IPv4 version must be 4, got " + ip4.version);
                }
                if (ip4.ihl != 5) {
                    throw einval("IPv4 header length must be 5 words (no options), got " + ip4.ihl);
                }
                if (ip4.protocol != Ipv4Header.IPPROTO_UDP) {
                    throw einval("IPv4 protocol must be UDP (17), got " + ip4.protocol);
                }
                pos = unpackUdp(buf, pos);
                break;
            default:
                throw einval(String.format("EtherType 0x%04x is not RoCE (0x8915, 0x0800 or 0x86dd)", type));
        }
        return unpackTransport(buf, pos) - off;
    }

    private int unpackGrh(byte[] buf, int pos, int expectedNext) {
        need(buf, pos, Grh.IB_GRH_BYTES, "GRH");
        grh.unpack(buf, pos);
        grhPresent = true;
        if (grh.ipVersion != 6) {
            throw einval("GRH IP version must be 6, got " + grh.ipVersion);
        }
        if (grh.nextHeader != expectedNext) {
            throw einval(String.format("GRH next header must be 0x%02x, got 0x%02x", expectedNext, grh.nextHeader));
        }
        return pos + Grh.IB_GRH_BYTES;
    }

    private int unpackUdp(byte[] buf, int pos) {
        need(buf, pos, UdpHeader.IB_UDP_BYTES, "UDP header");
        udp.unpack(buf, pos);
        udpPresent = true;
        if (udp.dport != UdpHeader.ROCE_V2_UDP_DPORT) {
            throw einval("UDP destination port must be 4791 (RoCEv2), got " + udp.dport);
        }
        return pos + UdpHeader.IB_UDP_BYTES;
    }

    private int unpackTransport(byte[] buf, int pos) {
        need(buf, pos, Bth.IB_BTH_BYTES, "BTH");
        bth.unpack(buf, pos);
        pos += Bth.IB_BTH_BYTES;
        switch (bth.opcode) {
            case Bth.OPCODE_UD_SEND_ONLY:
                immediatePresent = false;
                break;
            case Bth.OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE:
                immediatePresent = true;
                break;
            default:
                throw einval(String.format("BTH opcode must be UD SEND_ONLY (0x64) or SEND_ONLY_WITH_IMMEDIATE "
                        + "(0x65), got 0x%02x", bth.opcode));
        }
        if (bth.tver != 0) {
            throw einval("BTH transport header version must be 0, got " + bth.tver);
        }
        need(buf, pos, Deth.IB_DETH_BYTES, "DETH");
        deth.unpack(buf, pos);
        pos += Deth.IB_DETH_BYTES;
        if (immediatePresent) {
            need(buf, pos, IMMEDIATE_BYTES, "immediate data");
            immediateData = (int) IbPack.getBits(buf, pos, 0, 32);
            pos += IMMEDIATE_BYTES;
        }
        return pos;
    }

    private static void need(byte[] buf, int pos, int n, String what) {
        if (pos < 0 || pos > buf.length - n) {
            throw einval("truncated packet: " + what + " needs " + n + " bytes at offset " + pos
                    + ", buffer length is " + buf.length);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IbUdHeader)) {
            return false;
        }
        IbUdHeader h = (IbUdHeader) o;
        return lrhPresent == h.lrhPresent && ethPresent == h.ethPresent && vlanPresent == h.vlanPresent
                && grhPresent == h.grhPresent && ipv4Present == h.ipv4Present && udpPresent == h.udpPresent
                && immediatePresent == h.immediatePresent && immediateData == h.immediateData
                && lrh.equals(h.lrh) && eth.equals(h.eth) && vlan.equals(h.vlan) && grh.equals(h.grh)
                && ip4.equals(h.ip4) && udp.equals(h.udp) && bth.equals(h.bth) && deth.equals(h.deth);
    }

    @Override
    public int hashCode() {
        return Objects.hash(lrhPresent, ethPresent, vlanPresent, grhPresent, ipv4Present, udpPresent,
                immediatePresent, immediateData, lrh, eth, vlan, grh, ip4, udp, bth, deth);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("IbUdHeader{");
        if (lrhPresent) {
            sb.append(lrh).append(", ");
        }
        if (ethPresent) {
            sb.append(eth).append(", ");
        }
        if (vlanPresent) {
            sb.append(vlan).append(", ");
        }
        if (grhPresent) {
            sb.append(grh).append(", ");
        }
        if (ipv4Present) {
            sb.append(ip4).append(", ");
        }
        if (udpPresent) {
            sb.append(udp).append(", ");
        }
        sb.append(bth).append(", ").append(deth);
        if (immediatePresent) {
            sb.append(String.format(", imm=0x%08x", immediateData));
        }
        return sb.append('}').toString();
    }
}
