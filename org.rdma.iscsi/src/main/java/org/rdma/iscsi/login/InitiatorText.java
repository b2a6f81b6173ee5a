package org.rdma.iscsi.login;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.PduWriter;
import org.rdma.iscsi.text.TextAssembler;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;

/**
 * The initiator's side of one Text Request/Response exchange of the full feature phase (RFC 7143
 * 11.10, 11.11; open-iscsi's and libiscsi's SendTargets discovery): {@link #start} writes the
 * request (F=1, TTT 0xffffffff), {@link #receive} gathers each Text Response's pairs and, while
 * the target has more (F=0), writes the empty request that echoes its Target Transfer Tag. The
 * caller numbers the requests (each takes a CmdSN) and acknowledges StatSNs. One per exchange.
 */
public final class InitiatorText {
    /** Where the exchange stands. */
    public enum Progress {
        /** A follow-up request was written. */
        MORE,
        /** The last response arrived: {@link #answers()}. */
        DONE,
        /** The target's response broke a rule: {@link #failure()}. */
        FAILED
    }

    private final List<TextPair> request;
    private final int itt;
    private final TextAssembler assembler = new TextAssembler();
    private final List<TextPair> answers = new ArrayList<>();
    private Progress progress;
    private String failure;

    /** An exchange of {@code request} (e.g. SendTargets=All) under task tag {@code itt}. */
    public InitiatorText(List<TextPair> request, int itt) {
        this.request = List.copyOf(request);
        this.itt = itt;
    }

    /** Writes the Text Request at {@code out}'s position. */
    public void start(int cmdSn, int expStatSn, PduWriter writer, ByteBuffer out) {
        if (progress != null) {
            throw new IllegalStateException("EALREADY: the exchange has started");
        }
        progress = Progress.MORE;
        write(Bhs.RESERVED_TAG, cmdSn, expStatSn, ByteBuffer.wrap(TextCodec.encode(request)), writer, out);
    }

    /**
     * Takes one Text Response; while the target has more, writes the follow-up request with
     * {@code cmdSn} and {@code expStatSn}.
     *
     * @throws IllegalStateException unless {@link Progress#MORE}
     */
    public Progress receive(Bhs response, ByteBuffer data, int cmdSn, int expStatSn, PduWriter writer,
            ByteBuffer out) {
        if (progress != Progress.MORE) {
            throw new IllegalStateException("EALREADY: the exchange is " + progress);
        }
        String fault = response.opcode() != Opcode.TEXT_RESPONSE ? response.opcode() + " answering a Text Request"
                : response.itt() != itt ? String.format("ITT 0x%08x", response.itt())
                : !response.finalBit() && response.ttt() == Bhs.RESERVED_TAG ? "F=0 with the reserved TTT (11.11.4)"
                : response.finalBit() && response.continueBit() ? "F with C" : null;
        if (fault == null) {
            try {
                List<TextPair> pairs = assembler.add(data, response.continueBit());
                if (pairs != null) {
                    answers.addAll(pairs);
                }
            } catch (TextFormatException e) {
                fault = e.getMessage();
            }
        }
        if (fault != null) {
            failure = "EPROTO: " + fault;
            progress = Progress.FAILED;
        } else if (response.finalBit()) {
            progress = Progress.DONE;
        } else {
            write(response.ttt(), cmdSn, expStatSn, null, writer, out);
        }
        return progress;
    }

    /** The target's pairs, once {@link Progress#DONE}. */
    public List<TextPair> answers() {
        return List.copyOf(answers);
    }

    /** Why the exchange failed, or null. */
    public String failure() {
        return failure;
    }

    private void write(int ttt, int cmdSn, int expStatSn, ByteBuffer text, PduWriter writer, ByteBuffer out) {
        writer.begin(out, Opcode.TEXT_REQUEST).finalBit(true).itt(itt).ttt(ttt).cmdSn(cmdSn).expStatSn(expStatSn);
        writer.finish(text != null && text.hasRemaining() ? text : null);
    }
}
