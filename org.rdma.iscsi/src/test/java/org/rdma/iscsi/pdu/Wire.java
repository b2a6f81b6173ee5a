package org.rdma.iscsi.pdu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Consumer;

/** Test helpers: hand-written hex, encoding through a {@link PduWriter}, decoding through a {@link PduReader}. */
final class Wire {
    private Wire() {
    }

    /** Bytes from hex written as the RFC's figures show them, one 4-byte row per string. */
    static byte[] hex(String... rows) {
        return HexFormat.of().parseHex(String.join("", rows).replace(" ", ""));
    }

    static String hex(byte[] b) {
        return HexFormat.ofDelimiter(" ").formatHex(b);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    /** Encodes one PDU without digests. */
    static byte[] encode(Opcode op, Consumer<Bhs> fields, byte[] data) {
        return encode(new PduWriter(), op, fields, data);
    }

    static byte[] encode(PduWriter w, Opcode op, Consumer<Bhs> fields, byte[] data) {
        ByteBuffer out = ByteBuffer.allocate(1024 + (data == null ? 0 : data.length));
        fields.accept(w.begin(out, op));
        w.finish(data == null ? null : ByteBuffer.wrap(data));
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        return b;
    }

    /** Decodes bytes holding exactly one valid PDU and returns the reader positioned on it. */
    static PduReader decode(Opcode op, byte[] wire) {
        PduReader r = op.initiator() ? PduReader.forTarget() : PduReader.forInitiator();
        r.setMaxRecvDataSegmentLength(PduReader.MAX_DATA_SEGMENT_LENGTH);
        ByteBuffer src = ByteBuffer.wrap(wire);
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(0, src.remaining(), "the reader took exactly one PDU");
        assertEquals(op, r.bhs().opcode());
        return r;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
