package org.rdma.fabric.ibsim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * One MAD on the ibsim data sockets, {@code struct sim_request} of ibsim's
 * {@code include/ibsim.h}: what umad2sim's {@code umad2sim_write()} sends for a MAD a client
 * posts, and what ibsim's {@code sim_read_pkt()} hands to the destination client (or back to the
 * sender, with a non-zero status, when the MAD could not be delivered).
 *
 * <h2>Layout (288 bytes, the C structure on a little-endian 64-bit host)</h2>
 * <pre>
 *   0  u32 dlid    destination LID: the 16-bit LID in network order in bytes 0-1, bytes 2-3 zero
 *   4  u32 slid    source LID, the same way; 0 asks ibsim to fill in the sender port's LID
 *   8  u32 dqp     destination QP, network order
 *  12  u32 sqp     source QP, network order
 *  16  u32 status  0, or the errno (network order) of an undeliverable MAD, 110 (ETIMEDOUT)
 *  20  ---         4 bytes of padding (alignment of the u64)
 *  24  u64 length  MAD length in bytes, network order
 *  32  u8  mad[256]
 * </pre>
 * The LID fields are odd because both ends store a {@code __be16} into a {@code uint32_t} and read
 * it back with {@code ntohs()}: on a little-endian host the LID's two wire-order bytes land at the
 * start of the field. The rest is written with {@code htonl()}/{@code htobe64()}. ibsim swaps the
 * whole LID and QP fields when it answers a MAD itself, which this encoding survives.
 */
public final class SimRequest {
    /** {@code sizeof(struct sim_request)}. */
    public static final int BYTES = 288;
    /** Size of {@link #mad}. */
    public static final int MAD_BYTES = 256;
    /** The status ibsim sets on a MAD it could not route or deliver ({@code ETIMEDOUT}). */
    public static final int STATUS_TIMEOUT = 110;
    private static final int OFF_STATUS = 16;
    private static final int OFF_LENGTH = 24;
    private static final int OFF_MAD = 32;

    /** {@code dlid}. */
    public int dlid;
    /** {@code slid}. */
    public int slid;
    /** {@code dqp}. */
    public int dqp;
    /** {@code sqp}. */
    public int sqp;
    /** {@code status}. */
    public int status;
    /** {@code length}. */
    public long length;
    /** {@code mad[256]}. */
    public final byte[] mad = new byte[MAD_BYTES];

    /** An all-zero request. */
    public SimRequest() {
    }

    /**
     * A request as {@code umad2sim_write()} fills it: addresses, status 0, the MAD and its length.
     *
     * @param dlid destination LID
     * @param slid source LID (0: ibsim fills in the sender's)
     * @param dqp  destination QP
     * @param sqp  source QP
     * @param mad  the MAD, at most 256 bytes
     * @return the request
     */
    public static SimRequest of(int dlid, int slid, int dqp, int sqp, byte[] mad) {
        if (mad.length > MAD_BYTES) {
            throw new IllegalArgumentException("EINVAL: a sim_request carries at most " + MAD_BYTES + " MAD bytes, not "
                    + mad.length);
        }
        SimRequest r = new SimRequest();
        r.dlid = dlid;
        r.slid = slid;
        r.dqp = dqp;
        r.sqp = sqp;
        r.length = mad.length;
        System.arraycopy(mad, 0, r.mad, 0, mad.length);
        return r;
    }

    /**
     * Writes the 288-byte frame.
     *
     * @param buf destination
     * @param off first byte
     * @return {@link #BYTES}
     */
    public int pack(byte[] buf, int off) {
        Objects.checkFromIndexSize(off, BYTES, buf.length);
        Arrays.fill(buf, off, off + BYTES, (byte) 0);
        ByteBuffer b = ByteBuffer.wrap(buf, off, BYTES).order(ByteOrder.BIG_ENDIAN).slice();
        b.putShort(0, (short) dlid);
        b.putShort(4, (short) slid);
        b.putInt(8, dqp);
        b.putInt(12, sqp);
        b.putInt(OFF_STATUS, status);
        b.putLong(OFF_LENGTH, length);
        b.put(OFF_MAD, mad);
        return BYTES;
    }

    /** @return the 288 bytes of this frame */
    public byte[] pack() {
        byte[] b = new byte[BYTES];
        pack(b, 0);
        return b;
    }

    /**
     * Reads a received frame. Like ibsim's {@code process_packet()}, anything but exactly
     * {@link #BYTES} bytes is refused.
     *
     * @param buf source
     * @param off first byte
     * @param len number of bytes received
     * @return the frame
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if {@code len} is not {@link #BYTES}
     */
    public static SimRequest unpack(byte[] buf, int off, int len) {
        if (len != BYTES) {
            throw new IllegalArgumentException("EINVAL: a sim_request frame is " + BYTES + " bytes, got " + len);
        }
        Objects.checkFromIndexSize(off, len, buf.length);
        ByteBuffer b = ByteBuffer.wrap(buf, off, BYTES).order(ByteOrder.BIG_ENDIAN).slice();
        SimRequest r = new SimRequest();
        r.dlid = b.getShort(0) & 0xFFFF;
        r.slid = b.getShort(4) & 0xFFFF;
        r.dqp = b.getInt(8);
        r.sqp = b.getInt(12);
        r.status = b.getInt(OFF_STATUS);
        r.length = b.getLong(OFF_LENGTH);
        b.get(OFF_MAD, r.mad);
        return r;
    }

    /** @return the MAD's management class (byte 1, libibmad's {@code IB_MAD_MGMTCLASS_F}) */
    public int mgmtClass() {
        return mad[1] & 0xFF;
    }

    /** @return the MAD's method (byte 3 with the response bit, {@code IB_MAD_METHOD_F}) */
    public int method() {
        return mad[3] & 0xFF;
    }

    /** @return whether the MAD is a response (method bit 7, {@code IB_MAD_RESPONSE_F}) */
    public boolean isResponse() {
        return (mad[3] & 0x80) != 0;
    }

    /** @return the MAD's TransactionID (bytes 8-15, {@code IB_MAD_TRID_F}) */
    public long tid() {
        return ByteBuffer.wrap(mad).getLong(8);
    }

    /** @param tid the TransactionID to store in bytes 8-15 of the MAD ({@code mad_set_field64(IB_MAD_TRID_F)}) */
    public void setTid(long tid) {
        ByteBuffer.wrap(mad).putLong(8, tid);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimRequest r && dlid == r.dlid && slid == r.slid && dqp == r.dqp && sqp == r.sqp
                && status == r.status && length == r.length && Arrays.equals(mad, r.mad);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dlid, slid, dqp, sqp, status, length, Arrays.hashCode(mad));
    }

    @Override
    public String toString() {
        return String.format("sim_request{dlid=%d, slid=%d, dqp=%d, sqp=%d, status=%d, length=%d, class=0x%02x, "
                + "method=0x%02x, tid=0x%016x}", dlid, slid, dqp, sqp, status, length, mgmtClass(), method(), tid());
    }
}
