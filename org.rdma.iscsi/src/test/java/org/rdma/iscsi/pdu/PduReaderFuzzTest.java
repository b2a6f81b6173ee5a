package org.rdma.iscsi.pdu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The PDU reader on whatever a peer may send: byte 0 chooses the digests, the side and
 * MaxRecvDataSegmentLength, byte 1 the size of the pieces the stream arrives in, the rest is the
 * stream. No exception escapes; the results do not depend on how the stream is cut; every PDU it
 * hands out is as long as its header says and the writer encodes it back to the bytes it came
 * from; a header digest error is the last thing read.
 */
class PduReaderFuzzTest {
    static final int[] LIMITS = {512, 8192, 65536, 262144};

    @FuzzTest
    void readAnyStream(byte[] input) {
        if (input.length < 2) {
            return;
        }
        int cfg = input[0] & 0xff;
        int chunk = 1 + (input[1] & 0xff);
        byte[] stream = Arrays.copyOfRange(input, 2, input.length);
        List<String> whole = run(cfg, ByteBuffer.wrap(stream), stream.length, stream);
        List<String> pieces = run(cfg, ByteBuffer.wrap(stream), chunk, stream);
        assertEquals(whole, pieces, "the results depend on how the stream is cut into pieces of " + chunk);
    }

    private static PduReader reader(int cfg) {
        PduReader r = (cfg & 4) != 0 ? PduReader.forInitiator() : PduReader.forTarget();
        r.setDigests((cfg & 1) != 0, (cfg & 2) != 0);
        r.setMaxRecvDataSegmentLength(LIMITS[cfg >>> 3 & 3]);
        return r;
    }

    /** The results (with the PDUs' headers) of reading {@code src} in pieces of {@code chunk} bytes. */
    private static List<String> run(int cfg, ByteBuffer src, int chunk, byte[] stream) {
        PduReader r = reader(cfg);
        List<String> results = new ArrayList<>();
        ReadResult last = null;
        while (src.hasRemaining()) {
            int end = Math.min(src.limit(), src.position() + chunk);
            ByteBuffer piece = src.duplicate().limit(end);
            do {
                ReadResult res = r.read(piece);
                assertTrue(last != ReadResult.HEADER_DIGEST_ERROR || res == ReadResult.HEADER_DIGEST_ERROR,
                        "a result after a header digest error");
                if (res != ReadResult.NEED_MORE) {
                    results.add(res + " " + HexFormat.of().formatHex(r.bhs().toBytes()));
                    if (res == ReadResult.PDU) {
                        checkRoundTrip(cfg, r, stream, piece.position());
                    }
                }
                last = res;
            } while (piece.hasRemaining() && last != ReadResult.HEADER_DIGEST_ERROR);
            src.position(last == ReadResult.HEADER_DIGEST_ERROR ? src.limit() : end);
        }
        results.add(r.endOfStream().toString());
        return results;
    }

    /** The PDU just read ends at {@code end} of the stream: encoding it again gives its bytes. */
    private static void checkRoundTrip(int cfg, PduReader r, byte[] stream, int end) {
        Bhs h = r.bhs();
        PduWriter w = new PduWriter();
        w.setDigests((cfg & 1) != 0, (cfg & 2) != 0);
        ByteBuffer ahs = r.ahs();
        ByteBuffer data = r.data();
        assertEquals(h.dataSegmentLength(), data.remaining());
        int length = w.wireLength(ahs.remaining(), data.remaining());
        byte[] wire = Arrays.copyOfRange(stream, end - length, end);
        ByteBuffer out = ByteBuffer.allocate(length);
        w.begin(out, h.opcode());
        out.put(0, h.toBytes());
        out.put(Bhs.BHS_LENGTH, ahs, ahs.position(), ahs.remaining()).position(Bhs.BHS_LENGTH + ahs.remaining());
        w.finish(data);
        byte[] again = out.array();
        int compared = length;
        int dsl = data.remaining();
        if (dsl > 0) {
            int dataEnd = length - Digest.padded(dsl) - ((cfg & 2) != 0 ? 4 : 0) + dsl;
            boolean zeroPadding = true;
            for (int i = dataEnd; i < dataEnd + Digest.padding(dsl); i++) {
                zeroPadding &= wire[i] == 0;
            }
            if (!zeroPadding) {
                compared = dataEnd;
            }
        }
        assertEquals(HexFormat.of().formatHex(wire, 0, compared), HexFormat.of().formatHex(again, 0, compared));
    }
}
