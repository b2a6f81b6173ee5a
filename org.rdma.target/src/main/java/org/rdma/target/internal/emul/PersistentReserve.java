package org.rdma.target.internal.emul;

import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.target.internal.pr.PrType;
import org.rdma.target.internal.pr.Reservations;

/**
 * PERSISTENT RESERVE IN and OUT (SPC-4 6.15, 6.16): the CDB checks; the rules and the data are
 * the device's {@link Reservations}.
 */
final class PersistentReserve {
    private PersistentReserve() {
    }

    /** PERSISTENT RESERVE IN: the service action's data, cut to the ALLOCATION LENGTH. */
    static void in(Cmd c) {
        int sa = c.cdb[1] & 0x1F;
        c.dataIn(c.field(7, 2), x -> x.respond(x.dev.reservations().in(sa, x.nexus.reservationContext())));
    }

    /**
     * PERSISTENT RESERVE OUT: for RESERVE, RELEASE, PREEMPT and PREEMPT AND ABORT a SCOPE other
     * than LU_SCOPE or an undefined TYPE answers INVALID FIELD IN CDB at the field; a PARAMETER LIST
     * LENGTH beyond {@link Reservations#MAX_PARAMETER_LIST} too.
     */
    static void out(Cmd c) throws ScsiException {
        int sa = c.cdb[1] & 0x1F;
        PrType type = PrType.of(c.cdb[2] & 0x0F);
        if (sa == Opcode.PRO_RESERVE || sa == Opcode.PRO_RELEASE || sa == Opcode.PRO_PREEMPT
                || sa == Opcode.PRO_PREEMPT_AND_ABORT) {
            if ((c.cdb[2] & 0xF0) != 0) {
                throw new ScsiException(Sense.invalidFieldInCdb(2, 7));
            }
            if (type == null) {
                throw new ScsiException(Sense.invalidFieldInCdb(2, 3));
            }
        }
        long length = c.field(5, 4);
        if (length > Reservations.MAX_PARAMETER_LIST) {
            throw new ScsiException(Sense.invalidFieldInCdb(5, 7));
        }
        c.dataOut(length, x -> x.dev.reservations().out(x.nexus.itNexus(), x.nexus.reservationContext(), sa, type,
                x.dataOutBytes()));
    }
}
