package org.rdma.iscsi.pdu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.iscsi.pdu.Wire.bytes;
import static org.rdma.iscsi.pdu.Wire.concat;
import static org.rdma.iscsi.pdu.Wire.encode;
import static org.rdma.iscsi.pdu.Wire.hex;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The incremental reader: its stages, and each bad input as its own result. */
class PduReaderTest {

    /** A SCSI Command with a 32-byte CDB, a bidirectional read length and 6 bytes of immediate data. */
    static final byte[] CDB32 = new byte[32];

    static {
        CDB32[0] = 0x7f;
        CDB32[7] = 0x18;
        for (int i = 8; i < 32; i++) {
            CDB32[i] = (byte) (0x20 + i);
        }
    }

    static final byte[] AHS_REGION = hex(
            "00 11 01 00", "30 31 32 33", "34 35 36 37", "38 39 3a 3b", "3c 3d 3e 3f",
            "00 05 02 00", "00 00 10 00");

    private static byte[] bidiCommand(PduWriter w) {
        ByteBuffer out = ByteBuffer.allocate(512);
        w.begin(out, Opcode.SCSI_COMMAND).finalBit(true).read(true).write(true).itt(0x99)
                .expectedDataTransferLength(6);
        w.extendedCdb(CDB32, 32).bidiReadLength(0x1000);
        w.finish(ByteBuffer.wrap(hex("01 02 03 04 05 06")));
        return Arrays.copyOf(out.array(), out.position());
    }

    @Test
    void ahsLaidOutAsFigures11_2_2() {
        byte[] pdu = bidiCommand(new PduWriter());
        assertEquals(7, pdu[4], "TotalAHSLength in words");
        assertEquals(hex(AHS_REGION), hex(Arrays.copyOfRange(pdu, 48, 48 + 28)));
        assertEquals(hex(Arrays.copyOf(CDB32, 16)), hex(Arrays.copyOfRange(pdu, 32, 48)));
    }

    @Test
    void ahsDecoded() {
        PduReader r = Wire.decode(Opcode.SCSI_COMMAND, bidiCommand(new PduWriter()));
        ByteBuffer ahs = r.ahs();
        assertEquals(hex(AHS_REGION), hex(bytes(ahs)));
        assertEquals(32, Ahs.cdbLength(ahs, ahs.position(), ahs.limit()));
        byte[] cdb = new byte[Ahs.MAX_CDB_LENGTH];
        assertEquals(32, Ahs.cdb(r.bhs(), ahs, ahs.position(), ahs.limit(), cdb));
        assertArrayEquals(CDB32, Arrays.copyOf(cdb, 32));
        assertEquals(0x1000, Ahs.bidiReadLength(ahs, ahs.position(), ahs.limit()));
        assertArrayEquals(hex("01 02 03 04 05 06"), bytes(r.data()));
    }

    @Test
    void noAhsMeansA16ByteCdbAndNoBidiLength() {
        PduReader r = Wire.decode(Opcode.SCSI_COMMAND, PduLayoutTest.READ_10);
        ByteBuffer ahs = r.ahs();
        assertEquals(0, ahs.remaining());
        assertEquals(16, Ahs.cdbLength(ahs, ahs.position(), ahs.limit()));
        assertEquals(-1, Ahs.bidiReadLength(ahs, ahs.position(), ahs.limit()));
    }

    @Test
    void byteByByteWithDigestsNamesWhatEachStageNeeds() {
        PduWriter w = new PduWriter();
        w.setDigests(true, true);
        byte[] pdu = bidiCommand(w);
        assertEquals(48 + 28 + 4 + 8 + 4, pdu.length);
        PduReader r = PduReader.forTarget();
        r.setDigests(true, true);
        assertEquals(PduReader.Stage.BHS, r.stage());
        assertEquals(48, r.needed());
        ByteBuffer one = ByteBuffer.allocate(1);
        for (int i = 0; i < pdu.length - 1; i++) {
            one.clear();
            one.put(pdu[i]).flip();
            assertEquals(ReadResult.NEED_MORE, r.read(one), "byte " + i);
            assertEquals(0, one.remaining());
            int got = i + 1;
            if (got < 48) {
                assertEquals(PduReader.Stage.BHS, r.stage());
                assertEquals(48 - got, r.needed());
            } else if (got < 80) {
                assertEquals(PduReader.Stage.AHS, r.stage());
                assertEquals(80 - got, r.needed(), "AHS and header digest");
            } else {
                assertEquals(PduReader.Stage.DATA, r.stage());
                assertEquals(92 - got, r.needed(), "data, padding and data digest");
            }
            assertEquals(ReadResult.TRUNCATED, r.endOfStream());
        }
        one.clear();
        one.put(pdu[pdu.length - 1]).flip();
        assertEquals(ReadResult.PDU, r.read(one));
        assertEquals(0x99, r.bhs().itt());
        assertArrayEquals(hex("01 02 03 04 05 06"), bytes(r.data()));
        assertEquals(ReadResult.END_OF_STREAM, r.endOfStream());
        assertEquals(PduReader.Stage.BHS, r.stage());
    }

