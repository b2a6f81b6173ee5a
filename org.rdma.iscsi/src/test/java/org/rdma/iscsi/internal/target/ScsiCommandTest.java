package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.scsi.Cdb;

/** SCSI Command, Data-In with status collapse, SCSI Response, residuals (RFC 7143 11.3, 11.4, 11.7). */
class ScsiCommandTest {
    final Harness h = new Harness();

    static byte[] pattern(int len, int seed) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (i * 7 + seed + (i >> 9));
        }
        return b;
    }

    void clearUnitAttention(Initiator i) {
        i.command(Cdb.testUnitReady(), 0);
        i.received();
    }

    @Test
    void firstCommandGetsTheUnitAttentionThenGood() {
        Initiator i = h.login(new Params());
        i.command(Cdb.testUnitReady(), 0);
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        // 11.4: flags 0x80, Response 0, CHECK CONDITION, 20 bytes of data, ITT 0x10, StatSN 0x100,
        // ExpCmdSN 2, MaxCmdSN 1 + 8 - 1 + 1 (the task retired as it answered), ExpDataSN 0, no residual.
        assertEquals("21800002 00000014 00000000 00000000 00000010 00000000 00000100 00000002 00000009 00000000"
                + " 00000000 00000000", Hex.words(r.header()));
        // 11.4.7.2: SenseLength 18, then fixed sense: UNIT ATTENTION, 29h/00h.
        assertEquals("00127000 06000000 000a0000 00002900 00000000", Hex.words(r.data()));
        i.command(Cdb.testUnitReady(), 0);
        assertEquals("21800000 00000000 00000000 00000000 00000011 00000000 00000101 00000003 0000000a 00000000"
                + " 00000000 00000000", Hex.words(i.next(Opcode.SCSI_RESPONSE).header()));
        i.nothingMore();
    }

    @Test
    void readSplitsDataInByMaxRecvDataSegmentLengthAndMaxBurstLengthAndCollapsesTheStatus() throws Exception {
        Params p = new Params();
        p.maxXmitDataSegmentLength = 1024;
        p.maxBurstLength = 2048;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        byte[] data = pattern(4096, 3);
        h.disk.write(8, ByteBuffer.wrap(data), false);
        int itt = i.command(Cdb.read10(8, 8, 0), 4096);
        List<Pdu> pdus = i.received();
        assertEquals(4, pdus.size());
        for (int n = 0; n < 4; n++) {
            Pdu d = pdus.get(n);
            Bhs b = d.bhs();
            assertEquals(Opcode.SCSI_DATA_IN, d.opcode());
            assertEquals(itt, b.itt());
            assertEquals(Bhs.RESERVED_TAG, b.ttt());
            assertEquals(n, b.dataSn());
            assertEquals(n * 1024, b.bufferOffset());
            assertEquals(n % 2 == 1, b.finalBit(), "F ends each 2048-byte sequence");
            assertEquals(n == 3, b.statusPresent());
            assertArrayEquals(Arrays.copyOfRange(data, n * 1024, n * 1024 + 1024), d.data());
        }
        // The last: F and S, GOOD, StatSN 0x101, ExpCmdSN 3, MaxCmdSN 10, DataSN 3, offset 3072.
        assertEquals("25810000 00000400 00000000 00000000 00000011 ffffffff 00000101 00000003 0000000a 00000003"
                + " 00000c00 00000000", Hex.words(pdus.get(3).header()));
        // Without S, StatSN is not taken (0) but ExpCmdSN and MaxCmdSN are current.
        assertEquals("25000000 00000400 00000000 00000000 00000011 ffffffff 00000000 00000003 00000009 00000000"
                + " 00000000 00000000", Hex.words(pdus.get(0).header()));
    }

    @Test
    void readShorterThanTheExpectedLengthReportsUnderflowInTheLastDataIn() {
        Initiator i = h.login(new Params());
        clearUnitAttention(i);
        int itt = i.command(Cdb.read10(0, 1, 0), 4096);
        Pdu d = i.next(Opcode.SCSI_DATA_IN);
        Bhs b = d.bhs();
        assertEquals(itt, b.itt());
        assertEquals(512, d.data().length);
        assertTrue(b.statusPresent() && b.finalBit() && b.residualUnderflow() && !b.residualOverflow());
        assertEquals(4096 - 512, b.residualCount());
        i.nothingMore();
    }

    @Test
    void checkConditionOfAReadComesInAScsiResponseWithSense() {
        Initiator i = h.login(new Params());
        clearUnitAttention(i);
        i.command(Cdb.read10(2048, 1, 0), 512); // LBA 2048 is past the 2048-block disk
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(0x02, r.bhs().status());
        assertTrue(r.bhs().residualUnderflow());
        assertEquals(512, r.bhs().residualCount());
        byte[] sense = Arrays.copyOfRange(r.data(), 2, r.data().length);
        assertEquals(0x05, sense[2] & 0x0f, "ILLEGAL REQUEST");
        assertEquals(0x21, sense[12] & 0xff, "LOGICAL BLOCK ADDRESS OUT OF RANGE");
    }

    @Test
    void writeWithImmediateDataAndR2tsBoundedByMaxBurstAndMaxOutstandingR2t() throws Exception {
        Params p = new Params();
        p.maxBurstLength = 1024;
        p.maxOutstandingR2T = 2;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        byte[] data = pattern(4096, 9);
        int itt = i.command(Cdb.write10(16, 8, 0), 4096, false, true, true, Arrays.copyOf(data, 512));
        List<Pdu> r2ts = i.received();
        assertEquals(2, r2ts.size(), "MaxOutstandingR2T=2");
        // 11.8: R2T with LUN, ITT, TTT, StatSN (not taken), ExpCmdSN, MaxCmdSN, R2TSN 0, offset 512, 1024 bytes.
        Bhs first = r2ts.get(0).bhs();
        assertEquals("31800000 00000000 00000000 00000000 00000011 " + String.format("%08x", first.ttt())
                + " 00000101 00000003 00000009 00000000 00000200 00000400", Hex.words(r2ts.get(0).header()));
        Bhs second = r2ts.get(1).bhs();
        assertEquals(1, second.r2tSn());
        assertEquals(1536, second.bufferOffset());
        assertEquals(1024, second.desiredDataTransferLength());
        // The first sequence in two PDUs; its end lets the third R2T go.
        i.dataOut(itt, first.ttt(), 0, 512, Arrays.copyOfRange(data, 512, 1024), false);
        i.nothingMore();
        i.dataOut(itt, first.ttt(), 1, 1024, Arrays.copyOfRange(data, 1024, 1536), true);
        Bhs third = i.next(Opcode.READY_TO_TRANSFER).bhs();
        assertEquals(2, third.r2tSn());
        assertEquals(2560, third.bufferOffset());
        assertEquals(1024, third.desiredDataTransferLength());
        i.dataOut(itt, second.ttt(), 0, 1536, Arrays.copyOfRange(data, 1536, 2560), true);
        Bhs fourth = i.next(Opcode.READY_TO_TRANSFER).bhs();
        assertEquals(3584, fourth.bufferOffset());
        assertEquals(512, fourth.desiredDataTransferLength());
        i.dataOut(itt, third.ttt(), 0, 2560, Arrays.copyOfRange(data, 2560, 3584), true);
        i.nothingMore();
        i.dataOut(itt, fourth.ttt(), 0, 3584, Arrays.copyOfRange(data, 3584, 4096), true);
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(0, r.bhs().status());
        assertEquals(0x101, r.bhs().statSn());
        ByteBuffer back = ByteBuffer.allocate(4096);
        h.disk.read(16, back);
        assertArrayEquals(data, back.array());
    }

    @Test
    void writeWithUnsolicitedDataOutUpToFirstBurstLengthThenR2ts() throws Exception {
        Params p = new Params();
        p.initialR2T = false;
        p.firstBurstLength = 2048;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        byte[] data = pattern(8192, 1);
        int itt = i.command(Cdb.write10(0, 16, 0), 8192, false, true, false, Arrays.copyOf(data, 1024));
        // 13.14: unsolicited data goes up to FirstBurstLength; the R2T asks for the rest.
        Bhs r2t = i.next(Opcode.READY_TO_TRANSFER).bhs();
        assertEquals(2048, r2t.bufferOffset());
        assertEquals(6144, r2t.desiredDataTransferLength());
        i.dataOut(itt, Bhs.RESERVED_TAG, 0, 1024, Arrays.copyOfRange(data, 1024, 2048), true);
        i.nothingMore();
        i.dataOut(itt, r2t.ttt(), 0, 2048, Arrays.copyOfRange(data, 2048, 8192), true);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
        ByteBuffer back = ByteBuffer.allocate(8192);
        h.disk.read(0, back);
        assertArrayEquals(data, back.array());
    }

    @Test
    void writeWhollyImmediateNeedsNoR2t() throws Exception {
        Initiator i = h.login(new Params());
        clearUnitAttention(i);
        byte[] data = pattern(1024, 5);
        i.command(Cdb.write10(4, 2, 0), 1024, false, true, true, data);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
        ByteBuffer back = ByteBuffer.allocate(1024);
        h.disk.read(4, back);
        assertArrayEquals(data, back.array());
    }

    @Test
    void outOfOrderPdusWithDataPduInOrderNoAreAssembled() throws Exception {
        Params p = new Params();
        p.dataPduInOrder = false;
        p.immediateData = false;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        byte[] data = pattern(2048, 2);
        int itt = i.command(Cdb.write10(40, 4, 0), 2048, false, true, true, null);
        Bhs r2t = i.next(Opcode.READY_TO_TRANSFER).bhs();
        i.dataOut(itt, r2t.ttt(), 1, 1024, Arrays.copyOfRange(data, 1024, 2048), false);
        i.dataOut(itt, r2t.ttt(), 0, 0, Arrays.copyOfRange(data, 0, 1024), true);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
        ByteBuffer back = ByteBuffer.allocate(2048);
        h.disk.read(40, back);
        assertArrayEquals(data, back.array());
    }

    @Test
    void aFailedWriteHoldsItsStatusUntilTheUnsolicitedDataIsIn() {
        Params p = new Params();
        p.initialR2T = false;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        // LBA out of range: the core fails it at once, but unsolicited data is still due.
        int itt = i.command(Cdb.write10(4000, 4, 0), 2048, false, true, false, new byte[512]);
        i.nothingMore();
        i.dataOut(itt, Bhs.RESERVED_TAG, 0, 512, new byte[1024], false);
        i.nothingMore();
        i.dataOut(itt, Bhs.RESERVED_TAG, 1, 1536, new byte[512], true);
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(0x02, r.bhs().status());
        assertEquals(0x21, r.data()[2 + 12] & 0xff);
        i.nothingMore();
        assertEquals(0, i.conn.session().tasks());
    }

    @Test
    void headerAndDataDigestsAreOnEveryPduBothWays() throws Exception {
        Params p = new Params();
        p.headerDigest = true;
        p.dataDigest = true;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        byte[] data = pattern(1000, 4);
        h.disk.write(0, ByteBuffer.wrap(Arrays.copyOf(data, 1024)), false);
        i.command(Cdb.read10(0, 2, 0), 1000);
        // The initiator's reader checks both digests; 1000 bytes need no padding, 24 bytes are cut off.
        Pdu d = i.next(Opcode.SCSI_DATA_IN);
        assertArrayEquals(data, d.data());
        assertTrue(d.bhs().residualOverflow());
        assertEquals(24, d.bhs().residualCount());
    }

    @Test
    void immediateCommandsRunAtOnceWithoutTakingACmdSn() {
        Initiator i = h.login(new Params());
        clearUnitAttention(i);
        int sn = i.cmdSn;
        i.send(Opcode.SCSI_COMMAND, b -> b.immediate(true).itt(0x99).cmdSn(sn).expectedDataTransferLength(0).finalBit(true)
                .cdb(Cdb.testUnitReady(), 0, 6), null);
        Bhs r = i.next(Opcode.SCSI_RESPONSE).bhs();
        assertEquals(0x99, r.itt());
        assertEquals(sn, r.expCmdSn(), "an immediate command leaves ExpCmdSN");
        i.command(Cdb.testUnitReady(), 0);
        assertEquals(sn + 1, i.next(Opcode.SCSI_RESPONSE).bhs().expCmdSn());
        assertFalse(i.transport.closed);
    }

    @Test
    void aDataSnOutOfOrderFailsTheTaskAtTheEndOfItsSequenceAndKeepsTheConnection() throws Exception {
        Params p = new Params();
        p.immediateData = false;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        h.disk.write(100, ByteBuffer.wrap(pattern(1024, 1)), false);
        int itt = i.command(Cdb.write10(100, 2, 0), 1024, false, true, true, null);
        Bhs r2t = i.next(Opcode.READY_TO_TRANSFER).bhs();
        i.dataOut(itt, r2t.ttt(), 0, 0, new byte[512], false);
        i.nothingMore();
        i.dataOut(itt, r2t.ttt(), 0, 512, new byte[512], true); // DataSN 0 again
        Pdu r = i.next(Opcode.SCSI_RESPONSE);
        assertEquals(0x02, r.bhs().status());
        // RFC 7143 7.8 b), as for a digest error: ABORTED COMMAND, DATA PHASE ERROR (4Bh/00h).
        assertEquals("0b", String.format("%02x", r.data()[2 + 2]));
        assertEquals(0x4b, r.data()[2 + 12]);
        assertEquals(0x00, r.data()[2 + 13]);
        assertFalse(i.transport.closed);
        ByteBuffer back = ByteBuffer.allocate(1024);
        h.disk.read(100, back);
        assertArrayEquals(pattern(1024, 1), back.array(), "nothing of it was written");
        i.command(Cdb.testUnitReady(), 0);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
    }

    @Test
    void unsolicitedDataOutWithoutImmediateDataStartsAtOffsetZero() throws Exception {
        Params p = new Params();
        p.initialR2T = false;
        p.immediateData = false;
        Initiator i = h.login(p);
        clearUnitAttention(i);
        byte[] data = pattern(1024, 6);
        int itt = i.command(Cdb.write10(100, 2, 0), 1024, false, true, false, null);
        i.nothingMore();
        i.dataOut(itt, Bhs.RESERVED_TAG, 0, 0, Arrays.copyOf(data, 512), false);
        i.dataOut(itt, Bhs.RESERVED_TAG, 1, 512, Arrays.copyOfRange(data, 512, 1024), true);
        assertEquals(0, i.next(Opcode.SCSI_RESPONSE).bhs().status());
        ByteBuffer back = ByteBuffer.allocate(1024);
        h.disk.read(100, back);
        assertArrayEquals(data, back.array());
    }
}
