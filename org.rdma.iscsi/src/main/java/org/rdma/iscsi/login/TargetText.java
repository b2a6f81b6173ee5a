package org.rdma.iscsi.login;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.Negotiator;
import org.rdma.iscsi.text.TextAssembler;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;

/**
 * The target's side of the Text Request/Response exchange of the full feature phase (RFC 7143 11.10,
 * 11.11; LIO's iscsit_handle_text_cmd() and iscsit_build_text_rsp()), which is how a discovery
 * session asks SendTargets: a request text continued with C is answered with empty responses until
 * whole; the answers (SendTargets through a {@link TargetDirectory}, declarations such as
 * MaxRecvDataSegmentLength recorded, unknown keys NotUnderstood) go out in parts cut at pair
 * boundaries that fit the initiator's MaxRecvDataSegmentLength, each but the last with F=0 and a
 * Target Transfer Tag the initiator's empty request echoes; the last has F=1 and the reserved tag.
 * A request with TTT 0xffffffff starts a new exchange. One per connection, one thread at a time.
 */
public final class TargetText {
    private final LoginResult login;
    private final TargetDirectory directory;
    private final TextAssembler assembler = new TextAssembler();
    private final List<ByteBuffer> parts = new ArrayList<>();
    private int itt = Bhs.RESERVED_TAG;
    private int ttt = Bhs.RESERVED_TAG;
    private int nextTtt = 1;
    private Negotiator negotiator;

    /** For the connection {@code login} opened. */
    public TargetText(LoginResult login, TargetDirectory directory) {
        this.login = login;
        this.directory = directory;
    }

    /**
     * Handles one Text Request and writes the Text Response to it at {@code out}'s position.
     *
     * @return null when a response was written; else the reason to reject the request with
     *     (nothing written): C with F (PROTOCOL_ERROR), an unknown TTT or ITT (INVALID_PDU_FIELD),
     *     text while the answer is still going out, a malformed or misplaced key (PROTOCOL_ERROR)
     * @throws IllegalArgumentException EINVAL for a PDU that is not a Text Request
     */
    public RejectReason receive(Bhs request, ByteBuffer data, ResponseNumbers numbers, PduWriter writer,
            ByteBuffer out) {
        if (request.opcode() != Opcode.TEXT_REQUEST) {
            throw new IllegalArgumentException("EINVAL: " + request.opcode() + " is not a Text Request");
        }
        if (request.continueBit() && request.finalBit()) {
            return RejectReason.PROTOCOL_ERROR; // 11.10.2: C requires F=0
        }
        if (request.ttt() == Bhs.RESERVED_TAG) {
            begin(request.itt());
        } else if (request.ttt() != ttt || request.itt() != itt) {
            return RejectReason.INVALID_PDU_FIELD;
        }
        if (!parts.isEmpty()) {
            if (data.hasRemaining() || request.continueBit()) {
                return RejectReason.PROTOCOL_ERROR;
            }
        } else {
            List<TextPair> pairs;
            List<TextPair> answers;
            try {
                pairs = assembler.add(data, request.continueBit());
                answers = pairs == null ? null : answer(pairs);
            } catch (TextFormatException e) {
                begin(Bhs.RESERVED_TAG);
                return RejectReason.PROTOCOL_ERROR;
            }
            if (answers == null) {
                respond(false, ByteBuffer.allocate(0), numbers, writer, out); // the rest of the request, please
                return null;
            }
            cut(answers);
        }
        ByteBuffer part = parts.remove(0);
        respond(parts.isEmpty() && request.finalBit(), part, numbers, writer, out);
        return null;
    }

    private void begin(int newItt) {
        itt = newItt;
        ttt = Bhs.RESERVED_TAG;
        parts.clear();
        assembler.reset();
        negotiator = new Negotiator(Map.of(), false, true);
    }

    private List<TextPair> answer(List<TextPair> pairs) throws TextFormatException {
        List<TextPair> answers = new ArrayList<>(negotiator.respond(pairs, Negotiator.Phase.FULL_FEATURE));
        String sendTargets = negotiator.value(Key.SEND_TARGETS);
        if (sendTargets != null) {
            answers.addAll(directory.sendTargets(login.session(), sendTargets));
        }
        return answers;
    }

    /** The answers in parts of whole pairs, each within the initiator's MaxRecvDataSegmentLength. */
    private void cut(List<TextPair> answers) {
        int max = login.parameters().maxXmitDataSegmentLength();
        List<TextPair> part = new ArrayList<>();
        int length = 0;
        for (TextPair p : answers) {
            int n = TextCodec.encode(List.of(p)).length;
            if (length + n > max && !part.isEmpty()) {
                parts.add(ByteBuffer.wrap(TextCodec.encode(part)));
                part.clear();
                length = 0;
            }
            part.add(p);
            length += n;
        }
        parts.add(ByteBuffer.wrap(TextCodec.encode(part)));
    }

    private void respond(boolean last, ByteBuffer text, ResponseNumbers numbers, PduWriter writer, ByteBuffer out) {
        if (last) {
            ttt = Bhs.RESERVED_TAG;
        } else if (ttt == Bhs.RESERVED_TAG) {
            ttt = nextTtt++ & 0x7fffffff; // never the reserved tag
        }
        writer.begin(out, Opcode.TEXT_RESPONSE).finalBit(last).itt(itt).ttt(ttt).statSn(numbers.statSn())
                .expCmdSn(numbers.expCmdSn()).maxCmdSn(numbers.maxCmdSn());
        writer.finish(text.hasRemaining() ? text : null);
        if (last) {
            begin(Bhs.RESERVED_TAG);
        }
    }
}