    @Test
    void consecutivePdusInOneBufferComeOneAtATime() {
        ByteBuffer src = ByteBuffer.wrap(concat(PduLayoutTest.NOP_OUT, PduLayoutTest.LOGIN_REQUEST,
                PduLayoutTest.READ_10));
        PduReader r = PduReader.forTarget();
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(Opcode.NOP_OUT, r.bhs().opcode());
        Pdu kept = r.copyPdu();
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(Opcode.LOGIN_REQUEST, r.bhs().opcode());
        assertArrayEquals(PduLayoutTest.LOGIN_DATA, bytes(r.data()));
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(Opcode.SCSI_COMMAND, r.bhs().opcode());
        assertEquals(0, r.data().remaining());
        assertFalse(src.hasRemaining());
        assertEquals(ReadResult.NEED_MORE, r.read(src));
        assertEquals(Opcode.NOP_OUT, kept.opcode());
        assertArrayEquals(PduLayoutTest.PING, kept.data());
        assertArrayEquals(Arrays.copyOf(PduLayoutTest.NOP_OUT, 48), kept.header());
    }

    @Test
    void wrongDirectionAndVendorOpcodesAreUnknownAndSkipped() {
        // a NOP-In sent to a target, then a vendor-specific 0x1c with 5 data bytes (padded to 8)
        byte[] vendor = hex("1c 80 00 00", "00 00 00 05", "00 00 00 00", "00 00 00 00",
                "00 00 00 01", "00 00 00 00", "00 00 00 00", "00 00 00 00",
                "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00", "01 02 03 04", "05 00 00 00");
        ByteBuffer src = ByteBuffer.wrap(concat(PduLayoutTest.NOP_IN, vendor, PduLayoutTest.NOP_OUT));
        PduReader r = PduReader.forTarget();
        assertEquals(ReadResult.UNKNOWN_OPCODE, r.read(src));
        assertEquals(Opcode.NOP_IN, r.bhs().opcode(), "the header stays readable for the Reject");
        assertEquals(PduReader.Stage.DISCARD, r.stage());
        assertEquals(4, r.needed());
        assertEquals(ReadResult.UNKNOWN_OPCODE, r.read(src));
        assertEquals(0x1c, r.bhs().opcodeCode());
        assertNull(r.bhs().opcode());
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(Opcode.NOP_OUT, r.bhs().opcode());
        assertArrayEquals(PduLayoutTest.PING, bytes(r.data()));
    }

    @Test
    void initiatorReaderRefusesInitiatorOpcodes() {
        PduReader r = PduReader.forInitiator();
        assertEquals(ReadResult.UNKNOWN_OPCODE, r.read(ByteBuffer.wrap(PduLayoutTest.READ_10)));
    }

    @Test
    void oversizeDataSegmentIsReportedAtTheHeaderAndDiscarded() {
        byte[] big = new byte[8193];
        byte[] pdu = encode(Opcode.SCSI_DATA_OUT, h -> h.itt(3), big);
        ByteBuffer src = ByteBuffer.wrap(concat(pdu, PduLayoutTest.NOP_OUT));
        PduReader r = PduReader.forTarget();
        src.limit(48);
        assertEquals(ReadResult.OVERSIZE, r.read(src), "known from the header alone");
        assertEquals(8193, r.bhs().dataSegmentLength());
        assertEquals(8196, r.needed(), "the padded segment is skipped, not buffered");
        src.limit(src.capacity());
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(Opcode.NOP_OUT, r.bhs().opcode());
    }

