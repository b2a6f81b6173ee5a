package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.iscsi.login.Link.text;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduReader;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.TextPair;

/**
 * A discovery session after its login: SendTargets=All between {@link InitiatorText} and
 * {@link TargetText}, answered through a {@link TargetDirectory}, in one response or in parts that
 * fit the initiator; a request continued with C; the requests a target rejects.
 */
class TextExchangeTest {
    final Link link = new Link();
    final List<String> asked = new ArrayList<>();
    final List<TextPair> targets = new ArrayList<>(List.of(
            new TextPair("TargetName", TestPolicy.TARGET),
            new TextPair("TargetAddress", "192.0.2.1:3260,1"),
            new TextPair("TargetAddress", "[2001:db8::1]:3260,1"),
            new TextPair("TargetName", "iqn.2003-01.org.rdma:t2"),
            new TextPair("TargetAddress", "192.0.2.1:3260,2")));
    final TargetDirectory directory = (session, value) -> {
        asked.add(session.initiatorName() + " " + session.type() + " " + value);
        return targets;
    };
    TargetText target;
    LoginResult discovery;

    /** Logs a discovery session in, the initiator declaring {@code maxRecv}. */
    private void login(int maxRecv) {
        SessionIdentity id = new SessionIdentity(LoginTest.ISID, 0, TestPolicy.INITIATOR, null, SessionType.DISCOVERY);
        InitiatorLogin i = new InitiatorLogin(InitiatorConfig.of(id,
                Map.of(Key.MAX_RECV_DATA_SEGMENT_LENGTH, Integer.toString(maxRecv))), new Random(1));
        TargetLogin t = new TargetLogin(new TestPolicy(), new Random(), 0x5000);
        assertEquals(LoginState.FULL_FEATURE, link.run(i, t));
        discovery = t.result();
        target = new TargetText(discovery, directory);
    }

    /** Runs the exchange; returns the responses' headers. */
    private List<Bhs> exchange(InitiatorText i) {
        List<Bhs> headers = new ArrayList<>();
        int cmdSn = discovery.expCmdSn();
        int statSn = discovery.statSn();
        i.start(cmdSn, statSn, link.writer, link.out);
        InitiatorText.Progress p = InitiatorText.Progress.MORE;
        while (p == InitiatorText.Progress.MORE) {
            PduReader r = Link.read(link.atTarget, link.take());
            assertEquals(cmdSn, r.bhs().cmdSn());
            assertNull(target.receive(r.bhs(), r.data(), new ResponseNumbers(statSn, ++cmdSn, cmdSn + 31),
                    link.writer, link.out));
            PduReader q = Link.read(link.atInitiator, link.take());
            headers.add(new Bhs(ByteBuffer.wrap(q.bhs().toBytes()), 0));
            assertEquals(statSn++, q.bhs().statSn());
            p = i.receive(q.bhs(), q.data(), cmdSn, statSn, link.writer, link.out);
        }
        assertEquals(InitiatorText.Progress.DONE, p, i.failure());
        return headers;
    }

    @Test
    void sendTargetsAllInADiscoverySession() {
        login(262144);
        InitiatorText i = new InitiatorText(List.of(new TextPair("SendTargets", "All")), 0x30);
        List<Bhs> rsp = exchange(i);
        assertEquals(targets, i.answers());
        assertEquals(List.of(TestPolicy.INITIATOR + " DISCOVERY All"), asked);
        assertEquals(1, rsp.size());
        assertEquals(List.of(true, Bhs.RESERVED_TAG, 0x30), List.of(rsp.get(0).finalBit(), rsp.get(0).ttt(),
                rsp.get(0).itt()));
    }

    @Test
    void aLongAnswerGoesInPartsThatFitTheInitiator() {
        login(512);
        for (int n = 3; n < 40; n++) {
            targets.add(new TextPair("TargetName", String.format("iqn.2003-01.org.rdma:target-number-%03d", n)));
            targets.add(new TextPair("TargetAddress", "192.0.2.1:3260," + n));
        }
        InitiatorText i = new InitiatorText(List.of(new TextPair("SendTargets", "All")), 0x31);
        List<Bhs> rsp = exchange(i);
        assertEquals(targets, i.answers(), "the parts join into the whole answer");
        assertTrue(rsp.size() > 5, rsp.size() + " parts");
        int ttt = rsp.get(0).ttt();
        for (int n = 0; n < rsp.size(); n++) {
            Bhs h = rsp.get(n);
            boolean last = n == rsp.size() - 1;
            assertTrue(h.dataSegmentLength() <= 512);
            assertEquals(List.of(last, last ? Bhs.RESERVED_TAG : ttt), List.of(h.finalBit(), h.ttt()), "part " + n);
        }
        assertTrue(ttt != Bhs.RESERVED_TAG);
    }

