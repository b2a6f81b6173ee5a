package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Digest;

/**
 * Lays {@link TxPdu}s out on a byte stream (RFC 7143 11.2: header, header digest, data segment,
 * padding, data digest) into an output buffer of any size, a piece at a time: a stream transport
 * fills its socket buffer with it and goes on where it stopped. The data digest is computed as
 * the data is copied. One encoder per connection, one thread at a time.
 */
public final class PduEncoder {
    private final Digest digest = new Digest();
    private final ByteBuffer head = ByteBuffer.allocate(Bhs.BHS_LENGTH + Digest.DIGEST_LENGTH);
    private final ByteBuffer trailer = ByteBuffer.allocate(3 + Digest.DIGEST_LENGTH);
    private ByteBuffer data;
    private int dataLength;
    private boolean dataDigest;
    private boolean busy;

    /** Starts a PDU with the digests in force when it was queued. */
    public void start(TxPdu pdu, boolean headerDigest, boolean dataDigest) {
        head.clear();
        head.put(pdu.header().duplicate());
        if (headerDigest) {
            Digest.put(head, Bhs.BHS_LENGTH, digest.crc32c(head, 0, Bhs.BHS_LENGTH));
            head.position(Bhs.BHS_LENGTH + Digest.DIGEST_LENGTH);
        }
        head.flip();
        data = pdu.dataLength() == 0 ? null : pdu.data().duplicate();
        dataLength = pdu.dataLength();
        this.dataDigest = dataDigest;
        digest.reset();
        trailer.clear().limit(0);
        busy = true;
    }

    /** Whether a started PDU is not yet all in an output buffer. */
    public boolean busy() {
        return busy;
    }

    /** Copies what fits of the PDU into {@code out}; true once all of it is there. */
    public boolean encode(ByteBuffer out) {
        if (head.hasRemaining() && !copy(head, out)) {
            return false;
        }
        if (data != null) {
            int n = Math.min(data.remaining(), out.remaining());
            if (dataDigest) {
                digest.update(data, data.position(), data.position() + n);
            }
            out.put(out.position(), data, data.position(), n);
            out.position(out.position() + n);
            data.position(data.position() + n);
            if (data.hasRemaining()) {
                return false;
            }
            data = null;
            trailer.clear();
            for (int i = Digest.padding(dataLength); i > 0; i--) {
                trailer.put((byte) 0);
            }
            if (dataDigest) {
                digest.updatePadding(dataLength);
                Digest.put(trailer, trailer.position(), digest.value());
                trailer.position(trailer.position() + Digest.DIGEST_LENGTH);
            }
            trailer.flip();
        }
        if (!copy(trailer, out)) {
            return false;
        }
        busy = false;
        return true;
    }

    private static boolean copy(ByteBuffer from, ByteBuffer out) {
        int n = Math.min(from.remaining(), out.remaining());
        out.put(out.position(), from, from.position(), n);
        out.position(out.position() + n);
        from.position(from.position() + n);
        return !from.hasRemaining();
    }
}
