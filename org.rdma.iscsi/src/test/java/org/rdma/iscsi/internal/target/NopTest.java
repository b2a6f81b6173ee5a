package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;

/** NOP-Out and NOP-In both ways (RFC 7143 11.18, 11.19), timers on the virtual clock. */
class NopTest {
    final Harness h = new Harness();

    @Test
    void aNopOutWithAnIttIsAnsweredWithItsPingData() {
        Initiator i = h.login(new Params());
        byte[] ping = "ping-data".getBytes();
        i.send(Opcode.NOP_OUT, b -> b.itt(0x42).ttt(Bhs.RESERVED_TAG).cmdSn(1).lun(0x0001_0000_0000_0000L), ping);
        Pdu r = i.next(Opcode.NOP_IN);
        // 11.19: F, LUN echoed, ITT, TTT reserved, StatSN taken, ExpCmdSN past the NOP-Out's CmdSN.
        assertEquals("20800000 00000009 00010000 00000000 00000042 ffffffff 00000100 00000002 00000009 00000000"
                + " 00000000 00000000", Hex.words(r.header()));
        assertArrayEquals(ping, r.data());
    }

    @Test
    void aNopOutWithTheReservedIttMustBeImmediate() {
        Initiator i = h.login(new Params());
        i.send(Opcode.NOP_OUT, b -> b.itt(Bhs.RESERVED_TAG).ttt(Bhs.RESERVED_TAG).cmdSn(1), null);
        Pdu r = i.next(Opcode.REJECT);
        assertEquals(0x04, r.bhs().reason());
        assertEquals(Bhs.BHS_LENGTH, r.data().length);
        i.send(Opcode.NOP_OUT, b -> b.immediate(true).itt(Bhs.RESERVED_TAG).ttt(Bhs.RESERVED_TAG).cmdSn(2), null);
        i.nothingMore(); // a one-way NOP-Out is not answered
    }

    @Test
    void anIdleConnectionIsPingedAndKeptWhileItAnswers() {
        Initiator i = h.login(new Params());
        h.now += 14 * Harness.SECOND;
        h.target.tick();
        i.nothingMore();
        h.now += Harness.SECOND;
        h.target.tick();
        Bhs ping = i.next(Opcode.NOP_IN).bhs();
        assertEquals(Bhs.RESERVED_TAG, ping.itt());
        assertNotEquals(Bhs.RESERVED_TAG, ping.ttt());
        assertEquals(0x100, ping.statSn(), "a ping carries StatSN without taking it");
        h.now += 29 * Harness.SECOND;
        h.target.tick();
        i.send(Opcode.NOP_OUT, b -> b.immediate(true).itt(Bhs.RESERVED_TAG).ttt(ping.ttt()).cmdSn(1), null);
        h.now += 2 * Harness.SECOND;
        h.target.tick();
        i.nothingMore();
        assertFalse(i.transport.closed);
        assertEquals(ConnState.LOGGED_IN, i.conn.state());
    }

    @Test
    void anUnansweredPingDropsTheConnectionAndTime2RetainThenFreesTheSession() {
        Initiator i = h.login(new Params()); // DefaultTime2Retain 20
        h.now += 15 * Harness.SECOND;
        h.target.tick();
        i.next(Opcode.NOP_IN);
        h.now += 30 * Harness.SECOND;
        h.target.tick();
        assertTrue(i.transport.closed);
        IscsiSession s = i.conn.session();
        assertEquals(SessionState.FAILED, s.state());
        h.now += 19 * Harness.SECOND;
        h.target.tick();
        assertEquals(1, h.target.sessions().size(), "kept for DefaultTime2Retain");
        h.now += Harness.SECOND;
        h.target.tick();
        assertEquals(SessionState.FREE, s.state());
        assertTrue(h.target.sessions().isEmpty());
    }
}
