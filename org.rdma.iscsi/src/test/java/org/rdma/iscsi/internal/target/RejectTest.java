package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.scsi.Cdb;

/**
 * Bad input from the wire (RFC 7143 11.17, 7.8): each gets its Reject reason, or the connection
 * is dropped where the stream cannot be trusted; the session goes on serving the next command.
 */
class RejectTest {
    final Harness h = new Harness();

    private Initiator clean(Params p) {
        Initiator i = h.login(p);
        i.command(Cdb.testUnitReady(), 0);
        i.received();
        return i;
    }

    private static void assertReject(Initiator i, int reason, ByteBuffer sent) {
        Pdu r = i.next(Opcode.REJECT);
        assertEquals(reason, r.bhs().reason());
        assertEquals(Bhs.RESERVED_TAG, r.bhs().itt());
        byte[] header = new byte[Bhs.BHS_LENGTH];
        sent.get(0, header);
        assertArrayEquals(header, r.data(), "the data segment is the rejected header");
    }

    /** The session still answers a command with the next CmdSN: the rejected one took its place. */
    private static void stillServing(Initiator i) {
        i.command(Cdb.testUnitReady(), 0);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
        assertFalse(i.transport.closed);
    }

    @Test
    void anUnknownOpcodeIsCommandNotSupported() {
        Initiator i = clean(new Params());
        ByteBuffer pdu = i.encode(Opcode.NOP_OUT, b -> b.itt(0x1).cmdSn(i.cmdSn), null);
        pdu.put(0, (byte) 0x1c);
        i.feed(pdu.duplicate());
        assertReject(i, 0x05, pdu);
        stillServing(i);
    }

    @Test
    void aDataSegmentAboveMaxRecvDataSegmentLengthIsAProtocolError() {
        Initiator i = clean(new Params()); // MaxRecvDataSegmentLength 8192
        int sn = i.cmdSn++;
        ByteBuffer pdu = i.encode(Opcode.NOP_OUT, b -> b.itt(0x2).ttt(Bhs.RESERVED_TAG).cmdSn(sn), new byte[8196]);
        i.feed(pdu.duplicate());
        assertReject(i, 0x04, pdu);
        stillServing(i);
    }

    @Test
    void aDataSegmentOnAPduThatHasNoneIsAnInvalidField() {
        Initiator i = clean(new Params());
        ByteBuffer pdu = i.encode(Opcode.TASK_MGMT_REQUEST, b -> b.immediate(true).function(1).itt(0x3)
                .cmdSn(i.cmdSn), new byte[4]);
        i.feed(pdu.duplicate());
        assertReject(i, 0x09, pdu);
        stillServing(i);
    }

    @Test
    void aDataDigestErrorIsRejectedAndTheNopOutNotAnswered() {
        Params p = new Params();
        p.headerDigest = true;
        p.dataDigest = true;
        Initiator i = clean(p);
        ByteBuffer pdu = i.encode(Opcode.NOP_OUT, b -> b.immediate(true).itt(0x4).ttt(Bhs.RESERVED_TAG)
                .cmdSn(i.cmdSn), "ping".getBytes());
        pdu.put(52, (byte) 'P'); // the data, after 48 header bytes and the header digest
        i.feed(pdu.duplicate());
        assertReject(i, 0x02, pdu);
        assertEquals(1, i.conn.stats().digestErrors());
        stillServing(i);
    }

    @Test
    void aHeaderDigestErrorDropsTheConnection() {
        Params p = new Params();
        p.headerDigest = true;
        Initiator i = clean(p);
        ByteBuffer pdu = i.encode(Opcode.NOP_OUT, b -> b.immediate(true).itt(0x5).ttt(Bhs.RESERVED_TAG)
                .cmdSn(i.cmdSn), null);
        pdu.put(20, (byte) 0x55);
        i.feed(pdu);
        i.nothingMore();
        assertTrue(i.transport.closed);
        assertEquals(SessionState.FAILED, i.conn.session().state(), "kept for DefaultTime2Retain");
    }

