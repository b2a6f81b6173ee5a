package org.rdma.iscsi.text;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Joins the data segments of a Login or Text sequence whose PDUs carry the C (continue) bit
 * (RFC 7143 11.10.2, 11.12.2): a pair may be split anywhere, even inside its key, so the text is
 * decoded only once the PDU without C arrives. The whole text is bounded so a peer cannot make
 * the target buffer without end.
 */
public final class TextAssembler {
    /** The default bound: 64 KiB, far above any login (Linux keeps one 8 KiB segment per PDU). */
    public static final int DEFAULT_MAX_TEXT = 64 * 1024;

    private final int maxText;
    private byte[] text = new byte[256];
    private int length;

    public TextAssembler() {
        this(DEFAULT_MAX_TEXT);
    }

    public TextAssembler(int maxText) {
        this.maxText = maxText;
    }

    /**
     * Adds one PDU's data segment (from its position to its limit; the position does not move).
     *
     * @param continues the PDU's C bit
     * @return the pairs once the sequence is complete ({@code continues} false), else null
     * @throws TextFormatException TOO_LONG beyond the bound, or what {@link TextCodec#decode} finds;
     *     the assembler is empty again afterwards
     */
    public List<TextPair> add(ByteBuffer segment, boolean continues) throws TextFormatException {
        int n = segment.remaining();
        if ((long) length + n > maxText) {
            reset();
            throw new TextFormatException(TextFormatException.Reason.TOO_LONG,
                    "a text sequence longer than " + maxText + " bytes");
        }
        if (length + n > text.length) {
            text = java.util.Arrays.copyOf(text, Math.min(maxText, Math.max(length + n, 2 * text.length)));
        }
        segment.get(segment.position(), text, length, n);
        length += n;
        if (continues) {
            return null;
        }
        try {
            return TextCodec.decode(ByteBuffer.wrap(text, 0, length));
        } finally {
            reset();
        }
    }

    /** Whether a sequence is under way (a PDU with C was added). */
    public boolean pending() {
        return length > 0;
    }

    /** Drops a partial sequence (e.g. when the login is reset). */
    public void reset() {
        length = 0;
    }

    /**
     * The next data segment of an outgoing text of at most {@code maxSegment} bytes (the peer's
     * MaxRecvDataSegmentLength), from {@code text}'s position, which moves past it. Whether C must
     * be set on its PDU is {@code text.hasRemaining()} afterwards.
     */
    public static ByteBuffer nextSegment(ByteBuffer text, int maxSegment) {
        int n = Math.min(text.remaining(), maxSegment);
        ByteBuffer seg = text.slice(text.position(), n);
        text.position(text.position() + n);
        return seg;
    }
}
