package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.Negotiator;
import org.rdma.iscsi.text.TextAssembler;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;
import org.rdma.iscsi.text.Values;

/**
 * Text Requests of the full feature phase on one connection (RFC 7143 11.10/11.11; LIO's
 * {@code iscsit_handle_text_cmd()} and {@code iscsit_build_text_rsp()}, which this goes beyond by
 * taking and giving multi-PDU texts): SendTargets (Appendix C) answered from the engine's targets
 * and portals, MaxRecvDataSegmentLength declarations applied, other keys answered by the
 * negotiator of the full feature phase. A request whose text is continued (C bit) is answered with
 * an empty response naming a Target Transfer Tag; a response longer than the initiator's
 * MaxRecvDataSegmentLength goes in pieces, each fetched with an empty request carrying that tag.
 */
final class TextResponder {
    private static final Logger LOG = Logger.getLogger(TextResponder.class.getName());

    private final IscsiConnection conn;
    private final TextAssembler assembler = new TextAssembler();
    private ByteBuffer pending;
    private int pendingTtt = Pdus.RESERVED;
    private int pendingItt;

    TextResponder(IscsiConnection conn) {
        this.conn = conn;
    }

    /** One Text Request in its CmdSN turn. */
    synchronized void request(int itt, int ttt, boolean more, ByteBuffer data, boolean retire, byte[] header) {
        if (ttt != Pdus.RESERVED) {
            if (ttt != pendingTtt || itt != pendingItt) {
                reject(header, retire, "Text Request with TTT 0x" + Integer.toHexString(ttt) + " continues nothing");
                return;
            }
            if (pending != null) {
                sendNext(itt, retire);
                return;
            }
        } else if (pendingTtt != Pdus.RESERVED && itt != pendingItt) {
            // RFC 7143 11.10.4: a new request (reserved TTT) resets an exchange left unfinished.
            assembler.reset();
            pending = null;
        }
        List<TextPair> pairs;
        try {
            pairs = assembler.add(data, more);
        } catch (TextFormatException e) {
            reject(header, retire, e.getMessage());
            return;
        }
        if (pairs == null) {
            pendingItt = itt;
            pendingTtt = conn.session().nextTtt();
            conn.sendTextResponse(itt, pendingTtt, false, false, null, retire);
            return;
        }
        List<TextPair> answer;
        try {
            answer = answer(pairs);
        } catch (TextFormatException e) {
            reject(header, retire, e.getMessage());
            return;
        }
        pending = ByteBuffer.wrap(TextCodec.encode(answer));
        pendingItt = itt;
        sendNext(itt, retire);
    }

    private void sendNext(int itt, boolean retire) {
        ByteBuffer seg = TextAssembler.nextSegment(pending, conn.maxXmitDataSegmentLength());
        boolean more = pending.hasRemaining();
        if (more) {
            pendingTtt = conn.session().nextTtt();
        } else {
            pending = null;
            pendingTtt = Pdus.RESERVED;
        }
        conn.sendTextResponse(itt, pendingTtt, !more, more, seg.hasRemaining() ? seg : null, retire);
    }

    private void reject(byte[] header, boolean retire, String why) {
        LOG.warning(() -> conn + ": Reject PROTOCOL_ERROR: " + why);
        assembler.reset();
        pending = null;
        pendingTtt = Pdus.RESERVED;
        conn.reject(RejectReason.PROTOCOL_ERROR, new Bhs(ByteBuffer.wrap(header), 0), ByteBuffer.allocate(0));
        if (retire) {
            conn.session().retire();
        }
    }

    private List<TextPair> answer(List<TextPair> pairs) throws TextFormatException {
        List<TextPair> out = new ArrayList<>();
        List<TextPair> rest = new ArrayList<>();
        IscsiSession s = conn.session();
        for (TextPair p : pairs) {
            if (p.key().equals(Key.SEND_TARGETS.wireName())) {
                out.addAll(s.target().sendTargets(p.value(), s, conn.transport().localAddress()));
            } else {
                rest.add(p);
            }
        }
        if (!rest.isEmpty()) {
            Negotiator n = new Negotiator(Map.of(Key.MAX_RECV_DATA_SEGMENT_LENGTH,
                    Integer.toString(s.parameters().maxRecvDataSegmentLength())), false, true);
            out.addAll(n.respond(rest, Negotiator.Phase.FULL_FEATURE));
            String mrdsl = n.value(Key.MAX_RECV_DATA_SEGMENT_LENGTH);
            if (mrdsl != null) {
                conn.maxXmitDataSegmentLength((int) Values.parseNumber(mrdsl));
            }
        }
        return out;
    }
}
