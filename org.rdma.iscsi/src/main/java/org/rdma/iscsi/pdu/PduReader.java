package org.rdma.iscsi.pdu;

import java.nio.ByteBuffer;

/**
 * An incremental PDU decoder for a stream transport (the receive half of Linux's
 * {@code iscsit_get_rx_pdu()} and {@code iscsi_tcp_recv_skb()}): give it whatever bytes arrived,
 * it takes at most one PDU's worth per call and says what it found. A PDU is read in three stages,
 * each of which {@link #needed()} measures: the 48-byte BHS, then the AHSs with the header digest,
 * then the data segment with its padding and data digest. Data segments above the negotiated
 * MaxRecvDataSegmentLength are never buffered. Bad input is a {@link ReadResult}, never an
 * exception.
 *
 * <p>The header, AHSs and data of a result stay valid until the next {@link #read}. The buffers
 * are reused, so a steady stream allocates nothing. One reader per connection, one thread at a time.
 */
public final class PduReader {
    /** The stages of one PDU. */
    public enum Stage {
        /** Reading the 48-byte basic header segment. */
        BHS,
        /** Reading the additional header segments and the header digest. */
        AHS,
        /** Reading the data segment, its padding and the data digest. */
        DATA,
        /** Skipping the rest of a PDU already reported as bad. */
        DISCARD,
        /** After a header digest error: the stream is lost. */
        FAILED
    }

    /** RFC 7143 13.12: MaxRecvDataSegmentLength's range and its default during login. */
    public static final int MIN_DATA_SEGMENT_LENGTH = 512;
    public static final int MAX_DATA_SEGMENT_LENGTH = 0xffffff;
    public static final int DEFAULT_DATA_SEGMENT_LENGTH = 8192;

    private final boolean target;
    private final Digest digest = new Digest();
    private final ByteBuffer header =
            ByteBuffer.allocate(Bhs.BHS_LENGTH + Ahs.MAX_TOTAL_LENGTH + Digest.DIGEST_LENGTH);
    private final Bhs bhs = new Bhs(header, 0);
    private final ByteBuffer ahsView = header.asReadOnlyBuffer();
    private ByteBuffer data = ByteBuffer.allocate(0);
    private ByteBuffer dataView = data.asReadOnlyBuffer();

    private int maxRecvDataSegmentLength = DEFAULT_DATA_SEGMENT_LENGTH;
    private boolean headerDigest;
    private boolean dataDigest;
    private boolean pduHeaderDigest;
    private boolean pduDataDigest;
    private Stage stage = Stage.BHS;
    private boolean startNext = true;
    private long discard;

    private PduReader(boolean target) {
        this.target = target;
    }

    /** A reader for a target: it accepts initiator opcodes only. */
    public static PduReader forTarget() {
        return new PduReader(true);
    }

    /** A reader for an initiator: it accepts target opcodes only. */
    public static PduReader forInitiator() {
        return new PduReader(false);
    }

    /**
     * The MaxRecvDataSegmentLength this side declared (RFC 7143 13.12); from the next PDU on.
     *
     * @throws IllegalArgumentException EINVAL outside 512..2^24-1
     */
    public void setMaxRecvDataSegmentLength(int length) {
        if (length < MIN_DATA_SEGMENT_LENGTH || length > MAX_DATA_SEGMENT_LENGTH) {
            throw new IllegalArgumentException("EINVAL: MaxRecvDataSegmentLength " + length
                    + " outside " + MIN_DATA_SEGMENT_LENGTH + ".." + MAX_DATA_SEGMENT_LENGTH);
        }
        maxRecvDataSegmentLength = length;
    }

    public int maxRecvDataSegmentLength() {
        return maxRecvDataSegmentLength;
    }

    /**
     * Whether PDUs carry CRC32C header and data digests (HeaderDigest, DataDigest, RFC 7143 13.1).
     * They start with the first PDU after the login's final response, so this applies from the next
     * PDU the reader starts, not to one it is inside.
     */
    public void setDigests(boolean header, boolean data) {
        headerDigest = header;
        dataDigest = data;
    }

    /** The stage of the PDU being read. */
    public Stage stage() {
        return startNext && stage != Stage.FAILED ? Stage.BHS : stage;
    }

    /** Bytes the current stage still needs before the reader can say more (skipped bytes included). */
    public long needed() {
        if (startNext && stage != Stage.FAILED) {
            return Bhs.BHS_LENGTH;
        }
        return switch (stage) {
            case BHS, AHS -> header.remaining();
            case DATA -> data.remaining();
            case DISCARD -> discard;
            case FAILED -> 0;
        };
    }

