package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.scsi.Cdb;

/** CmdSN ordering and the command window (RFC 7143 4.2.2.1, 11.3.5). */
class CmdSnWindowTest {
    final Harness h = new Harness();

    private static void tur(Initiator i, int itt, int cmdSn) {
        i.send(Opcode.SCSI_COMMAND, b -> b.itt(itt).cmdSn(cmdSn).finalBit(true).cdb(Cdb.testUnitReady(), 0, 6), null);
    }

    @Test
    void commandsReachTheScsiLayerInCmdSnOrder() {
        Initiator i = h.login(new Params());
        tur(i, 0xa2, 2);
        tur(i, 0xa3, 3);
        i.nothingMore(); // CmdSN 1 is missing: both wait
        tur(i, 0xa1, 1);
        List<Pdu> r = i.received();
        assertEquals(3, r.size());
        // CmdSN 1 came first, so it got the unit attention; then 2 and 3, StatSN in that order.
        assertEquals(List.of(0xa1, 0xa2, 0xa3), r.stream().map(p -> p.bhs().itt()).toList());
        assertEquals(0x02, r.get(0).bhs().status());
        assertEquals(List.of(0x100, 0x101, 0x102), r.stream().map(p -> p.bhs().statSn()).toList());
        assertEquals(4, r.get(2).bhs().expCmdSn());
    }

    @Test
    void aCmdSnBelowExpCmdSnOrBeyondMaxCmdSnIsDroppedWithoutAnswer() {
        Initiator i = h.login(new Params());
        tur(i, 0xb1, 1);
        Bhs first = i.next(Opcode.SCSI_RESPONSE).bhs();
        assertEquals(2, first.expCmdSn());
        assertEquals(9, first.maxCmdSn());
        tur(i, 0xb2, 1); // a duplicate
        tur(i, 0xb3, 10); // beyond MaxCmdSN 9
        i.nothingMore();
        assertEquals(2, i.conn.stats().outsideWindow());
        assertEquals(0, i.conn.session().tasks());
        tur(i, 0xb4, 2);
        assertEquals(0xb4, i.next(Opcode.SCSI_RESPONSE).bhs().itt());
    }

    @Test
    void maxCmdSnClosesWhileTheDepthIsOutstandingAndOpensAsTasksEnd() {
        Initiator i = h.login(new Params()); // depth 8
        tur(i, 0xc0, 1); // takes the unit attention, which the core answers at once
        assertEquals(9, i.next(Opcode.SCSI_RESPONSE).bhs().maxCmdSn());
        h.hold = true;
        for (int n = 2; n <= 9; n++) {
            tur(i, 0xc0 + n, n);
        }
        i.nothingMore();
        // An immediate NOP-Out shows the window: ExpCmdSN 10, MaxCmdSN 9 (closed).
        i.send(Opcode.NOP_OUT, b -> b.immediate(true).itt(0x77).ttt(Bhs.RESERVED_TAG).cmdSn(10), null);
        Bhs nop = i.next(Opcode.NOP_IN).bhs();
        assertEquals(10, nop.expCmdSn());
        assertEquals(9, nop.maxCmdSn());
        tur(i, 0xda, 10);
        h.runHeld();
        List<Pdu> r = i.received();
        assertEquals(8, r.size(), "CmdSN 10 was beyond MaxCmdSN when it came");
        assertEquals(17, r.get(7).bhs().maxCmdSn());
        assertEquals(1, i.conn.stats().outsideWindow());
    }
}
