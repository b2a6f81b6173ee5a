package org.rdma.iscsi.pdu;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The iSCSI header and data digest CRC32C (RFC 7143 13.1, the Castagnoli polynomial of RFC 3720
 * appendix B.4) and the 4-byte padding of segments (11.2.3). The digest goes on the wire least
 * significant byte first, as Linux's crc32c crypto transform leaves it ({@code iscsi_tcp}): the
 * 32 zero bytes of B.4 give {@code aa 36 91 8a}. One instance per connection direction; not
 * thread-safe, and it allocates nothing per call.
 */
public final class Digest {
    /** The length of a digest on the wire. */
    public static final int DIGEST_LENGTH = 4;

    private static final byte[] ZEROS = new byte[3];

    private final CRC32C crc = new CRC32C();

    /** The CRC32C of {@code buf[from, to)}; the buffer's position and limit are left as they were. */
    public int crc32c(ByteBuffer buf, int from, int to) {
        crc.reset();
        update(buf, from, to);
        return value();
    }

    /** Starts a CRC over several pieces. */
    public void reset() {
        crc.reset();
    }

    /** Adds {@code buf[from, to)}, leaving the buffer's position and limit as they were. */
    public void update(ByteBuffer buf, int from, int to) {
        int pos = buf.position();
        int lim = buf.limit();
        try {
            buf.limit(to).position(from);
            crc.update(buf);
        } finally {
            buf.limit(lim).position(pos);
        }
    }

    /** Adds the padding after {@code length} bytes (zeros). */
    public void updatePadding(int length) {
        crc.update(ZEROS, 0, padding(length));
    }

    /** The CRC of what was added since {@link #reset}. */
    public int value() {
        return (int) crc.getValue();
    }

    /** Writes {@code value} at {@code index} in wire order (least significant byte first). */
    public static void put(ByteBuffer buf, int index, int value) {
        buf.put(index, (byte) value);
        buf.put(index + 1, (byte) (value >>> 8));
        buf.put(index + 2, (byte) (value >>> 16));
        buf.put(index + 3, (byte) (value >>> 24));
    }

    /** Reads a digest at {@code index} in wire order. */
    public static int get(ByteBuffer buf, int index) {
        return buf.get(index) & 0xff | (buf.get(index + 1) & 0xff) << 8
                | (buf.get(index + 2) & 0xff) << 16 | (buf.get(index + 3) & 0xff) << 24;
    }

    /** The padding after {@code length} bytes to the next multiple of 4 (11.2.3). */
    public static int padding(int length) {
        return -length & 3;
    }

    /** {@code length} rounded up to a multiple of 4. */
    public static int padded(int length) {
        return length + padding(length);
    }
}