    /**
     * Consumes bytes of {@code src} up to the end of one PDU and reports it, or {@link
     * ReadResult#NEED_MORE} once {@code src} is empty. Call again while {@code src} has bytes.
     */
    public ReadResult read(ByteBuffer src) {
        if (stage == Stage.FAILED) {
            return ReadResult.HEADER_DIGEST_ERROR;
        }
        if (startNext) {
            startPdu();
        }
        while (true) {
            switch (stage) {
                case BHS -> {
                    if (!fill(src, header)) {
                        return ReadResult.NEED_MORE;
                    }
                    pduHeaderDigest = headerDigest;
                    pduDataDigest = dataDigest;
                    header.limit(Bhs.BHS_LENGTH + bhs.totalAhsLength() * 4
                            + (pduHeaderDigest ? Digest.DIGEST_LENGTH : 0));
                    stage = Stage.AHS;
                }
                case AHS -> {
                    if (!fill(src, header)) {
                        return ReadResult.NEED_MORE;
                    }
                    ReadResult verdict = checkHeader();
                    if (verdict != null) {
                        return verdict;
                    }
                }
                case DATA -> {
                    if (!fill(src, data)) {
                        return ReadResult.NEED_MORE;
                    }
                    return checkData();
                }
                case DISCARD -> {
                    int n = (int) Math.min(src.remaining(), discard);
                    src.position(src.position() + n);
                    discard -= n;
                    if (discard > 0) {
                        return ReadResult.NEED_MORE;
                    }
                    startPdu();
                }
                case FAILED -> {
                    return ReadResult.HEADER_DIGEST_ERROR;
                }
            }
        }
    }

    /**
     * The peer closed the stream: {@link ReadResult#END_OF_STREAM} between PDUs (or while skipping
     * nothing more), {@link ReadResult#TRUNCATED} inside one, or the header digest error already found.
     */
    public ReadResult endOfStream() {
        if (stage == Stage.FAILED) {
            return ReadResult.HEADER_DIGEST_ERROR;
        }
        if (startNext || stage == Stage.BHS && header.position() == 0) {
            return ReadResult.END_OF_STREAM;
        }
        return ReadResult.TRUNCATED;
    }

    /** The header of the last result other than NEED_MORE. */
    public Bhs bhs() {
        return bhs;
    }

    /** The AHS region of the last PDU: a read-only view from its position to its limit, empty when none. */
    public ByteBuffer ahs() {
        int from = Bhs.BHS_LENGTH;
        ahsView.limit(from + bhs.totalAhsLength() * 4).position(from);
        return ahsView;
    }

    /** The data segment of the last {@link ReadResult#PDU}, without padding: a read-only view. */
    public ByteBuffer data() {
        return dataView;
    }

    /** A copy of the last PDU that outlives the next {@link #read}. */
    public Pdu copyPdu() {
        byte[] h = bhs.toBytes();
        ByteBuffer a = ahs();
        byte[] ahsBytes = new byte[a.remaining()];
        a.get(a.position(), ahsBytes);
        byte[] d = new byte[dataView.remaining()];
        dataView.get(dataView.position(), d);
        return new Pdu(h, ahsBytes, d);
    }

    // ---------------------------------------------------------------- stages

    private void startPdu() {
        startNext = false;
        stage = Stage.BHS;
        header.clear().limit(Bhs.BHS_LENGTH);
        dataView.limit(0);
    }

    private static boolean fill(ByteBuffer src, ByteBuffer dst) {
        int n = Math.min(src.remaining(), dst.remaining());
        dst.put(dst.position(), src, src.position(), n);
        dst.position(dst.position() + n);
        src.position(src.position() + n);
        return !dst.hasRemaining();
    }

    /** The verdict on a whole header, or null when the data segment follows. */
    private ReadResult checkHeader() {
        int ahsEnd = Bhs.BHS_LENGTH + bhs.totalAhsLength() * 4;
        if (pduHeaderDigest && digest.crc32c(header, 0, ahsEnd) != Digest.get(header, ahsEnd)) {
            stage = Stage.FAILED;
            return ReadResult.HEADER_DIGEST_ERROR;
        }
        int dsl = bhs.dataSegmentLength();
        long segment = dsl == 0 ? 0 : Digest.padded(dsl) + (pduDataDigest ? Digest.DIGEST_LENGTH : 0);
        Opcode op = bhs.opcode();
        ReadResult bad = null;
        if (op == null || op.initiator() != target) {
            bad = ReadResult.UNKNOWN_OPCODE;
        } else if (dsl > maxRecvDataSegmentLength) {
            bad = ReadResult.OVERSIZE;
        } else if (dsl > 0 && !op.dataAllowed() || !Ahs.wellFormed(header, Bhs.BHS_LENGTH, ahsEnd)) {
            bad = ReadResult.INVALID_FIELD;
        }
        if (bad != null) {
            discard = segment;
            stage = Stage.DISCARD;
            if (discard == 0) {
                startNext = true;
            }
            return bad;
        }
        if (segment == 0) {
            startNext = true;
            return ReadResult.PDU;
        }
        if (data.capacity() < segment) {
            data = ByteBuffer.allocate((int) Math.max(segment, Math.min(2L * data.capacity(),
                    Digest.padded(maxRecvDataSegmentLength) + Digest.DIGEST_LENGTH)));
            dataView = data.asReadOnlyBuffer().limit(0);
        }
        data.clear().limit((int) segment);
        stage = Stage.DATA;
        return null;
    }

    private ReadResult checkData() {
        startNext = true;
        int dsl = bhs.dataSegmentLength();
        int padded = Digest.padded(dsl);
        if (pduDataDigest && digest.crc32c(data, 0, padded) != Digest.get(data, padded)) {
            return ReadResult.DATA_DIGEST_ERROR;
        }
        dataView.limit(dsl).position(0);
        return ReadResult.PDU;
    }
}
