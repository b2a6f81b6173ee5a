package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.iscsi.pdu.RejectReason;

/**
 * A logged-in connection on whatever an initiator may send in the full feature phase: byte 0
 * chooses the negotiated parameters, the rest is the stream, read as the TCP transport reads it,
 * with the virtual clock moving a second after each read result. No exception escapes; whatever
 * the target sends decodes; StatSN goes up by one from PDU to PDU that takes one; every Reject
 * names a reason of RFC 7143 and returns a whole header.
 */
class ConnectionFuzzTest {
    @FuzzTest
    void anyStreamInTheFullFeaturePhase(byte[] input) {
        if (input.length < 1) {
            return;
        }
        int cfg = input[0] & 0xff;
        Params p = new Params();
        p.immediateData = (cfg & 1) != 0;
        p.initialR2T = (cfg & 2) != 0;
        p.dataPduInOrder = (cfg & 4) == 0;
        p.dataSequenceInOrder = (cfg & 8) == 0;
        p.maxOutstandingR2T = 1 + (cfg >>> 4 & 1);
        p.maxBurstLength = (cfg & 32) != 0 ? 1024 : 262144;
        p.firstBurstLength = Math.min(p.maxBurstLength, 2048);
        p.maxXmitDataSegmentLength = (cfg & 64) != 0 ? 512 : 8192;
        p.discovery = (cfg & 128) != 0;
        Harness h = new Harness();
        Initiator i = h.login(p);
        ByteBuffer stream = ByteBuffer.wrap(Arrays.copyOfRange(input, 1, input.length));
        while (stream.hasRemaining() && !i.transport.closed) {
            int end = Math.min(stream.limit(), stream.position() + 97);
            i.feed(stream.duplicate().limit(end));
            stream.position(end);
            h.now += Harness.SECOND;
            h.target.tick();
        }
        int statSn = 0x100;
        for (Pdu out : i.received()) {
            Bhs b = out.bhs();
            if (takesStatSn(out)) {
                assertEquals(statSn++, b.statSn(), () -> "StatSN of " + b);
            }
            if (out.opcode() == Opcode.REJECT) {
                assertNotNull(RejectReason.valueOf(b.reason()), () -> "reason " + b.reason());
                int n = out.data().length;
                assertTrue(n >= Bhs.BHS_LENGTH && (n - Bhs.BHS_LENGTH) % 4 == 0, "a whole header with its AHSs: " + n);
            }
        }
    }

    private static boolean takesStatSn(Pdu p) {
        Bhs b = p.bhs();
        return switch (p.opcode()) {
            case SCSI_DATA_IN -> b.statusPresent();
            case READY_TO_TRANSFER -> false;
            case NOP_IN -> b.itt() != Bhs.RESERVED_TAG;
            default -> true;
        };
    }
}
