package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;

/**
 * Headers of the PDUs a target sends (RFC 7143 chapter 11; LIO's {@code iscsit_build_*()}), each
 * in a buffer of its own. StatSN, ExpCmdSN and MaxCmdSN are left for the connection to fill when
 * it queues the PDU.
 */
final class Pdus {
    /** RFC 7143 11.2.1.8: the reserved tag, 0xffffffff. */
    static final int RESERVED = Bhs.RESERVED_TAG;

    private Pdus() {
    }

    /** A zeroed header with the opcode and the F bit its figure fixes at 1. */
    static Bhs header(Opcode op) {
        Bhs h = new Bhs(ByteBuffer.allocate(Bhs.BHS_LENGTH), 0);
        h.opcode(op);
        if (op.finalAlways()) {
            h.finalBit(true);
        }
        return h;
    }

    /** 11.4: a SCSI Response with the command completed at the target (Response 0). */
    static Bhs scsiResponse(int itt, int status, boolean overflow, boolean underflow, int residual, int expDataSn) {
        Bhs h = header(Opcode.SCSI_RESPONSE).itt(itt).status(status).expDataSn(expDataSn);
        if (overflow || underflow) {
            h.residualOverflow(overflow).residualUnderflow(underflow).residualCount(residual);
        }
        return h;
    }

    /** 11.4.7.2: the data segment of a response with sense: SenseLength, then the sense data. */
    static ByteBuffer senseSegment(byte[] sense) {
        ByteBuffer b = ByteBuffer.allocate(2 + sense.length);
        b.putShort((short) sense.length).put(sense).flip();
        return b;
    }

    /** 11.7: a Data-In PDU; with {@code status} >= 0 it carries the status (S bit, so also F). */
    static Bhs dataIn(int itt, int dataSn, int offset, boolean finalBit, int status, boolean overflow,
            boolean underflow, int residual) {
        Bhs h = header(Opcode.SCSI_DATA_IN).itt(itt).ttt(RESERVED).dataSn(dataSn).bufferOffset(offset)
                .finalBit(finalBit || status >= 0);
        if (status >= 0) {
            h.statusPresent(true).status(status);
            if (overflow || underflow) {
                h.residualOverflow(overflow).residualUnderflow(underflow).residualCount(residual);
            }
        }
        return h;
    }

    /** 11.8: an R2T for {@code length} bytes at {@code offset}. */
    static Bhs r2t(long lun, int itt, int ttt, int r2tSn, int offset, int length) {
        return header(Opcode.READY_TO_TRANSFER).lun(lun).itt(itt).ttt(ttt).r2tSn(r2tSn).bufferOffset(offset)
                .desiredDataTransferLength(length);
    }

    /** 11.19: a NOP-In answering a NOP-Out (TTT reserved), or a ping of the target's (ITT reserved). */
    static Bhs nopIn(long lun, int itt, int ttt) {
        return header(Opcode.NOP_IN).lun(lun).itt(itt).ttt(ttt);
    }

    /** 11.6: a Task Management Function Response. */
    static Bhs tmResponse(int itt, int response) {
        return header(Opcode.TASK_MGMT_RESPONSE).itt(itt).response(response);
    }

    /** 11.11: a Text Response; C set means more follows, TTT then names the continuation. */
    static Bhs textResponse(int itt, int ttt, boolean finalBit, boolean more) {
        return header(Opcode.TEXT_RESPONSE).itt(itt).ttt(ttt).finalBit(finalBit).continueBit(more);
    }

    /** 11.15: a Logout Response. */
    static Bhs logoutResponse(int itt, int response, int time2Wait, int time2Retain) {
        return header(Opcode.LOGOUT_RESPONSE).itt(itt).response(response).time2Wait(time2Wait)
                .time2Retain(time2Retain);
    }

    /** 11.9: an Asynchronous Message with AsyncEvent {@code event} and its three parameters. */
    static Bhs asyncMessage(int event, int p1, int p2, int p3) {
        return header(Opcode.ASYNC_MESSAGE).itt(RESERVED).asyncEvent(event).parameter(1, p1).parameter(2, p2)
                .parameter(3, p3);
    }

    /** 11.17: a Reject; its data segment is the rejected PDU's header. */
    static Bhs reject(int reason) {
        return header(Opcode.REJECT).itt(RESERVED).reason(reason);
    }
}