    @Test
    void maxRecvDataSegmentLengthIsTheLimit() {
        byte[] pdu = encode(Opcode.SCSI_DATA_OUT, h -> { }, new byte[8193]);
        PduReader r = PduReader.forTarget();
        r.setMaxRecvDataSegmentLength(8193);
        assertEquals(ReadResult.PDU, r.read(ByteBuffer.wrap(pdu)));
        assertEquals(8193, r.data().remaining());
        r.setMaxRecvDataSegmentLength(512);
        assertEquals(ReadResult.OVERSIZE, r.read(ByteBuffer.wrap(pdu)));
    }

    @Test
    void maxRecvDataSegmentLengthOutsideTheRfcRange() {
        PduReader r = PduReader.forTarget();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> r.setMaxRecvDataSegmentLength(511))
                .getMessage().startsWith("EINVAL"));
        assertThrows(IllegalArgumentException.class, () -> r.setMaxRecvDataSegmentLength(1 << 24));
    }

    @Test
    void dataSegmentOnAnOpcodeWithoutOneIsAnInvalidField() {
        byte[] tmf = PduLayoutTest.TMF_REQUEST.clone();
        tmf[7] = 4;
        ByteBuffer src = ByteBuffer.wrap(concat(tmf, hex("de ad be ef"), PduLayoutTest.NOP_OUT));
        PduReader r = PduReader.forTarget();
        assertEquals(ReadResult.INVALID_FIELD, r.read(src));
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(Opcode.NOP_OUT, r.bhs().opcode());
    }

    @Test
    void ahsThatDoesNotFillTotalAhsLengthIsAnInvalidField() {
        byte[] cmd = concat(PduLayoutTest.READ_10, hex("00 05 02 00"));
        cmd[4] = 1; // one word, but a bidi AHS needs two
        assertEquals(ReadResult.INVALID_FIELD, PduReader.forTarget().read(ByteBuffer.wrap(cmd)));
        byte[] zero = concat(PduLayoutTest.READ_10, hex("00 00 01 00"));
        zero[4] = 1;
        assertEquals(ReadResult.INVALID_FIELD, PduReader.forTarget().read(ByteBuffer.wrap(zero)));
    }

    @Test
    void headerDigestErrorLosesTheStream() {
        PduWriter w = new PduWriter();
        w.setDigests(true, false);
        byte[] pdu = encode(w, Opcode.NOP_OUT, h -> h.itt(1), PduLayoutTest.PING);
        pdu[17] ^= 1;
        PduReader r = PduReader.forTarget();
        r.setDigests(true, false);
        ByteBuffer src = ByteBuffer.wrap(concat(pdu, PduLayoutTest.NOP_OUT));
        assertEquals(ReadResult.HEADER_DIGEST_ERROR, r.read(src));
        assertTrue(ReadResult.HEADER_DIGEST_ERROR.dropsConnection());
        assertEquals(PduReader.Stage.FAILED, r.stage());
        assertEquals(ReadResult.HEADER_DIGEST_ERROR, r.read(src), "no PDU after a lost header");
        assertEquals(ReadResult.HEADER_DIGEST_ERROR, r.endOfStream());
    }

    @Test
    void dataDigestErrorDiscardsOnlyThatPdu() {
        PduWriter w = new PduWriter();
        w.setDigests(false, true);
        byte[] bad = encode(w, Opcode.SCSI_DATA_OUT, h -> h.itt(1), PduLayoutTest.PING);
        bad[49] ^= 0x20;
        byte[] good = encode(w, Opcode.SCSI_DATA_OUT, h -> h.itt(2), PduLayoutTest.PING);
        PduReader r = PduReader.forTarget();
        r.setDigests(false, true);
        ByteBuffer src = ByteBuffer.wrap(concat(bad, good));
        assertEquals(ReadResult.DATA_DIGEST_ERROR, r.read(src));
        assertEquals(1, r.bhs().itt(), "the header of the PDU to reject");
        assertEquals(0, r.data().remaining(), "no data handed out from a bad segment");
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(2, r.bhs().itt());
        assertArrayEquals(PduLayoutTest.PING, bytes(r.data()));
    }

    @Test
    void digestsChangeBetweenPdusNotInsideOne() {
        PduWriter w = new PduWriter();
        byte[] plain = encode(w, Opcode.LOGIN_REQUEST, h -> h.itt(1), PduLayoutTest.PING);
        w.setDigests(true, true);
        byte[] digested = encode(w, Opcode.NOP_OUT, h -> h.itt(2), PduLayoutTest.PING);
        PduReader r = PduReader.forTarget();
        ByteBuffer src = ByteBuffer.wrap(concat(plain, digested));
        src.limit(50);
        assertEquals(ReadResult.NEED_MORE, r.read(src));
        r.setDigests(true, true);
        src.limit(src.capacity());
        assertEquals(ReadResult.PDU, r.read(src), "the login PDU the reader was inside has no digests");
        assertEquals(ReadResult.PDU, r.read(src));
        assertEquals(2, r.bhs().itt());
        assertFalse(src.hasRemaining());
    }

    @Test
    void truncatedInEachStage() {
        for (int cut : new int[] {1, 47, 48, 50, 51}) {
            PduReader r = PduReader.forTarget();
            assertEquals(ReadResult.NEED_MORE, r.read(ByteBuffer.wrap(PduLayoutTest.NOP_OUT, 0, cut)));
            assertEquals(ReadResult.TRUNCATED, r.endOfStream(), "cut after " + cut);
        }
        PduReader r = PduReader.forTarget();
        assertEquals(ReadResult.END_OF_STREAM, r.endOfStream());
        byte[] tmf = PduLayoutTest.TMF_REQUEST.clone();
        tmf[7] = 4;
        assertEquals(ReadResult.INVALID_FIELD, r.read(ByteBuffer.wrap(tmf)));
        assertEquals(ReadResult.TRUNCATED, r.endOfStream(), "inside a segment being skipped");
    }

    @Test
    void eachResultHasTheRfcAnswer() {
        assertEquals(RejectReason.COMMAND_NOT_SUPPORTED, ReadResult.UNKNOWN_OPCODE.rejectReason());
        assertEquals(RejectReason.PROTOCOL_ERROR, ReadResult.OVERSIZE.rejectReason());
        assertEquals(RejectReason.INVALID_PDU_FIELD, ReadResult.INVALID_FIELD.rejectReason());
        assertEquals(RejectReason.DATA_DIGEST_ERROR, ReadResult.DATA_DIGEST_ERROR.rejectReason());
        assertEquals(0x02, RejectReason.DATA_DIGEST_ERROR.code());
        for (ReadResult r : ReadResult.values()) {
            assertTrue(r.rejectReason() == null || !r.dropsConnection(), r + ": a Reject or a drop, not both");
        }
        assertTrue(ReadResult.TRUNCATED.dropsConnection());
        assertFalse(ReadResult.PDU.dropsConnection());
    }

    @Test
    void gatherWriteEqualsCopyingWrite() {
        PduWriter w = new PduWriter();
        w.setDigests(true, true);
        ByteBuffer data = ByteBuffer.wrap(hex("0a 0b 0c 0d 0e 0f"));
        byte[] copied = encode(w, Opcode.SCSI_DATA_IN, h -> h.itt(4).dataSn(1), data.array());
        ByteBuffer head = ByteBuffer.allocate(52);
        w.begin(head, Opcode.SCSI_DATA_IN).itt(4).dataSn(1);
        w.finishHeader(data.remaining());
        ByteBuffer tail = ByteBuffer.allocate(6);
        w.trailer(data, tail);
        assertEquals(0, data.position(), "the caller's data buffer does not move");
        assertEquals(hex(copied), hex(concat(head.array(), data.array(), tail.array())));
        assertEquals(copied.length, w.wireLength(0, 6));
    }

    @Test
    void writerRefusesABufferTooSmall() {
        PduWriter w = new PduWriter();
        assertThrows(BufferOverflowException.class, () -> w.begin(ByteBuffer.allocate(47), Opcode.NOP_OUT));
        ByteBuffer out = ByteBuffer.allocate(50);
        w.begin(out, Opcode.NOP_OUT);
        assertThrows(BufferOverflowException.class, () -> w.finish(ByteBuffer.wrap(PduLayoutTest.PING)));
    }

    @Test
    void writerKeepsWhatIsBeforeThePdu() {
        ByteBuffer out = ByteBuffer.allocate(200);
        out.put(hex("aa bb"));
        new PduWriter().begin(out, Opcode.NOP_OUT).itt(1);
        assertEquals(0xaa, out.get(0) & 0xff);
        assertEquals(2 + 48, out.position());
    }
}
