package org.rdma.target.internal.emul;

import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;

/** SPC-4 commands that need neither the medium nor a page of their own (LIO's target_core_spc.c). */
final class Spc {
    private Spc() {
    }

    /** TEST UNIT READY (SPC-4 6.47): NOT READY while stopped. */
    static void testUnitReady(Cmd c) {
        c.noData(x -> Sbc.checkStarted(x));
    }

    /**
     * REQUEST SENSE (SPC-4 6.39; LIO's {@code spc_emulate_request_sense()}): the oldest pending
     * unit attention (cleared by being reported), else NOT READY while stopped, else NO SENSE;
     * DESC chooses the format. An unmapped LUN reports LOGICAL UNIT NOT SUPPORTED (SPC-4 6.39.2).
     */
    static void requestSense(Cmd c) {
        boolean desc = (c.cdb[1] & 1) != 0;
        c.dataIn(c.cdb[4] & 0xFF, x -> {
            Sense s;
            if (x.dev == null) {
                s = Sense.of(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_UNIT_NOT_SUPPORTED);
            } else {
                s = x.nexus.takeUnitAttention();
                if (s == null) {
                    s = x.dev.stopped() ? Sense.of(SenseKey.NOT_READY, Asc.LOGICAL_UNIT_NOT_READY_INITIALIZING_COMMAND_REQUIRED)
                            : Sense.of(SenseKey.NO_SENSE, Asc.NO_ADDITIONAL_SENSE_INFORMATION);
                }
            }
            x.respond(s.encode(desc));
        });
    }

    /**
     * REPORT LUNS (SPC-4 6.33; LIO's {@code spc_emulate_report_luns()}): SELECT REPORT 0 and 2 list
     * the LUNs mapped for the nexus, 1 the well-known ones (none); an allocation length under 16
     * answers INVALID FIELD IN CDB.
     */
    static void reportLuns(Cmd c) throws ScsiException {
        int select = c.cdb[2] & 0xFF;
        if (select > 2) {
            throw new ScsiException(Sense.invalidFieldInCdb(2, 7));
        }
        long alloc = c.field(6, 4);
        if (alloc < 16) {
            throw new ScsiException(Sense.invalidFieldInCdb(6, 7));
        }
        c.dataIn(alloc, x -> {
            long[] luns = select == 1 ? new long[0] : x.nexus.reportLuns();
            byte[] b = new byte[8 + 8 * luns.length];
            Cdb.put(b, 0, 8L * luns.length, 4);
            for (int i = 0; i < luns.length; i++) {
                Cdb.put(b, 8 + 8 * i, luns[i], 8);
            }
            x.respond(b);
        });
    }

    /**
     * PREVENT ALLOW MEDIUM REMOVAL (SBC-3 5.9): PREVENT 00b allows, 01b prevents; 10b and 11b are
     * obsolete/reserved for direct-access devices and answer INVALID FIELD IN CDB.
     */
    static void preventAllowMediumRemoval(Cmd c) throws ScsiException {
        int prevent = c.cdb[4] & 3;
        if (prevent > 1) {
            throw new ScsiException(Sense.invalidFieldInCdb(4, 1));
        }
        c.noData(x -> x.dev.setRemovalPrevented(prevent == 1));
    }
}
