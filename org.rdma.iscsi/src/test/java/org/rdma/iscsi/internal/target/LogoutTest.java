package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;
import org.rdma.scsi.TaskAttribute;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.TargetException;

/** Logout (RFC 7143 11.14, 11.15) and the target's logout request (11.9, AsyncEvent 1). */
class LogoutTest {
    final Harness h = new Harness();

    private static void logout(Initiator i, int reason, int cid) {
        i.send(Opcode.LOGOUT_REQUEST, b -> b.immediate(true).reasonCode(reason).itt(0x60).cid(cid).cmdSn(i.cmdSn), null);
    }

    @Test
    void closeTheSessionAnswersThenClosesTheConnectionAndTheNexus() {
        Initiator i = h.login(new Params());
        IscsiSession s = i.conn.session();
        logout(i, 0, 1);
        // 11.15: F, Response 0, ITT, StatSN, ExpCmdSN, MaxCmdSN, Time2Wait 2, Time2Retain 20.
        assertEquals("26800000 00000000 00000000 00000000 00000060 00000000 00000100 00000001 00000008 00000000"
                + " 00020014 00000000", Hex.words(i.next(Opcode.LOGOUT_RESPONSE).header()));
        assertTrue(i.transport.closed);
        assertEquals(ConnState.FREE, i.conn.state());
        assertEquals(SessionState.FREE, s.state());
        assertTrue(h.target.sessions().isEmpty());
        TargetException e = assertThrows(TargetException.class, () -> s.nexus().submit(Lun.encode(0),
                Cdb.testUnitReady(), 1, TaskAttribute.SIMPLE, 0, DataDirection.NONE));
        assertEquals("ENOTCONN", e.errno());
    }

    @Test
    void closeAConnectionOfAnotherCidAndUnknownCids() {
        Params p = new Params();
        p.maxConnections = 2;
        Initiator a = h.login(p);
        Initiator b = h.join(a, 2, 0x500);
        logout(a, 1, 7);
        assertEquals(1, a.next(Opcode.LOGOUT_RESPONSE).bhs().response(), "CID not found");
        logout(a, 1, 2);
        assertEquals(0, a.next(Opcode.LOGOUT_RESPONSE).bhs().response());
        assertTrue(b.transport.closed);
        assertFalse(a.transport.closed);
        assertEquals(SessionState.LOGGED_IN, a.conn.session().state());
        b.nothingMore();
        a.command(Cdb.testUnitReady(), 0);
        a.next(Opcode.SCSI_RESPONSE);
    }

    @Test
    void closingTheLastConnectionEndsTheSession() {
        Initiator i = h.login(new Params());
        logout(i, 1, 1);
        assertEquals(0, i.next(Opcode.LOGOUT_RESPONSE).bhs().response());
        assertTrue(i.transport.closed);
        assertEquals(SessionState.FREE, i.conn.session().state());
    }

    @Test
    void connectionRecoveryIsRefusedAtErrorRecoveryLevelZeroAndUnknownReasonsAreRejected() {
        Initiator i = h.login(new Params());
        logout(i, 2, 1);
        Bhs r = i.next(Opcode.LOGOUT_RESPONSE).bhs();
        assertEquals(2, r.response(), "connection recovery is not supported");
        assertEquals(0, r.time2Wait());
        assertEquals(0, r.time2Retain());
        logout(i, 3, 1);
        Bhs rej = i.next(Opcode.REJECT).bhs();
        assertEquals(0x09, rej.reason());
        assertFalse(i.transport.closed);
    }

    @Test
    void aRemovedTargetAsksForLogoutRejectsNewCommandsAndDropsWhoDoesNotLogOut() {
        Initiator i = h.login(new Params());
        h.target.removeTarget(Harness.IQN);
        // 11.9: F, LUN 0, ITT reserved, StatSN taken, AsyncEvent 1, Parameter3 (bytes 42-43) = 5 seconds.
        assertEquals("32800000 00000000 00000000 00000000 ffffffff 00000000 00000100 00000001 00000008 01000000"
                + " 00000005 00000000", Hex.words(i.next(Opcode.ASYNC_MESSAGE).header()));
        assertEquals(ConnState.LOGOUT_REQUESTED, i.conn.state());
        i.command(Cdb.testUnitReady(), 0);
        assertEquals(0x0c, i.next(Opcode.REJECT).bhs().reason(), "Waiting for Logout");
        h.now += 4 * Harness.SECOND;
        h.target.tick();
        assertFalse(i.transport.closed);
        h.now += Harness.SECOND;
        h.target.tick();
        assertTrue(i.transport.closed);
    }

    @Test
    void aLogoutAfterTheRequestEndsTheSessionCleanly() {
        Initiator i = h.login(new Params());
        h.target.removeTarget(Harness.IQN);
        i.next(Opcode.ASYNC_MESSAGE);
        logout(i, 0, 1);
        assertEquals(0, i.next(Opcode.LOGOUT_RESPONSE).bhs().response());
        assertEquals(SessionState.FREE, i.conn.session().state());
        h.now += 10 * Harness.SECOND;
        h.target.tick();
        i.nothingMore();
    }
}
