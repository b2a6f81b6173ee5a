package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import org.rdma.iscsi.pdu.Bhs;

/**
 * A PDU the engine hands to its transport, complete but for digests and padding: the 48-byte
 * basic header (no AHS: no target PDU carries one) and the data segment, or null. The data may be
 * a slice of a command's buffer; the transport sends it as it is when the PDU leaves, so nothing
 * may write to it meanwhile (the target core allocates one buffer per command, never reused).
 */
public record TxPdu(ByteBuffer header, ByteBuffer data) {
    public TxPdu {
        if (header.remaining() != Bhs.BHS_LENGTH) {
            throw new IllegalArgumentException("EINVAL: a target PDU header is 48 bytes, not " + header.remaining());
        }
    }

    /** The header as a flyweight. */
    public Bhs bhs() {
        return new Bhs(header, header.position());
    }

    /** The data segment's length. */
    public int dataLength() {
        return data == null ? 0 : data.remaining();
    }
}
