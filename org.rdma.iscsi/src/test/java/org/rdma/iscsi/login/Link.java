package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextPair;

/**
 * Both ends of a connection in memory: every PDU is encoded by a {@link PduWriter} and decoded by
 * the other side's {@link PduReader}, as a transport would, and kept for the test to look at.
 */
final class Link {
    final PduWriter writer = new PduWriter();
    final ByteBuffer out = ByteBuffer.allocate(TargetLogin.MAX_PDU_LENGTH);
    final PduReader atTarget = PduReader.forTarget();
    final PduReader atInitiator = PduReader.forInitiator();
    final List<byte[]> requests = new ArrayList<>();
    final List<byte[]> responses = new ArrayList<>();

    /** What the last write put in {@link #out}. */
    byte[] take() {
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b).clear();
        return b;
    }

    /** Decodes one whole PDU. */
    static PduReader read(PduReader r, byte[] pdu) {
        ByteBuffer src = ByteBuffer.wrap(pdu);
        assertEquals(ReadResult.PDU, r.read(src));
        assertFalse(src.hasRemaining(), "one PDU per write");
        return r;
    }

    /** Runs a login to its end; the initiator must end too. */
    LoginState run(InitiatorLogin i, TargetLogin t) {
        i.start(writer, out);
        for (int n = 0; n < 64; n++) {
            byte[] req = take();
            requests.add(req);
            PduReader r = read(atTarget, req);
            t.receive(r.bhs(), r.data(), writer, out);
            byte[] rsp = take();
            responses.add(rsp);
            PduReader q = read(atInitiator, rsp);
            LoginState s = i.receive(q.bhs(), q.data(), writer, out);
            if (s != LoginState.IN_PROGRESS) {
                assertEquals(0, out.position(), "no request after the login ended");
                return s;
            }
        }
        return fail("the login did not end");
    }

    /** A request from {@code fields} and {@code text} through the target's reader; returns the target's state. */
    LoginState send(TargetLogin t, Consumer<Bhs> fields, byte[] text) {
        fields.accept(writer.begin(out, Opcode.LOGIN_REQUEST));
        writer.finish(text == null || text.length == 0 ? null : ByteBuffer.wrap(text));
        byte[] req = take();
        requests.add(req);
        PduReader r = read(atTarget, req);
        LoginState s = t.receive(r.bhs(), r.data(), writer, out);
        responses.add(take());
        return s;
    }

    /** The last response's header. */
    Bhs lastResponse() {
        return read(atInitiator, responses.get(responses.size() - 1)).bhs();
    }

    static byte[] text(String... pairs) {
        StringBuilder b = new StringBuilder();
        for (String p : pairs) {
            b.append(p).append('\0');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The pairs of a PDU's data segment. */
    static List<String> pairs(PduReader r, byte[] pdu) {
        read(r, pdu);
        List<String> out = new ArrayList<>();
        try {
            for (TextPair p : TextCodec.decode(r.data())) {
                out.add(p.toString());
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return out;
    }

    static String hex(byte[] b) {
        return HexFormat.ofDelimiter(" ").formatHex(b);
    }
}
