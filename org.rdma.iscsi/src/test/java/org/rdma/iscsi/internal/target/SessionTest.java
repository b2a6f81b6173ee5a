package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.scsi.Cdb;

/**
 * Sessions over several connections with connection allegiance (RFC 7143 4.2.2.4, 5.3), session
 * and connection reinstatement (6.3.4, 6.3.5), session recovery at ErrorRecoveryLevel 0 (7.1.5).
 */
class SessionTest {
    final Harness h = new Harness();

    private Initiator twoConnections(Params p) {
        p.maxConnections = 2;
        Initiator a = h.login(p);
        a.command(Cdb.testUnitReady(), 0);
        a.received();
        return a;
    }

    @Test
    void eachTaskIsAnsweredOnItsConnectionInOneCmdSnOrder() {
        Initiator a = twoConnections(new Params());
        Initiator b = h.join(a, 2, 0x800);
        b.send(Opcode.SCSI_COMMAND, x -> x.itt(0x92).cmdSn(3).finalBit(true).cdb(Cdb.testUnitReady(), 0, 6), null);
        b.nothingMore(); // CmdSN 2 comes on the other connection
        a.send(Opcode.SCSI_COMMAND, x -> x.itt(0x91).cmdSn(2).finalBit(true).cdb(Cdb.testUnitReady(), 0, 6), null);
        Bhs ra = a.next(Opcode.SCSI_RESPONSE).bhs();
        Bhs rb = b.next(Opcode.SCSI_RESPONSE).bhs();
        assertEquals(0x91, ra.itt());
        assertEquals(0x92, rb.itt());
        assertEquals(0x101, ra.statSn(), "StatSN is per connection");
        assertEquals(0x800, rb.statSn());
        assertEquals(4, rb.expCmdSn(), "the window is the session's");
    }

    @Test
    void dataOutOnAnotherConnectionThanItsCommandIsRejected() throws Exception {
        Params p = new Params();
        p.immediateData = false;
        Initiator a = twoConnections(p);
        Initiator b = h.join(a, 2, 0x800);
        int itt = a.command(Cdb.write10(0, 1, 0), 512, false, true, true, null);
        Bhs r2t = a.next(Opcode.READY_TO_TRANSFER).bhs();
        b.dataOut(itt, r2t.ttt(), 0, 0, new byte[512], true);
        assertEquals(0x04, b.next(Opcode.REJECT).bhs().reason());
        byte[] data = ScsiCommandTest.pattern(512, 7);
        a.dataOut(itt, r2t.ttt(), 0, 0, data, true);
        assertEquals(0, a.next(Opcode.SCSI_RESPONSE).bhs().status());
        ByteBuffer back = ByteBuffer.allocate(512);
        h.disk.read(0, back);
        assertArrayEquals(data, back.array());
    }

    @Test
    void aJoiningLoginNeedsItsSessionAndRoomInMaxConnections() {
        Initiator a = h.login(new Params()); // MaxConnections 1
        IscsiSession s = a.conn.session();
        LoginOutcome second = new LoginOutcome(s.isid(), s.tsih(), 2, Harness.INI, Harness.IQN, false, h.tpg,
                s.parameters(), 1);
        assertEquals(LoginStatus.TOO_MANY_CONNECTIONS, h.target.admit(second).refusal());
        LoginOutcome wrong = new LoginOutcome(s.isid(), s.tsih() + 1, 2, Harness.INI, Harness.IQN, false, h.tpg,
                s.parameters(), 1);
        assertEquals(LoginStatus.SESSION_DOES_NOT_EXIST, h.target.admit(wrong).refusal());
        LoginOutcome other = new LoginOutcome(s.isid() + 1, s.tsih(), 2, Harness.INI, Harness.IQN, false, h.tpg,
                s.parameters(), 1);
        assertEquals(LoginStatus.SESSION_DOES_NOT_EXIST, h.target.admit(other).refusal(), "another ISID");
    }

    @Test
    void aLoginWithTheSameIsidReinstatesTheSession() {
        Initiator a = h.login(new Params());
        IscsiSession old = a.conn.session();
        LoginOutcome again = new LoginOutcome(old.isid(), 0, 1, Harness.INI, Harness.IQN, false, h.tpg,
                new Params().build(), 1);
        Initiator b = h.login(again, 0x200);
        assertTrue(a.transport.closed);
        assertEquals(SessionState.FREE, old.state());
        assertTrue(b.conn.session().tsih() != old.tsih());
        assertEquals(List.of(b.conn.session()), h.target.sessions());
        b.command(Cdb.testUnitReady(), 0);
        assertEquals(0x200, b.next(Opcode.SCSI_RESPONSE).bhs().statSn());
    }

    @Test
    void aLoginWithTheSameCidReplacesTheConnection() {
        Params p = new Params();
        p.maxConnections = 2;
        Initiator a = h.login(p);
        Initiator again = h.join(a, 1, 0x300);
        assertTrue(a.transport.closed);
        assertEquals(SessionState.LOGGED_IN, again.conn.session().state());
        again.command(Cdb.testUnitReady(), 0);
        assertEquals(0x300, again.next(Opcode.SCSI_RESPONSE).bhs().statSn());
    }

    @Test
    void atErrorRecoveryLevelZeroAFailingConnectionFailsTheSession() {
        Initiator a = twoConnections(new Params());
        Initiator b = h.join(a, 2, 0x800);
        IscsiSession s = a.conn.session();
        b.transport.close(); // the peer reset connection 2
        assertTrue(a.transport.closed, "session recovery takes every connection");
        assertEquals(SessionState.FAILED, s.state());
        assertTrue(s.connections().isEmpty());
        h.now += 20 * Harness.SECOND;
        h.target.tick();
        assertEquals(SessionState.FREE, s.state());
    }

    @Test
    void aReinstatingLoginEndsAFailedSessionAtOnce() {
        Initiator a = h.login(new Params());
        IscsiSession s = a.conn.session();
        a.transport.close();
        assertEquals(SessionState.FAILED, s.state());
        h.login(new LoginOutcome(s.isid(), 0, 1, Harness.INI, Harness.IQN, false, h.tpg, new Params().build(), 1), 1);
        assertEquals(SessionState.FREE, s.state());
        assertEquals(1, h.target.sessions().size());
    }

    @Test
    void commandsOfADroppedConnectionAreAnsweredNowhere() {
        Initiator a = h.login(new Params());
        a.command(Cdb.testUnitReady(), 0);
        a.received();
        h.hold = true;
        a.command(Cdb.read10(0, 1, 0), 512);
        a.transport.close();
        h.runHeld(); // the core completes it; nothing may be sent on a closed transport
        assertTrue(a.transport.closed);
        assertNull(a.conn.session().task(0x11));
        assertFalse(h.target.sessions().isEmpty());
        List<Pdu> none = a.received();
        assertTrue(none.isEmpty());
    }
}
