package org.rdma.iscsi.pdu;

import java.nio.ByteBuffer;

/**
 * A PDU copied out of a reader's buffers, for whoever keeps one past the next read (a queued
 * command, the header a Reject returns): the 48 header bytes, the AHS region and the data segment
 * without padding. The arrays are the record's own; callers must not change them.
 */
public record Pdu(byte[] header, byte[] ahs, byte[] data) {

    public Pdu {
        if (header.length != Bhs.BHS_LENGTH) {
            throw new IllegalArgumentException("EINVAL: a BHS is 48 bytes, not " + header.length);
        }
    }

    /** A header view over a copy of {@link #header()}. */
    public Bhs bhs() {
        return new Bhs(ByteBuffer.wrap(header.clone()), 0);
    }

    /** The opcode, or null when unknown. */
    public Opcode opcode() {
        return Opcode.valueOf(header[0] & 0x3f);
    }
}