    private RejectReason request(Consumer<Bhs> fields, byte[] data) {
        fields.accept(link.writer.begin(link.out, Opcode.TEXT_REQUEST));
        link.writer.finish(data.length == 0 ? null : ByteBuffer.wrap(data));
        PduReader r = Link.read(link.atTarget, link.take());
        return target.receive(r.bhs(), r.data(), new ResponseNumbers(1, 2, 3), link.writer, link.out);
    }

    private Bhs response() {
        return Link.read(link.atInitiator, link.take()).bhs();
    }

    @Test
    void aRequestContinuedWithCIsAnsweredEmptyUntilWhole() {
        login(262144);
        byte[] whole = text("SendTargets=All");
        assertNull(request(h -> h.continueBit(true).itt(7).ttt(Bhs.RESERVED_TAG), Arrays.copyOf(whole, 5)));
        Bhs empty = response();
        assertEquals(List.of(false, 0), List.of(empty.finalBit(), empty.dataSegmentLength()));
        int ttt = empty.ttt();
        assertNull(request(h -> h.finalBit(true).itt(7).ttt(ttt), Arrays.copyOfRange(whole, 5, whole.length)));
        byte[] answer = link.take();
        assertEquals(true, Link.read(link.atInitiator, answer).bhs().finalBit());
        assertEquals(List.of("TargetName=" + TestPolicy.TARGET, "TargetAddress=192.0.2.1:3260,1",
                "TargetAddress=[2001:db8::1]:3260,1", "TargetName=iqn.2003-01.org.rdma:t2",
                "TargetAddress=192.0.2.1:3260,2"), Link.pairs(link.atInitiator, answer));
    }

    @Test
    void requestsTheTargetRejects() {
        login(512);
        assertEquals(RejectReason.PROTOCOL_ERROR, request(h -> h.finalBit(true).continueBit(true).itt(1)
                .ttt(Bhs.RESERVED_TAG), text("SendTargets=All")), "C with F");
        assertEquals(RejectReason.INVALID_PDU_FIELD, request(h -> h.finalBit(true).itt(1).ttt(0x99),
                text("SendTargets=All")), "a TTT the target never gave");
        assertEquals(RejectReason.PROTOCOL_ERROR, request(h -> h.finalBit(true).itt(1).ttt(Bhs.RESERVED_TAG),
                text("SendTargets")), "no '='");
        assertEquals(RejectReason.PROTOCOL_ERROR, request(h -> h.finalBit(true).itt(1).ttt(Bhs.RESERVED_TAG),
                text("HeaderDigest=None")), "a login-only key");
        for (int n = 3; n < 40; n++) {
            targets.add(new TextPair("TargetName", String.format("iqn.2003-01.org.rdma:target-number-%03d", n)));
        }
        assertNull(request(h -> h.finalBit(true).itt(2).ttt(Bhs.RESERVED_TAG), text("SendTargets=All")));
        int ttt = response().ttt();
        assertEquals(RejectReason.PROTOCOL_ERROR, request(h -> h.finalBit(true).itt(2).ttt(ttt), text("X-a=b")),
                "text while the answer is still going out");
        assertEquals(0, link.out.position(), "a rejected request gets no Text Response");
    }

    @Test
    void responsesTheInitiatorRefuses() {
        login(262144);
        InitiatorText i = new InitiatorText(List.of(new TextPair("SendTargets", "All")), 0x30);
        i.start(1, 1, link.writer, link.out);
        link.take();
        link.writer.begin(link.out, Opcode.TEXT_RESPONSE).itt(0x30).ttt(Bhs.RESERVED_TAG);
        link.writer.finish(null);
        PduReader q = Link.read(link.atInitiator, link.take());
        assertEquals(InitiatorText.Progress.FAILED, i.receive(q.bhs(), q.data(), 2, 2, link.writer, link.out));
        assertEquals("EPROTO: F=0 with the reserved TTT (11.11.4)", i.failure());
        InitiatorText j = new InitiatorText(List.of(new TextPair("SendTargets", "All")), 0x30);
        j.start(1, 1, link.writer, link.out);
        link.take();
        link.writer.begin(link.out, Opcode.TEXT_RESPONSE).finalBit(true).itt(0x31).ttt(Bhs.RESERVED_TAG);
        link.writer.finish(null);
        q = Link.read(link.atInitiator, link.take());
        assertEquals(InitiatorText.Progress.FAILED, j.receive(q.bhs(), q.data(), 2, 2, link.writer, link.out));
        assertEquals("EPROTO: ITT 0x00000031", j.failure());
    }
}