    @Test
    void snackAtErrorRecoveryLevelZeroAndLoginInTheFullFeaturePhaseAreProtocolErrors() {
        Initiator i = clean(new Params());
        ByteBuffer snack = i.encode(Opcode.SNACK_REQUEST, b -> b.itt(0x6).snackType(0), null);
        i.feed(snack.duplicate());
        assertReject(i, 0x04, snack);
        ByteBuffer login = i.encode(Opcode.LOGIN_REQUEST, b -> b.itt(0x7).cmdSn(i.cmdSn), null);
        i.feed(login.duplicate());
        assertReject(i, 0x04, login);
        stillServing(i);
    }

    @Test
    void badScsiCommandsGetTheirReasonAndStillTakeTheirCmdSn() {
        Params p = new Params();
        p.immediateData = false;
        Initiator i = clean(p);
        byte[] read = Cdb.read10(0, 1, 0);
        // F clear without W: invalid field.
        int sn1 = i.cmdSn++;
        ByteBuffer a = i.encode(Opcode.SCSI_COMMAND, b -> b.itt(0x71).cmdSn(sn1).read(true)
                .expectedDataTransferLength(512).cdb(read, 0, 10), null);
        i.feed(a.duplicate());
        assertReject(i, 0x09, a);
        // R and W: bidirectional, which the SCSI layer does not do.
        int sn2 = i.cmdSn++;
        ByteBuffer bidi = i.encode(Opcode.SCSI_COMMAND, b -> b.itt(0x72).cmdSn(sn2).read(true).write(true)
                .finalBit(true).expectedDataTransferLength(512).cdb(read, 0, 10), null);
        i.feed(bidi.duplicate());
        assertReject(i, 0x05, bidi);
        // Immediate data with ImmediateData=No: protocol error.
        int sn3 = i.cmdSn++;
        ByteBuffer imm = i.encode(Opcode.SCSI_COMMAND, b -> b.itt(0x73).cmdSn(sn3).write(true).finalBit(true)
                .expectedDataTransferLength(512).cdb(Cdb.write10(0, 1, 0), 0, 10), new byte[512]);
        i.feed(imm.duplicate());
        assertReject(i, 0x04, imm);
        // Neither R nor W with a transfer length: invalid field.
        int sn4 = i.cmdSn++;
        ByteBuffer none = i.encode(Opcode.SCSI_COMMAND, b -> b.itt(0x74).cmdSn(sn4).finalBit(true)
                .expectedDataTransferLength(512).cdb(read, 0, 10), null);
        i.feed(none.duplicate());
        assertReject(i, 0x09, none);
        assertEquals(0, i.conn.session().tasks());
        stillServing(i);
    }

    @Test
    void immediateDataBeyondFirstBurstLengthIsAnInvalidField() {
        Params p = new Params();
        p.firstBurstLength = 1024;
        Initiator i = clean(p);
        int sn = i.cmdSn++;
        ByteBuffer w = i.encode(Opcode.SCSI_COMMAND, b -> b.itt(0x75).cmdSn(sn).write(true).finalBit(true)
                .expectedDataTransferLength(2048).cdb(Cdb.write10(0, 4, 0), 0, 10), new byte[2048]);
        i.feed(w.duplicate());
        assertReject(i, 0x09, w);
        stillServing(i);
    }

    @Test
    void dataOutFieldErrorsAreRejectedAndUnknownTasksIgnored() {
        Params p = new Params();
        p.immediateData = false;
        Initiator i = clean(p);
        int itt = i.command(Cdb.write10(0, 2, 0), 1024, false, true, true, null);
        Bhs r2t = i.next(Opcode.READY_TO_TRANSFER).bhs();
        ByteBuffer badTtt = i.encode(Opcode.SCSI_DATA_OUT, b -> b.itt(itt).ttt(r2t.ttt() + 1).finalBit(true), new byte[512]);
        i.feed(badTtt.duplicate());
        assertReject(i, 0x09, badTtt);
        ByteBuffer beyond = i.encode(Opcode.SCSI_DATA_OUT, b -> b.itt(itt).ttt(r2t.ttt()).bufferOffset(768), new byte[512]);
        i.feed(beyond.duplicate());
        assertReject(i, 0x09, beyond);
        i.dataOut(0x9999, r2t.ttt(), 0, 0, new byte[512], true);
        i.nothingMore();
        assertEquals(1, i.conn.stats().unknownItt());
        i.dataOut(itt, r2t.ttt(), 0, 0, new byte[1024], true);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
    }

