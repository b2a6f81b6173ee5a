package org.rdma.verbs.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The InfiniBand Global Route Header (IBTA vol. 1, 8.3), 40 bytes, laid out exactly like an IPv6
 * header (RFC 8200, section 3).
 *
 * <p>Mirrors {@code struct ib_unpacked_grh} (include/rdma/ib_pack.h) and its field table
 * {@code grh_table} (drivers/infiniband/core/ud_header.c). As in the kernel, the same class serves
 * as the IPv6 header of RoCEv2 packets: {@code ib_ud_header_init()} fills the GRH with
 * {@link #ipVersion} 6 and {@link #nextHeader} {@link #NEXT_HEADER_UDP} when the IP version is 6,
 * and the traffic class, flow label, hop limit and addresses (SGID/DGID) have the IPv6 meaning.
 *
 * <pre>
 *  word 0:     IPVer(4) | TClass(8) | FlowLabel(20)
 *  word 1:     PayLen(16) | NxtHdr(8) | HopLmt(8)
 *  words 2-5:  SGID (128)
 *  words 6-9:  DGID (128)
 * </pre>
 */
public final class Grh {

    /** Size of the GRH on the wire ({@code IB_GRH_BYTES}). */
    public static final int IB_GRH_BYTES = 40;
    /** Next header value announcing an IBA transport header (IBTA 8.3.1), used by native IB and RoCEv1. */
    public static final int NEXT_HEADER_IBA = 0x1B;
    /** Next header value for UDP ({@code IPPROTO_UDP}), used by RoCEv2 over IPv6. */
    public static final int NEXT_HEADER_UDP = 17;

    /** IP version, 4 bits; 6 for a GRH. */
    public int ipVersion;
    /** Traffic class, 8 bits (variant for the ICRC). */
    public int trafficClass;
    /** Flow label, 20 bits (variant for the ICRC). */
    public int flowLabel;
    /** Payload length in bytes following the GRH/IPv6 header, 16 bits. */
    public int payloadLength;
    /** Next header, 8 bits. */
    public int nextHeader;
    /** Hop limit, 8 bits (variant for the ICRC). */
    public int hopLimit;
    /** Source GID / IPv6 source address, 16 bytes in network order. */
    public byte[] sgid = new byte[16];
    /** Destination GID / IPv6 destination address, 16 bytes in network order. */
    public byte[] dgid = new byte[16];

    /** The field table, equivalent to the kernel's {@code grh_table}. */
    public static final List<IbField<Grh>> TABLE = List.of(
            IbField.of("grh:ip_version", 0, 0, 4, h -> h.ipVersion, (h, v) -> h.ipVersion = (int) v),
            IbField.of("grh:traffic_class", 0, 4, 8, h -> h.trafficClass, (h, v) -> h.trafficClass = (int) v),
            IbField.of("grh:flow_label", 0, 12, 20, h -> h.flowLabel, (h, v) -> h.flowLabel = (int) v),
            IbField.of("grh:payload_length", 1, 0, 16, h -> h.payloadLength, (h, v) -> h.payloadLength = (int) v),
            IbField.of("grh:next_header", 1, 16, 8, h -> h.nextHeader, (h, v) -> h.nextHeader = (int) v),
            IbField.of("grh:hop_limit", 1, 24, 8, h -> h.hopLimit, (h, v) -> h.hopLimit = (int) v),
            IbField.bytes("grh:source_gid", 2, 0, 128, h -> h.sgid, (h, v) -> h.sgid = v),
            IbField.bytes("grh:destination_gid", 6, 0, 128, h -> h.dgid, (h, v) -> h.dgid = v));

    /** Creates an all-zero header. */
    public Grh() {
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first GRH byte
     * @return {@link #IB_GRH_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_GRH_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first GRH byte
     * @return this header
     */
    public Grh unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a deep copy of this header */
    public Grh copy() {
        Grh c = new Grh();
        c.ipVersion = ipVersion;
        c.trafficClass = trafficClass;
        c.flowLabel = flowLabel;
        c.payloadLength = payloadLength;
        c.nextHeader = nextHeader;
        c.hopLimit = hopLimit;
        c.sgid = sgid == null ? null : sgid.clone();
        c.dgid = dgid == null ? null : dgid.clone();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Grh)) {
            return false;
        }
        Grh h = (Grh) o;
        return ipVersion == h.ipVersion && trafficClass == h.trafficClass && flowLabel == h.flowLabel
                && payloadLength == h.payloadLength && nextHeader == h.nextHeader && hopLimit == h.hopLimit
                && Arrays.equals(sgid, h.sgid) && Arrays.equals(dgid, h.dgid);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ipVersion, trafficClass, flowLabel, payloadLength, nextHeader, hopLimit,
                Arrays.hashCode(sgid), Arrays.hashCode(dgid));
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return String.format("Grh{ipVersion=%d, trafficClass=0x%02x, flowLabel=0x%05x, payloadLength=%d, "
                        + "nextHeader=0x%02x, hopLimit=%d, sgid=%s, dgid=%s}",
                ipVersion, trafficClass, flowLabel, payloadLength, nextHeader, hopLimit,
                sgid == null ? "null" : hex.formatHex(sgid), dgid == null ? "null" : hex.formatHex(dgid));
    }
}
