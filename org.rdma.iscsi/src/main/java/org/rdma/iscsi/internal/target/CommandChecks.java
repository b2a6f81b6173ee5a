package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import org.rdma.iscsi.pdu.Ahs;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.RejectReason;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.scsi.TaskAttribute;

/**
 * The checks a SCSI Command PDU passes before it becomes a task (RFC 7143 11.3; LIO's
 * {@code iscsit_setup_scsi_cmd()}), each failure with the Reject reason LIO answers it with.
 */
final class CommandChecks {
    /** Why a command is rejected. */
    record Rejection(RejectReason reason, String why) {
    }

    private CommandChecks() {
    }

    /** The rejection of a command against the session's parameters, or null when it is sound. */
    static Rejection check(Bhs b, ByteBuffer ahs, OperationalParameters p) {
        int edtl = b.expectedDataTransferLength();
        int dsl = b.dataSegmentLength();
        if (edtl < 0) {
            return invalid("an Expected Data Transfer Length of " + Integer.toUnsignedString(edtl));
        }
        if (b.read() && b.write() && edtl != 0 || Ahs.find(ahs, ahs.position(), ahs.limit(), Ahs.BIDI_READ_LENGTH) >= 0) {
            return new Rejection(RejectReason.COMMAND_NOT_SUPPORTED,
                    "a bidirectional command (the SCSI layer moves data one way)");
        }
        if (!b.write() && !b.finalBit()) {
            return invalid("F clear on a command without W");
        }
        if (!b.read() && !b.write() && edtl != 0) {
            return invalid("neither R nor W with an Expected Data Transfer Length of " + edtl);
        }
        if (dsl > 0 && !b.write()) {
            return protocol("immediate data on a command without W");
        }
        if (dsl > 0 && !p.immediateData()) {
            return protocol("immediate data with ImmediateData=No");
        }
        if (dsl > edtl) {
            return protocol(dsl + " bytes of immediate data beyond the Expected Data Transfer Length " + edtl);
        }
        if (dsl > p.firstBurstLength()) {
            return invalid(dsl + " bytes of immediate data beyond FirstBurstLength " + p.firstBurstLength());
        }
        if (b.write() && !b.finalBit() && (p.initialR2T() || dsl == edtl)) {
            return protocol("F clear announces unsolicited Data-Out, " + (p.initialR2T() ? "InitialR2T=Yes" : "none is left"));
        }
        return null;
    }

    private static Rejection invalid(String why) {
        return new Rejection(RejectReason.INVALID_PDU_FIELD, why);
    }

    private static Rejection protocol(String why) {
        return new Rejection(RejectReason.PROTOCOL_ERROR, why);
    }

    /** RFC 7143 11.3.1 ATTR to SAM-5 (LIO maps untagged and unknown values to SIMPLE). */
    static TaskAttribute attribute(int attr) {
        return switch (attr) {
            case 2 -> TaskAttribute.ORDERED;
            case 3 -> TaskAttribute.HEAD_OF_QUEUE;
            case 4 -> TaskAttribute.ACA;
            default -> TaskAttribute.SIMPLE;
        };
    }
}