    @Test
    void unsolicitedDataOutWithInitialR2tYesIsRejectedAndDropsTheConnection() {
        Initiator i = clean(new Params()); // InitialR2T=Yes
        int itt = i.command(Cdb.write10(0, 2, 0), 1024, false, true, true, new byte[512]);
        Bhs r2t = i.next(Opcode.READY_TO_TRANSFER).bhs();
        assertEquals(512, r2t.bufferOffset());
        ByteBuffer unsolicited = i.encode(Opcode.SCSI_DATA_OUT, b -> b.itt(itt).ttt(Bhs.RESERVED_TAG).bufferOffset(512)
                .finalBit(true), new byte[512]);
        i.feed(unsolicited.duplicate());
        assertReject(i, 0x04, unsolicited);
        assertTrue(i.transport.closed);
    }

    @Test
    void aDataDigestErrorInDataOutEndsTheTaskWithCheckConditionOnceItsDataIsIn() throws Exception {
        Params p = new Params();
        p.dataDigest = true;
        p.immediateData = false;
        Initiator i = clean(p);
        byte[] before = ScsiCommandTest.pattern(1024, 3);
        h.disk.write(0, ByteBuffer.wrap(before), false);
        int itt = i.command(Cdb.write10(0, 2, 0), 1024, false, true, true, null);
        Bhs r2t = i.next(Opcode.READY_TO_TRANSFER).bhs();
        ByteBuffer first = i.encode(Opcode.SCSI_DATA_OUT, b -> b.itt(itt).ttt(r2t.ttt()), new byte[512]);
        first.put(60, (byte) 1);
        i.feed(first.duplicate());
        assertReject(i, 0x02, first);
        i.dataOut(itt, r2t.ttt(), 1, 512, new byte[512], true);
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(0x02, r.bhs().status());
        assertEquals(0x0b, r.data()[2 + 2], "ABORTED COMMAND");
        assertEquals(0x47, r.data()[2 + 12]);
        assertEquals(0x05, r.data()[2 + 13], "PROTOCOL SERVICE CRC ERROR");
        ByteBuffer back = ByteBuffer.allocate(1024);
        h.disk.read(0, back);
        assertArrayEquals(before, back.array());
        stillServing(i);
    }

    @Test
    void aTagInUseIsAnOverlappedCommand() {
        Params p = new Params();
        p.immediateData = false;
        Initiator i = clean(p);
        int sn = i.cmdSn;
        int itt = i.command(Cdb.write10(0, 1, 0), 512, false, true, true, null);
        i.next(Opcode.READY_TO_TRANSFER);
        i.send(Opcode.SCSI_COMMAND, b -> b.itt(itt).cmdSn(sn + 1).finalBit(true).cdb(Cdb.testUnitReady(), 0, 6), null);
        i.cmdSn++;
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(itt, r.bhs().itt());
        assertEquals(0x0b, r.data()[2 + 2]);
        assertEquals(0x4e, r.data()[2 + 12], "OVERLAPPED COMMANDS ATTEMPTED");
        assertEquals(1, i.conn.session().tasks(), "the first still holds the tag");
    }

    @Test
    void aDiscoverySessionRejectsScsiCommands() {
        Params p = new Params();
        p.discovery = true;
        Initiator i = h.login(p);
        ByteBuffer cmd = i.encode(Opcode.SCSI_COMMAND, b -> b.itt(0x8).cmdSn(1).finalBit(true)
                .cdb(Cdb.testUnitReady(), 0, 6), null);
        i.feed(cmd.duplicate());
        assertReject(i, 0x04, cmd);
        assertEquals(0, i.conn.session().tasks());
    }
}
