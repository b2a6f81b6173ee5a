package org.rdma.verbs.wire;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The Variant CRC of native InfiniBand packets (IBTA vol. 1, 7.8.2): a 16-bit CRC recomputed on
 * every link, covering the packet from the first byte of the LRH through the last byte of the ICRC
 * (or of the payload for raw packets, which have no ICRC). RoCE packets have no VCRC; the Ethernet
 * FCS takes its place.
 *
 * <p>There is no kernel counterpart (HCAs compute the VCRC in hardware). Parameters, in the
 * Rocksoft/"CRC RevEng" notation:
 * <pre>
 *   width=16  poly=0x100b (x^16 + x^12 + x^3 + x + 1)  init=0xffff
 *   refin=true  refout=true  xorout=0xffff  check("123456789")=0x0a3d
 * </pre>
 * i.e. the same convention as the ICRC and the Ethernet FCS (bits enter least significant first,
 * the register starts at all ones and the result is complemented), computed here with a 256-entry
 * table of the reflected polynomial 0xD008. The value is transmitted least significant byte
 * first ({@link #put(int, byte[], int)}), again like the ICRC.
 *
 * <p>Evidence for this convention: the VCRC routines of Mellanox's packet generator (MPGA,
 * OpenIB gen1 tree, 2004: "Polynomial 0x100B seed 0xFFFF", reflected table, result XOR 0xFFFF,
 * appended with {@code cpu_to_le16}) and of Endace's DAG capture library ({@code dagcrc.c}:
 * reflected polynomial 0xd008, register preset and result complemented).
 */
public final class Vcrc {

    /** Size of the VCRC on the wire. */
    public static final int VCRC_BYTES = 2;

    /** The generator polynomial, normal (MSB-first) representation without the x^16 term. */
    public static final int POLYNOMIAL = 0x100B;

    private static final int REFLECTED_POLYNOMIAL = 0xD008;
    private static final char[] TABLE = new char[256];

    static {
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ REFLECTED_POLYNOMIAL : c >>> 1;
            }
            TABLE[n] = (char) c;
        }
    }

    private Vcrc() {
    }

    /**
     * Computes the VCRC.
     *
     * @param pkt packet bytes
     * @param off offset of the first LRH byte
     * @param len length from the first LRH byte through the last ICRC byte
     *            ({@code LRH.PktLen * 4} for a well-formed packet)
     * @return the 16-bit VCRC value
     */
    public static int compute(byte[] pkt, int off, int len) {
        Objects.checkFromIndexSize(off, len, pkt.length);
        int c = 0xFFFF;
        for (int i = off, end = off + len; i < end; i++) {
            c = (c >>> 8) ^ TABLE[(c ^ pkt[i]) & 0xFF];
        }
        return c ^ 0xFFFF;
    }

    /**
     * {@link ByteBuffer} variant of {@link #compute(byte[], int, int)} (absolute indexing; position
     * and limit are not used or changed).
     *
     * @param pkt packet buffer
     * @param index absolute index of the first LRH byte
     * @param len length through the last ICRC byte
     * @return the 16-bit VCRC value
     */
    public static int compute(ByteBuffer pkt, int index, int len) {
        Objects.checkFromIndexSize(index, len, pkt.limit());
        int c = 0xFFFF;
        for (int i = index, end = index + len; i < end; i++) {
            c = (c >>> 8) ^ TABLE[(c ^ pkt.get(i)) & 0xFF];
        }
        return c ^ 0xFFFF;
    }

    /**
     * Computes the VCRC and writes it after the covered bytes.
     *
     * @param pkt packet bytes with room for the VCRC
     * @param off offset of the first LRH byte
     * @param len length through the last ICRC byte
     * @return {@code len + 2}, the full packet length
     */
    public static int append(byte[] pkt, int off, int len) {
        put(compute(pkt, off, len), pkt, off + len);
        return len + VCRC_BYTES;
    }

    /**
     * Checks the VCRC of a packet.
     *
     * @param pkt packet bytes
     * @param off offset of the first LRH byte
     * @param lenWithVcrc full packet length including the VCRC
     * @return whether the transmitted VCRC matches
     */
    public static boolean verify(byte[] pkt, int off, int lenWithVcrc) {
        int len = lenWithVcrc - VCRC_BYTES;
        return compute(pkt, off, len) == get(pkt, off + len);
    }

    /**
     * Writes a VCRC value in wire order, least significant byte first.
     *
     * @param vcrc the 16-bit value
     * @param buf destination
     * @param pos offset of the first VCRC byte
     */
    public static void put(int vcrc, byte[] buf, int pos) {
        Objects.checkFromIndexSize(pos, VCRC_BYTES, buf.length);
        buf[pos] = (byte) vcrc;
        buf[pos + 1] = (byte) (vcrc >>> 8);
    }

    /**
     * Reads a VCRC value transmitted least significant byte first.
     *
     * @param buf source
     * @param pos offset of the first VCRC byte
     * @return the 16-bit value
     */
    public static int get(byte[] buf, int pos) {
        Objects.checkFromIndexSize(pos, VCRC_BYTES, buf.length);
        return (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
    }
}
