package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.iscsi.text.TextPair;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * The target's Text exchange on any stream of PDUs after a login: byte 0 chooses the initiator's
 * MaxRecvDataSegmentLength (512 or 8192) and the session type, the rest is what a target's reader
 * decodes. Each Text Request gets either one Text Response (the request's ITT, F=1 exactly when the
 * TTT is the reserved one, a data segment the initiator can take) or a Reject reason and nothing.
 */
class TargetTextFuzzTest {
    static final List<TextPair> TARGETS = new ArrayList<>();

    static {
        for (int n = 0; n < 30; n++) {
            TARGETS.add(new TextPair("TargetName", "iqn.2003-01.org.rdma:target-" + n));
            TARGETS.add(new TextPair("TargetAddress", "192.0.2.1:3260," + n));
        }
    }

    static LoginResult login(int cfg) {
        int maxXmit = (cfg & 1) == 0 ? 512 : 8192;
        boolean discovery = (cfg & 2) == 0;
        SessionIdentity id = new SessionIdentity(1, 1, TestPolicy.INITIATOR, discovery ? null : TestPolicy.TARGET,
                discovery ? SessionType.DISCOVERY : SessionType.NORMAL);
        OperationalParameters p = new OperationalParameters(false, false, 1, true, true, 8192, maxXmit, 262144,
                65536, 2, 20, 1, true, true, 0, discovery, "RFC3720", 1, TestPolicy.INITIATOR, null,
                id.targetName(), "None");
        return new LoginResult(id, p, 0, 1, 32, 1, 1, null);
    }

    @FuzzTest
    void textAnyRequests(byte[] input) {
        if (input.length < 1) {
            return;
        }
        LoginResult login = login(input[0]);
        TargetText target = new TargetText(login, (session, value) -> TARGETS);
        PduReader reader = PduReader.forTarget();
        PduReader check = PduReader.forInitiator();
        PduWriter writer = new PduWriter();
        ByteBuffer out = ByteBuffer.allocate(Bhs.BHS_LENGTH + 8192);
        ByteBuffer src = ByteBuffer.wrap(input, 1, input.length - 1);
        while (src.hasRemaining()) {
            if (reader.read(src) != ReadResult.PDU || reader.bhs().opcode() != Opcode.TEXT_REQUEST) {
                continue;
            }
            int itt = reader.bhs().itt();
            RejectReason reject = target.receive(reader.bhs(), reader.data(), new ResponseNumbers(1, 2, 3), writer, out);
            out.flip();
            if (reject != null) {
                assertFalse(out.hasRemaining(), "a rejected request gets no response");
            } else {
                assertEquals(ReadResult.PDU, check.read(out));
                assertFalse(out.hasRemaining(), "one Text Response");
                Bhs h = check.bhs();
                assertEquals(List.of(Opcode.TEXT_RESPONSE, itt, 1), List.of(h.opcode(), h.itt(), h.statSn()));
                assertEquals(h.finalBit(), h.ttt() == Bhs.RESERVED_TAG, "F=1 exactly with the reserved TTT");
                assertFalse(h.continueBit());
                assertTrue(h.dataSegmentLength() <= login.parameters().maxXmitDataSegmentLength());
            }
            out.clear();
        }
    }

    private static byte[] request(PduWriter w, Consumer<Bhs> fields, byte[] data) {
        ByteBuffer out = ByteBuffer.allocate(1024);
        fields.accept(w.begin(out, Opcode.TEXT_REQUEST));
        w.finish(data.length == 0 ? null : ByteBuffer.wrap(data));
        return Arrays.copyOf(out.array(), out.position());
    }

    /** SendTargets=All followed through its parts, a request continued with C, and rejected requests. */
    static Map<String, byte[]> seeds() {
        PduWriter w = new PduWriter();
        Map<String, byte[]> s = new LinkedHashMap<>();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(0);
        all.writeBytes(request(w, h -> h.finalBit(true).itt(5).ttt(Bhs.RESERVED_TAG), Link.text("SendTargets=All")));
        for (int n = 0; n < 6; n++) {
            all.writeBytes(request(w, h -> h.finalBit(true).itt(5).ttt(1), new byte[0])); // the first tag given is 1
        }
        s.put("send-targets-all-in-parts", all.toByteArray());
        byte[] text = Link.text("SendTargets=", "MaxRecvDataSegmentLength=4096", "X-org.example.k=v");
        ByteArrayOutputStream continued = new ByteArrayOutputStream();
        continued.write(3);
        continued.writeBytes(request(w, h -> h.continueBit(true).itt(6).ttt(Bhs.RESERVED_TAG), Arrays.copyOf(text, 9)));
        continued.writeBytes(request(w, h -> h.finalBit(true).itt(6).ttt(1), Arrays.copyOfRange(text, 9, text.length)));
        s.put("continued-request-normal-session", continued.toByteArray());
        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        bad.write(1);
        bad.writeBytes(request(w, h -> h.finalBit(true).continueBit(true).itt(7).ttt(Bhs.RESERVED_TAG),
                Link.text("SendTargets=All")));
        bad.writeBytes(request(w, h -> h.finalBit(true).itt(7).ttt(0x99), Link.text("SendTargets=All")));
        bad.writeBytes(request(w, h -> h.finalBit(true).itt(7).ttt(Bhs.RESERVED_TAG), Link.text("HeaderDigest=None")));
        s.put("rejected-requests", bad.toByteArray());
        return s;
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(TargetTextFuzzTest.class, "textAnyRequests", seeds());
    }
}
