package org.rdma.cm.internal.rdma;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.rdma.cm.rdma.RdmaCm;

/**
 * The IP CM private-data header ({@code struct cma_hdr}, IBTA annex A11) the RDMA CM puts in front
 * of the consumer's private data of a REQ or SIDR_REQ, big-endian:
 *
 * <pre>
 *  byte 0      CM version ({@link RdmaCm#CMA_VERSION})
 *  byte 1      IP version in bits 7..4 (4 or 6), bits 3..0 reserved
 *  bytes 2-3   source port
 *  bytes 4-19  source IP address (IPv4: the last 4 bytes, 12 zero bytes before)
 *  bytes 20-35 destination IP address
 * </pre>
 *
 * @param ipVersion 4 or 6
 * @param srcPort   the requester's port
 * @param src       the requester's address
 * @param dst       the address it targets
 */
record CmaHdr(int ipVersion, int srcPort, InetAddress src, InetAddress dst) {

    /** {@code cma_format_hdr()}: the header of a connection from {@code src} to {@code dst}. */
    static CmaHdr of(InetSocketAddress src, InetSocketAddress dst) {
        int v = src.getAddress() instanceof Inet4Address ? 4 : 6;
        return new CmaHdr(v, src.getPort(), src.getAddress(), dst.getAddress());
    }

    /** Writes the 36 bytes to {@code b[off..]}. */
    void encode(byte[] b, int off) {
        java.util.Arrays.fill(b, off, off + RdmaCm.CMA_HDR_SIZE, (byte) 0);
        b[off] = (byte) RdmaCm.CMA_VERSION;
        b[off + 1] = (byte) (ipVersion << 4);
        b[off + 2] = (byte) (srcPort >>> 8);
        b[off + 3] = (byte) srcPort;
        putAddr(b, off + 4, src);
        putAddr(b, off + 20, dst);
    }

    private static void putAddr(byte[] b, int off, InetAddress a) {
        byte[] raw = a.getAddress();
        System.arraycopy(raw, 0, b, off + 16 - raw.length, raw.length);
    }

    /**
     * {@code cma_save_ip_info()}'s parsing: the header at {@code b[off..]}, or {@code null} when the
     * version byte is not {@link RdmaCm#CMA_VERSION} or the IP version is neither 4 nor 6 (the
     * request is then taken as {@code AF_IB}).
     */
    static CmaHdr decode(byte[] b, int off) {
        if (b == null || b.length < off + RdmaCm.CMA_HDR_SIZE || (b[off] & 0xFF) != RdmaCm.CMA_VERSION) {
            return null;
        }
        int v = (b[off + 1] & 0xFF) >>> 4;
        if (v != 4 && v != 6) {
            return null;
        }
        int port = (b[off + 2] & 0xFF) << 8 | (b[off + 3] & 0xFF);
        return new CmaHdr(v, port, getAddr(b, off + 4, v), getAddr(b, off + 20, v));
    }

    private static InetAddress getAddr(byte[] b, int off, int v) {
        byte[] raw = new byte[v == 4 ? 4 : 16];
        System.arraycopy(b, off + 16 - raw.length, raw, 0, raw.length);
        return CmaAddr.inet(raw);
    }
}
