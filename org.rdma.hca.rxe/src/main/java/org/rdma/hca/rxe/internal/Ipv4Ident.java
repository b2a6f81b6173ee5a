package org.rdma.hca.rxe.internal;

import java.util.zip.CRC32;

/**
 * Recovers the IPv4 Identification a RoCEv2 sender covered with its ICRC, which a
 * {@code DatagramChannel} cannot read (see {@link RxeWire}).
 *
 * <h2>Why it can be done</h2>
 * A CRC is affine: for two inputs of one length, {@code crc(a) ^ crc(b)} depends only on
 * {@code a ^ b}. The ICRC computed over the datagram with Identification 0 and the one the sender
 * computed over Identification {@code x} therefore differ by {@code D(x)}, a function of
 * {@code x} and of the number of bytes after the field only, linear in the 16 bits of {@code x}:
 * {@code D(x) = XOR of D(bit i) over the bits set in x}. {@code D} is one-to-one (a CRC-32
 * detects every burst of up to 32 bits), so the syndrome {@code received ^ computed} is either
 * {@code D} of exactly one Identification, or of none: then the datagram is corrupt.
 *
 * <h2>What it costs the check</h2>
 * Solving for 16 bits spends 16 of the ICRC's 32: a datagram corrupted elsewhere passes when
 * its syndrome happens to fall in the 2^16 image of {@code D}, once in 65536 instead of once in
 * 2^32. The driver uses it only where nothing else works: IPv4 datagrams of the UD transport
 * (multicast and UD from Linux and RoCE NICs), whose ICRC did not verify with Identification 0.
 *
 * <h2>Cost</h2>
 * The 16 basis values for a length take 17 CRC passes over zeros of that length; they are kept
 * for the last length seen (a stream of datagrams mostly repeats one), so solving is then 16
 * steps. One instance per receive thread: it keeps scratch state.
 */
final class Ipv4Ident {
    /** The Identification's offset in the IPv4 header. */
    static final int FIELD = 4;

    private final CRC32 crc = new CRC32();
    private final byte[] zeros = new byte[RxeWire.HEADROOM + RxeWire.MAX_DATAGRAM];
    /** The bytes after the field the basis is for; -1: none yet. */
    private int after = -1;
    /** Reduced basis: rows with distinct pivot bits, in insertion order, and the Identification bits each stands for. */
    private final int[] rows = new int[16];
    private final int[] pivots = new int[16];
    private final int[] idBits = new int[16];

    /**
     * The Identification that makes {@code computed} (the ICRC over Identification 0) into
     * {@code received}, for a datagram with {@code after} bytes after the field in the ICRC's
     * input; -1 if there is none (the datagram is corrupt).
     */
    int recover(int computed, int received, int after) {
        if (after < 0 || after + 2 > zeros.length) {
            return -1;
        }
        if (after != this.after) {
            basis(after);
        }
        int s = computed ^ received;
        int id = 0;
        for (int k = 0; k < 16; k++) {
            if ((s >>> pivots[k] & 1) != 0) {
                s ^= rows[k];
                id ^= idBits[k];
            }
        }
        return s == 0 ? id : -1;
    }

    /**
     * {@code D} of each Identification bit for {@code after} trailing bytes, reduced so that row
     * {@code k}'s pivot bit is clear in every later row.
     */
    private void basis(int after) {
        int zero = raw(0, after);
        for (int i = 0; i < 16; i++) {
            int v = raw(1 << i, after) ^ zero;
            int bits = 1 << i;
            for (int k = 0; k < i; k++) {
                if ((v >>> pivots[k] & 1) != 0) {
                    v ^= rows[k];
                    bits ^= idBits[k];
                }
            }
            // v != 0: D is one-to-one
            rows[i] = v;
            pivots[i] = 31 - Integer.numberOfLeadingZeros(v);
            idBits[i] = bits;
        }
        this.after = after;
    }

    /** The CRC of the field holding {@code id} followed by {@code after} zero bytes. */
    private int raw(int id, int after) {
        zeros[0] = (byte) (id >>> 8);
        zeros[1] = (byte) id;
        crc.reset();
        crc.update(zeros, 0, after + 2);
        zeros[0] = 0;
        zeros[1] = 0;
        return (int) crc.getValue();
    }
}
