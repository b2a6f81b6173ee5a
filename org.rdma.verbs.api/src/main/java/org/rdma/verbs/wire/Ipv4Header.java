package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The IPv4 header without options (RFC 791, section 3.1), 20 bytes, used by RoCEv2 over IPv4.
 *
 * <p>Mirrors {@code struct ib_unpacked_ip4} (include/rdma/ib_pack.h) and {@code ip4_table}
 * (drivers/infiniband/core/ud_header.c).
 *
 * <pre>
 *  word 0:  Version(4) | IHL(4) | TOS(8) | Total Length(16)
 *  word 1:  Identification(16) | Flags(3) + Fragment Offset(13)
 *  word 2:  TTL(8) | Protocol(8) | Header Checksum(16)
 *  word 3:  Source Address(32)
 *  word 4:  Destination Address(32)
 * </pre>
 *
 * <p>Addresses are held as {@code int}s whose most significant byte is the first byte on the wire
 * (192.168.0.1 is {@code 0xC0A80001}). The checksum is held as the 16-bit value whose big-endian
 * bytes appear on the wire.
 */
public final class Ipv4Header {

    /** Size of the option-less IPv4 header on the wire ({@code IB_IP4_BYTES}). */
    public static final int IB_IP4_BYTES = 20;
    /** Protocol number of UDP ({@code IPPROTO_UDP}). */
    public static final int IPPROTO_UDP = 17;
    /** The "don't fragment" flag as it appears in {@link #fragOff}. */
    public static final int IP_DF = 0x4000;

    /** Version, 4 bits; 4. */
    public int version;
    /** Header length in 32-bit words, 4 bits; 5 without options. */
    public int ihl;
    /** Type of service (DSCP and ECN), 8 bits (variant for the ICRC). */
    public int tos;
    /** Total length of the datagram in bytes, 16 bits. */
    public int totalLength;
    /** Identification, 16 bits. */
    public int id;
    /** Flags and fragment offset, 16 bits. */
    public int fragOff;
    /** Time to live, 8 bits (variant for the ICRC). */
    public int ttl;
    /** Protocol, 8 bits. */
    public int protocol;
    /** Header checksum, 16 bits (variant for the ICRC). */
    public int checksum;
    /** Source address. */
    public int saddr;
    /** Destination address. */
    public int daddr;

    /** The field table, equivalent to the kernel's {@code ip4_table}. */
    public static final List<IbField<Ipv4Header>> TABLE = List.of(
            IbField.of("ip4:ver", 0, 0, 4, h -> h.version, (h, v) -> h.version = (int) v),
            IbField.of("ip4:hdr_len", 0, 4, 4, h -> h.ihl, (h, v) -> h.ihl = (int) v),
            IbField.of("ip4:tos", 0, 8, 8, h -> h.tos, (h, v) -> h.tos = (int) v),
            IbField.of("ip4:tot_len", 0, 16, 16, h -> h.totalLength, (h, v) -> h.totalLength = (int) v),
            IbField.of("ip4:id", 1, 0, 16, h -> h.id, (h, v) -> h.id = (int) v),
            IbField.of("ip4:frag_off", 1, 16, 16, h -> h.fragOff, (h, v) -> h.fragOff = (int) v),
            IbField.of("ip4:ttl", 2, 0, 8, h -> h.ttl, (h, v) -> h.ttl = (int) v),
            IbField.of("ip4:protocol", 2, 8, 8, h -> h.protocol, (h, v) -> h.protocol = (int) v),
            IbField.of("ip4:check", 2, 16, 16, h -> h.checksum, (h, v) -> h.checksum = (int) v),
            IbField.of("ip4:saddr", 3, 0, 32, h -> h.saddr & 0xFFFF_FFFFL, (h, v) -> h.saddr = (int) v),
            IbField.of("ip4:daddr", 4, 0, 32, h -> h.daddr & 0xFFFF_FFFFL, (h, v) -> h.daddr = (int) v));

    /** Creates an all-zero header. */
    public Ipv4Header() {
    }

    /**
     * Computes the RFC 1071 Internet checksum: the ones' complement of the ones' complement sum of
     * the big-endian 16-bit words of {@code buf[off, off + len)} (an odd trailing byte is padded
     * with a zero byte).
     *
     * <p>Over an IPv4 header whose checksum field holds zero this yields the value to store in the
     * checksum field; over a header with a correct checksum it yields 0.
     *
     * @param buf data
     * @param off first byte
     * @param len number of bytes
     * @return the 16-bit checksum
     */
    public static int internetChecksum(byte[] buf, int off, int len) {
        Objects.checkFromIndexSize(off, len, buf.length);
        long sum = 0;
        int i = off;
        int end = off + len;
        for (; i + 1 < end; i += 2) {
            sum += ((buf[i] & 0xFF) << 8) | (buf[i + 1] & 0xFF);
        }
        if (i < end) {
            sum += (buf[i] & 0xFF) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }

    /**
     * The header checksum this header should carry: the {@link #internetChecksum Internet checksum}
     * of the 20 packed bytes with the checksum field taken as zero. Options are not covered: the
     * table describes only the fixed 20-byte header.
     *
     * @return the 16-bit checksum
     */
    public int computeChecksum() {
        byte[] tmp = new byte[IB_IP4_BYTES];
        pack(tmp, 0);
        tmp[10] = 0; // the checksum field counts as zero
        tmp[11] = 0;
        return internetChecksum(tmp, 0, IB_IP4_BYTES);
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first byte
     * @return {@link #IB_IP4_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_IP4_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first byte
     * @return this header
     */
    public Ipv4Header unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public Ipv4Header copy() {
        Ipv4Header c = new Ipv4Header();
        c.version = version;
        c.ihl = ihl;
        c.tos = tos;
        c.totalLength = totalLength;
        c.id = id;
        c.fragOff = fragOff;
        c.ttl = ttl;
        c.protocol = protocol;
        c.checksum = checksum;
        c.saddr = saddr;
        c.daddr = daddr;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Ipv4Header)) {
            return false;
        }
        Ipv4Header h = (Ipv4Header) o;
        return version == h.version && ihl == h.ihl && tos == h.tos && totalLength == h.totalLength
                && id == h.id && fragOff == h.fragOff && ttl == h.ttl && protocol == h.protocol
                && checksum == h.checksum && saddr == h.saddr && daddr == h.daddr;
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, ihl, tos, totalLength, id, fragOff, ttl, protocol, checksum, saddr, daddr);
    }

    @Override
    public String toString() {
        return String.format("Ipv4Header{version=%d, ihl=%d, tos=0x%02x, totalLength=%d, id=0x%04x, fragOff=0x%04x, "
                        + "ttl=%d, protocol=%d, checksum=0x%04x, saddr=%s, daddr=%s}",
                version, ihl, tos, totalLength, id, fragOff, ttl, protocol, checksum, dotted(saddr), dotted(daddr));
    }

    private static String dotted(int a) {
        return (a >>> 24) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }
}
