package org.rdma.verbs.wire;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The Invariant CRC of IBA transport packets (IBTA vol. 1, 7.8.1) and of RoCE packets (IBTA
 * annexes A16 and A17).
 *
 * <p>Mirrors {@code rxe_icrc_hdr()}, {@code rxe_icrc_generate()} and {@code rxe_icrc_check()}
 * (drivers/infiniband/sw/rxe/rxe_icrc.c), generalised to native InfiniBand packets.
 *
 * <h2>Algorithm</h2>
 * The ICRC is the CRC-32 of Ethernet / zlib / {@link CRC32} (polynomial 0x04C11DB7, reflected,
 * initial value and final XOR 0xFFFFFFFF) over the packet from the first byte of the LRH through
 * the last payload/pad byte, with every variant field replaced by one-bits:
 * <ul>
 *   <li>native IB without a GRH (LNH = IBA local): LRH VL (top nibble of byte 0) and BTH resv8a
 *       (byte 4 of the BTH, which carries FECN/BECN);</li>
 *   <li>native IB with a GRH (LNH = IBA global): the <em>whole</em> LRH (routers rewrite it),
 *       the GRH traffic class, flow label and hop limit, and BTH resv8a;</li>
 *   <li>RoCEv1 (GRH directly after Ethernet): as native IB with a GRH, the absent LRH counting
 *       as 8 bytes of one-bits;</li>
 *   <li>RoCEv2: a pseudo LRH of 8 bytes of one-bits, then the IP header with IPv4 TOS, TTL and
 *       header checksum, or IPv6 traffic class, flow label and hop limit, masked; the UDP checksum
 *       masked; BTH resv8a masked.</li>
 * </ul>
 * (rxe starts its CRC at {@code 0xdebb20e3}, which is exactly the CRC-32 register after the
 * 8 one-bytes of the masked LRH.)
 *
 * <h2>Byte order on the wire</h2>
 * The 32-bit value returned by {@code compute*} is what {@link CRC32#getValue()} returns; it is
 * transmitted <em>least significant byte first</em> (see {@link #put(int, byte[], int)}). rxe
 * stores {@code ~crc} through a {@code __be32 *} cast of a CPU-order value, i.e. little-endian
 * on x86; this order is confirmed by a ConnectX-4 Lx RoCEv2 capture whose ICRC bytes
 * {@code 82 fd 00 2a} are the CRC value {@code 0x2a00fd82}.
 *
 * <h2>Cost</h2>
 * Each call masks at most 88 header bytes in a per-thread scratch array and feeds the rest of the
 * packet straight from the caller's array or buffer to a per-thread {@link CRC32}; no objects are
 * allocated per call.
 */
public final class Icrc {

    /** Size of the ICRC on the wire. */
    public static final int ICRC_BYTES = 4;

    private static final int LRH = 8;
    private static final int GRH = 40;
    private static final int BTH = 12;
    private static final int UDP = 8;
    private static final int BTH_RESV8A = 4;

    private static final class Scratch {
        final CRC32 crc = new CRC32();
        /** Pseudo/real LRH + IPv4 with options (60) or GRH/IPv6 (40) + UDP + BTH. */
        final byte[] hdr = new byte[LRH + 60 + UDP + BTH];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private Icrc() {
    }

    // ---------------------------------------------------------------- native InfiniBand

    /**
     * Computes the ICRC of a native InfiniBand packet.
     *
     * @param pkt packet bytes, starting with the LRH
     * @param off offset of the first LRH byte
     * @param len length from the first LRH byte through the last payload/pad byte, i.e. without
     *            the ICRC and VCRC (for a well-formed packet {@code LRH.PktLen * 4 - 4})
     * @return the ICRC value
     * @throws IllegalArgumentException if the LNH is not an IBA transport (raw packets carry no
     *                                  ICRC) or {@code len} is shorter than the headers
     * @throws IndexOutOfBoundsException if {@code [off, off + len)} is outside {@code pkt}
     */
    public static int computeIb(byte[] pkt, int off, int len) {
        Objects.checkFromIndexSize(off, len, pkt.length);
        checkAtLeast(len, 2, "LRH");
        Scratch s = SCRATCH.get();
        int consumed = maskIb(s.hdr, pkt[off + 1], len, pkt, null, off);
        return finish(s, consumed, pkt, null, off, len, consumed);
    }

    /**
     * {@link ByteBuffer} variant of {@link #computeIb(byte[], int, int)}; reads at absolute index
     * {@code index} and leaves position and limit unchanged.
     *
     * @param pkt packet buffer
     * @param index absolute index of the first LRH byte
     * @param len length without ICRC and VCRC
     * @return the ICRC value
     */
    public static int computeIb(ByteBuffer pkt, int index, int len) {
        Objects.checkFromIndexSize(index, len, pkt.limit());
        checkAtLeast(len, 2, "LRH");
        Scratch s = SCRATCH.get();
        int consumed = maskIb(s.hdr, pkt.get(index + 1), len, null, pkt, index);
        return finish(s, consumed, null, pkt, index, len, consumed);
    }

    /**
     * Computes the ICRC of a native IB packet and writes it after the payload.
     *
     * @param pkt packet bytes with room for the ICRC
     * @param off offset of the first LRH byte
     * @param len length without the ICRC
     * @return {@code len + 4}, the length including the ICRC
     */
    public static int appendIb(byte[] pkt, int off, int len) {
        int icrc = computeIb(pkt, off, len);
        put(icrc, pkt, off + len);
        return len + ICRC_BYTES;
    }

    /**
     * Checks the ICRC of a native IB packet.
     *
     * @param pkt packet bytes
     * @param off offset of the first LRH byte
     * @param lenWithIcrc length from the first LRH byte through the last ICRC byte (without VCRC)
     * @return whether the transmitted ICRC matches
     */
    public static boolean verifyIb(byte[] pkt, int off, int lenWithIcrc) {
        int len = lenWithIcrc - ICRC_BYTES;
        return computeIb(pkt, off, len) == get(pkt, off + len);
    }

    // ---------------------------------------------------------------- RoCEv1

    /**
     * Computes the ICRC of a RoCEv1 packet (IBTA annex A16): the IB-with-GRH rule, the missing LRH
     * counting as 8 one-bytes.
     *
     * @param pkt packet bytes
     * @param off offset of the first GRH byte (just after the Ethernet/VLAN header)
     * @param len length from the first GRH byte through the last payload/pad byte
     * @return the ICRC value
     */
    public static int computeRoceV1(byte[] pkt, int off, int len) {
        Objects.checkFromIndexSize(off, len, pkt.length);
        checkAtLeast(len, GRH + BTH, "GRH + BTH");
        Scratch s = SCRATCH.get();
        System.arraycopy(pkt, off, s.hdr, LRH, GRH + BTH);
        maskGlobal(s.hdr);
        return finish(s, LRH + GRH + BTH, pkt, null, off, len, GRH + BTH);
    }

    /**
     * Computes the RoCEv1 ICRC and writes it after the payload.
     *
     * @param pkt packet bytes with room for the ICRC
     * @param off offset of the first GRH byte
     * @param len length without the ICRC
     * @return {@code len + 4}
     */
    public static int appendRoceV1(byte[] pkt, int off, int len) {
        put(computeRoceV1(pkt, off, len), pkt, off + len);
        return len + ICRC_BYTES;
    }

    /**
     * Checks the ICRC of a RoCEv1 packet.
     *
     * @param pkt packet bytes
     * @param off offset of the first GRH byte
     * @param lenWithIcrc length from the first GRH byte through the last ICRC byte
     * @return whether the transmitted ICRC matches
     */
    public static boolean verifyRoceV1(byte[] pkt, int off, int lenWithIcrc) {
        int len = lenWithIcrc - ICRC_BYTES;
        return computeRoceV1(pkt, off, len) == get(pkt, off + len);
    }

    // ---------------------------------------------------------------- RoCEv2

    /**
     * Computes the ICRC of a RoCEv2 packet (IBTA annex A17), like {@code rxe_icrc_hdr()} followed
     * by the payload. IPv4 or IPv6 is chosen by the version nibble of the first byte; IPv4 options
     * (IHL &gt; 5) are covered unmasked.
     *
     * @param pkt packet bytes
     * @param off offset of the first IP header byte (just after the Ethernet/VLAN header)
     * @param len length from the first IP header byte through the last payload/pad byte, i.e.
     *            without the ICRC (and without any Ethernet FCS)
     * @return the ICRC value
     * @throws IllegalArgumentException if the IP version is neither 4 nor 6, the IPv4 IHL is
     *                                  below 5, or {@code len} is shorter than the headers
     */
    public static int computeRoceV2(byte[] pkt, int off, int len) {
        Objects.checkFromIndexSize(off, len, pkt.length);
        checkAtLeast(len, 1, "IP header");
        int ipLen = ipHeaderLength(pkt[off]);
        int hdr = ipLen + UDP + BTH;
        checkAtLeast(len, hdr, "IP + UDP + BTH");
        Scratch s = SCRATCH.get();
        System.arraycopy(pkt, off, s.hdr, LRH, hdr);
        maskRoceV2(s.hdr, ipLen);
        return finish(s, LRH + hdr, pkt, null, off, len, hdr);
    }

    /**
     * {@link ByteBuffer} variant of {@link #computeRoceV2(byte[], int, int)}; reads at absolute
     * index {@code index} and leaves position and limit unchanged.
     *
     * @param pkt packet buffer
     * @param index absolute index of the first IP header byte
     * @param len length without the ICRC
     * @return the ICRC value
     */
    public static int computeRoceV2(ByteBuffer pkt, int index, int len) {
        Objects.checkFromIndexSize(index, len, pkt.limit());
        checkAtLeast(len, 1, "IP header");
        int ipLen = ipHeaderLength(pkt.get(index));
        int hdr = ipLen + UDP + BTH;
        checkAtLeast(len, hdr, "IP + UDP + BTH");
        Scratch s = SCRATCH.get();
        pkt.get(index, s.hdr, LRH, hdr);
        maskRoceV2(s.hdr, ipLen);
        return finish(s, LRH + hdr, null, pkt, index, len, hdr);
    }

    /**
     * Computes the RoCEv2 ICRC and writes it after the payload.
     *
     * @param pkt packet bytes with room for the ICRC
     * @param off offset of the first IP header byte
     * @param len length without the ICRC
     * @return {@code len + 4}
     */
    public static int appendRoceV2(byte[] pkt, int off, int len) {
        put(computeRoceV2(pkt, off, len), pkt, off + len);
        return len + ICRC_BYTES;
    }

    /**
     * Checks the ICRC of a RoCEv2 packet, like {@code rxe_icrc_check()}.
     *
     * @param pkt packet bytes
     * @param off offset of the first IP header byte
     * @param lenWithIcrc length from the first IP header byte through the last ICRC byte
     * @return whether the transmitted ICRC matches
     */
    public static boolean verifyRoceV2(byte[] pkt, int off, int lenWithIcrc) {
        int len = lenWithIcrc - ICRC_BYTES;
        return computeRoceV2(pkt, off, len) == get(pkt, off + len);
    }

    /**
     * {@link ByteBuffer} variant of {@link #verifyRoceV2(byte[], int, int)}.
     *
     * @param pkt packet buffer
     * @param index absolute index of the first IP header byte
     * @param lenWithIcrc length through the last ICRC byte
     * @return whether the transmitted ICRC matches
     */
    public static boolean verifyRoceV2(ByteBuffer pkt, int index, int lenWithIcrc) {
        int len = lenWithIcrc - ICRC_BYTES;
        return computeRoceV2(pkt, index, len) == get(pkt, index + len);
    }

    /**
     * {@link ByteBuffer} variant of {@link #verifyIb(byte[], int, int)}.
     *
     * @param pkt packet buffer
     * @param index absolute index of the first LRH byte
     * @param lenWithIcrc length through the last ICRC byte
     * @return whether the transmitted ICRC matches
     */
    public static boolean verifyIb(ByteBuffer pkt, int index, int lenWithIcrc) {
        int len = lenWithIcrc - ICRC_BYTES;
        return computeIb(pkt, index, len) == get(pkt, index + len);
    }

    // ---------------------------------------------------------------- wire byte order

    /**
     * Writes an ICRC value in wire order, least significant byte first.
     *
     * @param icrc the value returned by a {@code compute*} method
     * @param buf destination
     * @param pos offset of the first ICRC byte
     */
    public static void put(int icrc, byte[] buf, int pos) {
        Objects.checkFromIndexSize(pos, ICRC_BYTES, buf.length);
        buf[pos] = (byte) icrc;
        buf[pos + 1] = (byte) (icrc >>> 8);
        buf[pos + 2] = (byte) (icrc >>> 16);
        buf[pos + 3] = (byte) (icrc >>> 24);
    }

    /**
     * Reads an ICRC value transmitted least significant byte first.
     *
     * @param buf source
     * @param pos offset of the first ICRC byte
     * @return the ICRC value
     */
    public static int get(byte[] buf, int pos) {
        Objects.checkFromIndexSize(pos, ICRC_BYTES, buf.length);
        return (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
    }

    /**
     * {@link ByteBuffer} variant of {@link #put(int, byte[], int)} (absolute, byte order ignored).
     *
     * @param icrc the value
     * @param buf destination
     * @param index absolute index of the first ICRC byte
     */
    public static void put(int icrc, ByteBuffer buf, int index) {
        Objects.checkFromIndexSize(index, ICRC_BYTES, buf.limit());
        for (int i = 0; i < ICRC_BYTES; i++) {
            buf.put(index + i, (byte) (icrc >>> (8 * i)));
        }
    }

    /**
     * {@link ByteBuffer} variant of {@link #get(byte[], int)} (absolute, byte order ignored).
     *
     * @param buf source
     * @param index absolute index of the first ICRC byte
     * @return the ICRC value
     */
    public static int get(ByteBuffer buf, int index) {
        Objects.checkFromIndexSize(index, ICRC_BYTES, buf.limit());
        int v = 0;
        for (int i = ICRC_BYTES - 1; i >= 0; i--) {
            v = v << 8 | (buf.get(index + i) & 0xFF);
        }
        return v;
    }

    // ---------------------------------------------------------------- internals

    /**
     * Copies and masks the IB headers into {@code hdr}; returns how many packet bytes were taken.
     */
    private static int maskIb(byte[] hdr, byte lrhByte1, int len, byte[] arr, ByteBuffer bb, int off) {
        int lnh = lrhByte1 & 3;
        if (lnh == Lrh.LNH_IBA_LOCAL) {
            checkAtLeast(len, LRH + BTH, "LRH + BTH");
            copy(arr, bb, off, hdr, 0, LRH + BTH);
            hdr[0] |= (byte) 0xF0;                 // LRH.VL
            hdr[LRH + BTH_RESV8A] = (byte) 0xFF;    // BTH.resv8a
            return LRH + BTH;
        }
        if (lnh == Lrh.LNH_IBA_GLOBAL) {
            checkAtLeast(len, LRH + GRH + BTH, "LRH + GRH + BTH");
            copy(arr, bb, off + LRH, hdr, LRH, GRH + BTH);
            maskGlobal(hdr);
            return LRH + GRH + BTH;
        }
        throw new IllegalArgumentException("LNH " + lnh + " is a raw packet, which carries no ICRC");
    }

    /** Masks pseudo LRH + GRH + BTH laid out from {@code hdr[0]}. */
    private static void maskGlobal(byte[] hdr) {
        for (int i = 0; i < LRH; i++) {
            hdr[i] = (byte) 0xFF;                  // whole LRH
        }
        hdr[LRH] |= (byte) 0x0F;                    // TClass, high nibble
        hdr[LRH + 1] = (byte) 0xFF;                 // TClass low nibble, flow label
        hdr[LRH + 2] = (byte) 0xFF;
        hdr[LRH + 3] = (byte) 0xFF;
        hdr[LRH + 7] = (byte) 0xFF;                 // hop limit
        hdr[LRH + GRH + BTH_RESV8A] = (byte) 0xFF;  // BTH.resv8a
    }

    private static int ipHeaderLength(byte first) {
        int version = (first >>> 4) & 0xF;
        if (version == 4) {
            int ihl = first & 0xF;
            if (ihl < 5) {
                throw new IllegalArgumentException("IPv4 IHL " + ihl + " is below the minimum of 5");
            }
            return ihl * 4;
        }
        if (version == 6) {
            return GRH;
        }
        throw new IllegalArgumentException("IP version " + version + " is neither 4 nor 6");
    }

    /** Masks pseudo LRH + IP + UDP + BTH laid out from {@code hdr[0]}. */
    private static void maskRoceV2(byte[] hdr, int ipLen) {
        for (int i = 0; i < LRH; i++) {
            hdr[i] = (byte) 0xFF;                  // pseudo LRH
        }
        int ip = LRH;
        if (ipLen == GRH && ((hdr[ip] >>> 4) & 0xF) == 6) {
            hdr[ip] |= (byte) 0x0F;                 // traffic class, high nibble
            hdr[ip + 1] = (byte) 0xFF;              // traffic class low nibble, flow label
            hdr[ip + 2] = (byte) 0xFF;
            hdr[ip + 3] = (byte) 0xFF;
            hdr[ip + 7] = (byte) 0xFF;              // hop limit
        } else {
            hdr[ip + 1] = (byte) 0xFF;              // TOS
            hdr[ip + 8] = (byte) 0xFF;              // TTL
            hdr[ip + 10] = (byte) 0xFF;             // header checksum
            hdr[ip + 11] = (byte) 0xFF;
        }
        int udp = ip + ipLen;
        hdr[udp + 6] = (byte) 0xFF;                 // UDP checksum
        hdr[udp + 7] = (byte) 0xFF;
        hdr[udp + UDP + BTH_RESV8A] = (byte) 0xFF;  // BTH.resv8a
    }

    private static void copy(byte[] arr, ByteBuffer bb, int from, byte[] dst, int at, int n) {
        if (arr != null) {
            System.arraycopy(arr, from, dst, at, n);
        } else {
            bb.get(from, dst, at, n);
        }
    }

    private static int finish(Scratch s, int hdrLen, byte[] arr, ByteBuffer bb, int off, int len, int consumed) {
        CRC32 crc = s.crc;
        crc.reset();
        crc.update(s.hdr, 0, hdrLen);
        int rest = len - consumed;
        if (rest > 0) {
            if (arr != null) {
                crc.update(arr, off + consumed, rest);
            } else {
                int position = bb.position();
                int limit = bb.limit();
                try {
                    bb.limit(off + len);
                    bb.position(off + consumed);
                    crc.update(bb);
                } finally {
                    bb.limit(limit);
                    bb.position(position);
                }
            }
        }
        return (int) crc.getValue();
    }

    private static void checkAtLeast(int len, int need, String what) {
        if (len < need) {
            throw new IllegalArgumentException("packet length " + len + " is shorter than the " + what
                    + " (" + need + " bytes)");
        }
    }
}
