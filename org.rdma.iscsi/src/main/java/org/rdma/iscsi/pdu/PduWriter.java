package org.rdma.iscsi.pdu;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/**
 * Encodes PDUs into a caller's buffer without allocating (the transmit half of Linux's
 * {@code iscsit_send_*()} and {@code iscsi_tcp} header preparation): {@link #begin} zeroes 48
 * header bytes at the buffer's position and returns the header to fill, AHSs are appended with
 * {@link #extendedCdb} and {@link #bidiReadLength}, and {@link #finish} sets TotalAHSLength and
 * DataSegmentLength, appends the header digest, the data, its padding and the data digest, and
 * leaves the buffer's position after the PDU. For a gathering write, {@link #finishHeader} writes
 * the header alone and {@link #trailer} the padding and digest after data sent from its own
 * buffer. One writer per connection, one thread at a time.
 */
public final class PduWriter {
    private final Digest digest = new Digest();
    private final Bhs bhs = new Bhs();
    private ByteBuffer out;
    private int start;
    private boolean headerDigest;
    private boolean dataDigest;

    /**
     * Whether PDUs carry CRC32C header and data digests (RFC 7143 13.1), from the next
     * {@link #begin} on.
     */
    public void setDigests(boolean header, boolean data) {
        headerDigest = header;
        dataDigest = data;
    }

    /** The bytes a PDU with these lengths takes on the wire with the current digests. */
    public int wireLength(int ahsLength, int dataSegmentLength) {
        int n = Bhs.BHS_LENGTH + ahsLength + (headerDigest ? Digest.DIGEST_LENGTH : 0);
        if (dataSegmentLength > 0) {
            n += Digest.padded(dataSegmentLength) + (dataDigest ? Digest.DIGEST_LENGTH : 0);
        }
        return n;
    }

    /**
     * Starts a PDU at {@code out}'s position: 48 zero bytes with the opcode, and the F and I bits
     * the opcode's figure fixes at 1.
     *
     * @throws BufferOverflowException when fewer than 48 bytes remain
     */
    public Bhs begin(ByteBuffer out, Opcode op) {
        if (out.remaining() < Bhs.BHS_LENGTH) {
            throw new BufferOverflowException();
        }
        this.out = out;
        this.start = out.position();
        bhs.wrap(out, start).clear().opcode(op);
        if (op.finalAlways()) {
            bhs.finalBit(true);
        }
        if (op.immediateAlways()) {
            bhs.immediate(true);
        }
        out.position(start + Bhs.BHS_LENGTH);
        return bhs;
    }

    /** Appends the extended CDB AHS for a CDB longer than 16 bytes and puts its first 16 in the BHS. */
    public PduWriter extendedCdb(byte[] cdb, int len) {
        bhs.cdb(cdb, 0, len);
        Ahs.putExtendedCdb(out, cdb, len);
        return this;
    }

    /** Appends the bidirectional expected read-data length AHS. */
    public PduWriter bidiReadLength(int expectedReadLength) {
        Ahs.putBidiReadLength(out, expectedReadLength);
        return this;
    }

    /**
     * Ends the PDU with {@code data}'s remaining bytes (null: none) as its data segment; the data
     * buffer's position does not move.
     *
     * @throws BufferOverflowException when the PDU does not fit; the output position is then undefined
     */
    public void finish(ByteBuffer data) {
        int dsl = data == null ? 0 : data.remaining();
        finishHeader(dsl);
        if (dsl > 0) {
            if (out.remaining() < dsl) {
                throw new BufferOverflowException();
            }
            out.put(out.position(), data, data.position(), dsl);
            out.position(out.position() + dsl);
            trailer(data, out);
        }
    }

    /**
     * Ends the header of a PDU whose {@code dataSegmentLength} bytes the caller sends from its own
     * buffer, followed by {@link #trailer}.
     */
    public void finishHeader(int dataSegmentLength) {
        int ahsEnd = out.position();
        bhs.totalAhsLength((ahsEnd - start - Bhs.BHS_LENGTH) / 4).dataSegmentLength(dataSegmentLength);
        if (headerDigest) {
            if (out.remaining() < Digest.DIGEST_LENGTH) {
                throw new BufferOverflowException();
            }
            Digest.put(out, ahsEnd, digest.crc32c(out, start, ahsEnd));
            out.position(ahsEnd + Digest.DIGEST_LENGTH);
        }
    }

    /** Writes to {@code out} the padding and data digest that follow {@code data}'s remaining bytes. */
    public void trailer(ByteBuffer data, ByteBuffer out) {
        int dsl = data.remaining();
        int pad = Digest.padding(dsl);
        if (out.remaining() < pad + (dataDigest ? Digest.DIGEST_LENGTH : 0)) {
            throw new BufferOverflowException();
        }
        Ahs.pad(out, dsl);
        if (dataDigest) {
            digest.reset();
            digest.update(data, data.position(), data.limit());
            digest.updatePadding(dsl);
            Digest.put(out, out.position(), digest.value());
            out.position(out.position() + Digest.DIGEST_LENGTH);
        }
    }
}
