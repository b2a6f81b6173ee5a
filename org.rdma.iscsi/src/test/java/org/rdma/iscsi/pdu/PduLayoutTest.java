package org.rdma.iscsi.pdu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.iscsi.pdu.Wire.ascii;
import static org.rdma.iscsi.pdu.Wire.bytes;
import static org.rdma.iscsi.pdu.Wire.concat;
import static org.rdma.iscsi.pdu.Wire.decode;
import static org.rdma.iscsi.pdu.Wire.encode;
import static org.rdma.iscsi.pdu.Wire.hex;

import org.junit.jupiter.api.Test;

/**
 * Every opcode laid out by hand from its RFC 7143 chapter 11 figure (one row of hex per 4-byte
 * line of the figure): the writer produces exactly these bytes from the named fields, and the
 * reader gives the same fields back from them.
 */
class PduLayoutTest {
    static final byte[] PING = ascii("ping");

    private static void assertWire(byte[] expected, byte[] actual) {
        assertEquals(hex(expected), hex(actual));
    }

    // ------------------------------------------------------------------ initiator opcodes

    static final byte[] NOP_OUT = hex(
            "40 80 00 00", "00 00 00 04", "00 01 00 00", "00 00 00 00",
            "00 00 00 11", "ff ff ff ff", "00 00 00 22", "00 00 00 33",
            "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "70 69 6e 67");

    @Test
    void nopOutFigure11_18() {
        assertWire(NOP_OUT, encode(Opcode.NOP_OUT, h -> h.immediate(true).lun(0x0001000000000000L)
                .itt(0x11).ttt(Bhs.RESERVED_TAG).cmdSn(0x22).expStatSn(0x33), PING));
        Bhs h = decode(Opcode.NOP_OUT, NOP_OUT).bhs();
        assertTrue(h.immediate());
        assertTrue(h.finalBit());
        assertEquals(0x0001000000000000L, h.lun());
        assertEquals(0x11, h.itt());
        assertEquals(Bhs.RESERVED_TAG, h.ttt());
        assertEquals(0x22, h.cmdSn());
        assertEquals(0x33, h.expStatSn());
        assertEquals(4, h.dataSegmentLength());
    }

    /** RFC 3720 B.4's SCSI Read (10) Command PDU. */
    static final byte[] READ_10 = hex(
            "01 c0 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "14 00 00 00", "00 00 04 00", "00 00 00 14", "00 00 00 18",
            "28 00 00 00", "00 00 00 00", "02 00 00 00", "00 00 00 00");

    @Test
    void scsiCommandFigure11_3() {
        byte[] cdb = hex("28 00 00 00 00 00 00 00 02 00");
        assertWire(READ_10, encode(Opcode.SCSI_COMMAND, h -> h.finalBit(true).read(true).attr(0)
                .itt(0x14000000).expectedDataTransferLength(1024).cmdSn(0x14).expStatSn(0x18)
                .cdb(cdb, 0, cdb.length), null));
        Bhs h = decode(Opcode.SCSI_COMMAND, READ_10).bhs();
        assertFalse(h.immediate());
        assertTrue(h.finalBit());
        assertTrue(h.read());
        assertFalse(h.write());
        assertEquals(0, h.attr());
        assertEquals(0x14000000, h.itt());
        assertEquals(1024, h.expectedDataTransferLength());
        assertEquals(0x14, h.cmdSn());
        assertEquals(0x18, h.expStatSn());
        byte[] got = new byte[16];
        h.cdb(got, 0);
        assertArrayEquals(concat(cdb, new byte[6]), got);
    }

    static final byte[] WRITE_IMMEDIATE = hex(
            "01 a1 00 00", "00 00 00 06", "00 02 00 00", "00 00 00 00",
            "00 00 00 21", "00 00 02 00", "00 00 00 30", "00 00 00 40",
            "2a 00 00 00", "00 10 00 00", "01 00 00 00", "00 00 00 00",
            "01 02 03 04", "05 06 00 00");

    @Test
    void scsiCommandWithImmediateDataIsPadded() {
        byte[] cdb = hex("2a 00 00 00 00 10 00 00 01 00");
        byte[] data = hex("01 02 03 04 05 06");
        assertWire(WRITE_IMMEDIATE, encode(Opcode.SCSI_COMMAND, h -> h.finalBit(true).write(true).attr(1)
                .lun(0x0002000000000000L).itt(0x21).expectedDataTransferLength(512).cmdSn(0x30)
                .expStatSn(0x40).cdb(cdb, 0, cdb.length), data));
        PduReader r = decode(Opcode.SCSI_COMMAND, WRITE_IMMEDIATE);
        assertTrue(r.bhs().write());
        assertEquals(1, r.bhs().attr());
        assertArrayEquals(data, bytes(r.data()), "the data segment without its padding");
    }

    static final byte[] TMF_REQUEST = hex(
            "42 81 00 00", "00 00 00 00", "00 02 00 00", "00 00 00 00",
            "00 00 00 30", "00 00 00 11", "00 00 00 40", "00 00 00 50",
            "00 00 00 3f", "00 00 00 00", "00 00 00 00", "00 00 00 00");

    @Test
    void taskManagementRequestFigure11_5() {
        assertWire(TMF_REQUEST, encode(Opcode.TASK_MGMT_REQUEST, h -> h.immediate(true).function(1)
                .lun(0x0002000000000000L).itt(0x30).referencedTaskTag(0x11).cmdSn(0x40)
                .expStatSn(0x50).refCmdSn(0x3f).expDataSn(0), null));
        Bhs h = decode(Opcode.TASK_MGMT_REQUEST, TMF_REQUEST).bhs();
        assertEquals(1, h.function());
        assertTrue(h.finalBit());
        assertEquals(0x11, h.referencedTaskTag());
        assertEquals(0x3f, h.refCmdSn());
        assertEquals(0, h.expDataSn());
    }

    static final byte[] LOGIN_DATA = ascii("SessionType=Discovery\0AuthMethod=None\0");
    static final byte[] LOGIN_REQUEST = concat(hex(
            "43 81 00 00", "00 00 00 26", "80 12 34 56", "78 9a 00 00",
            "00 00 00 00", "00 01 00 00", "00 00 00 01", "00 00 00 00",
            "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00"),
            LOGIN_DATA, hex("00 00"));

    @Test
    void loginRequestFigure11_12() {
        assertWire(LOGIN_REQUEST, encode(Opcode.LOGIN_REQUEST, h -> h.transit(true).csg(0).nsg(1)
                .versionMax(0).versionMin(0).isid(0x80123456789aL).tsih(0).itt(0).cid(1).cmdSn(1)
                .expStatSn(0), LOGIN_DATA));
        PduReader r = decode(Opcode.LOGIN_REQUEST, LOGIN_REQUEST);
        Bhs h = r.bhs();
        assertTrue(h.immediate(), "the I bit of a Login Request is always 1");
        assertTrue(h.transit());
        assertFalse(h.continueBit());
        assertEquals(0, h.csg());
        assertEquals(1, h.nsg());
        assertEquals(0x80123456789aL, h.isid());
        assertEquals(0, h.tsih());
        assertEquals(1, h.cid());
        assertEquals(1, h.cmdSn());
        assertArrayEquals(LOGIN_DATA, bytes(r.data()));
    }

    static final byte[] TEXT_DATA = ascii("SendTargets=All\0");
    static final byte[] TEXT_REQUEST = concat(hex(
            "04 80 00 00", "00 00 00 10", "00 00 00 00", "00 00 00 00",
            "00 00 00 05", "ff ff ff ff", "00 00 00 02", "00 00 00 01",
            "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00"), TEXT_DATA);

    @Test
    void textRequestFigure11_10() {
        assertWire(TEXT_REQUEST, encode(Opcode.TEXT_REQUEST, h -> h.finalBit(true).itt(5)
                .ttt(Bhs.RESERVED_TAG).cmdSn(2).expStatSn(1), TEXT_DATA));
        PduReader r = decode(Opcode.TEXT_REQUEST, TEXT_REQUEST);
        assertTrue(r.bhs().finalBit());
        assertFalse(r.bhs().continueBit());
        assertEquals(Bhs.RESERVED_TAG, r.bhs().ttt());
        assertArrayEquals(TEXT_DATA, bytes(r.data()));
    }

    static final byte[] DATA_OUT = hex(
            "05 80 00 00", "00 00 00 08", "00 03 00 00", "00 00 00 00",
            "00 00 00 07", "00 00 10 01", "00 00 00 00", "00 00 00 09",
            "00 00 00 00", "00 00 00 02", "00 00 20 00", "00 00 00 00",
            "01 02 03 04", "05 06 07 08");

    @Test
    void dataOutFigure11_7() {
        assertWire(DATA_OUT, encode(Opcode.SCSI_DATA_OUT, h -> h.finalBit(true).lun(0x0003000000000000L)
                .itt(7).ttt(0x1001).expStatSn(9).dataSn(2).bufferOffset(0x2000),
                hex("01 02 03 04 05 06 07 08")));
        Bhs h = decode(Opcode.SCSI_DATA_OUT, DATA_OUT).bhs();
        assertEquals(0x1001, h.ttt());
        assertEquals(9, h.expStatSn());
        assertEquals(2, h.dataSn());
        assertEquals(0x2000, h.bufferOffset());
    }

    static final byte[] LOGOUT_REQUEST = hex(
            "46 81 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "00 00 00 0a", "00 01 00 00", "00 00 00 0b", "00 00 00 0c",
            "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00");

    @Test
    void logoutRequestFigure11_14() {
        assertWire(LOGOUT_REQUEST, encode(Opcode.LOGOUT_REQUEST, h -> h.immediate(true).reasonCode(1)
                .itt(0x0a).cid(1).cmdSn(0x0b).expStatSn(0x0c), null));
        Bhs h = decode(Opcode.LOGOUT_REQUEST, LOGOUT_REQUEST).bhs();
        assertEquals(1, h.reasonCode());
        assertTrue(h.finalBit());
        assertEquals(1, h.cid());
    }

    static final byte[] SNACK = hex(
            "10 81 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "00 00 00 0d", "ff ff ff ff", "00 00 00 00", "00 00 00 0e",
            "00 00 00 00", "00 00 00 00", "00 00 00 05", "00 00 00 02");

    @Test
    void snackRequestFigure11_16() {
        assertWire(SNACK, encode(Opcode.SNACK_REQUEST, h -> h.snackType(1).itt(0x0d)
                .snackTag(Bhs.RESERVED_TAG).expStatSn(0x0e).begRun(5).runLength(2), null));
        Bhs h = decode(Opcode.SNACK_REQUEST, SNACK).bhs();
        assertEquals(1, h.snackType());
        assertEquals(5, h.begRun());
        assertEquals(2, h.runLength());
        assertEquals(0x0e, h.expStatSn());
    }

    // ------------------------------------------------------------------ target opcodes

    static final byte[] NOP_IN = hex(
            "20 80 00 00", "00 00 00 04", "00 01 00 00", "00 00 00 00",
            "00 00 00 11", "ff ff ff ff", "00 00 00 33", "00 00 00 23",
            "00 00 00 42", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "70 69 6e 67");

    @Test
    void nopInFigure11_19() {
        assertWire(NOP_IN, encode(Opcode.NOP_IN, h -> h.lun(0x0001000000000000L).itt(0x11)
                .ttt(Bhs.RESERVED_TAG).statSn(0x33).expCmdSn(0x23).maxCmdSn(0x42), PING));
        PduReader r = decode(Opcode.NOP_IN, NOP_IN);
        assertEquals(0x33, r.bhs().statSn());
        assertEquals(0x23, r.bhs().expCmdSn());
        assertEquals(0x42, r.bhs().maxCmdSn());
        assertArrayEquals(PING, bytes(r.data()));
    }

    /** SenseLength, then fixed-format sense: ILLEGAL REQUEST, INVALID FIELD IN CDB. */
    static final byte[] SENSE = hex("00 12", "70 00 05 00 00 00 00 0a 00 00 00 00 24 00 00 00 00 00");
    static final byte[] SCSI_RESPONSE = concat(hex(
            "21 82 00 02", "00 00 00 14", "00 00 00 00", "00 00 00 00",
            "00 00 00 14", "00 00 00 00", "00 00 00 34", "00 00 00 15",
            "00 00 00 34", "00 00 00 01", "00 00 00 00", "00 00 02 00"), SENSE);

    @Test
    void scsiResponseFigure11_4() {
        assertWire(SCSI_RESPONSE, encode(Opcode.SCSI_RESPONSE, h -> h.residualUnderflow(true).response(0)
                .status(0x02).itt(0x14).snackTag(0).statSn(0x34).expCmdSn(0x15).maxCmdSn(0x34)
                .expDataSn(1).bidiReadResidualCount(0).residualCount(0x200), SENSE));
        PduReader r = decode(Opcode.SCSI_RESPONSE, SCSI_RESPONSE);
        Bhs h = r.bhs();
        assertTrue(h.residualUnderflow());
        assertFalse(h.residualOverflow());
        assertFalse(h.bidiReadResidualOverflow());
        assertFalse(h.bidiReadResidualUnderflow());
        assertEquals(0x02, h.status());
        assertEquals(0x200, h.residualCount());
        assertEquals(1, h.expDataSn());
        assertArrayEquals(SENSE, bytes(r.data()));
    }

    @Test
    void scsiResponseBidirectionalResidualBits() {
        byte[] wire = encode(Opcode.SCSI_RESPONSE, h -> h.bidiReadResidualOverflow(true)
                .bidiReadResidualUnderflow(true).residualOverflow(true).bidiReadResidualCount(7), null);
        assertEquals(0x80 | 0x10 | 0x08 | 0x04, wire[1] & 0xff, "o u O and the F bit");
        assertArrayEquals(hex("00 00 00 07"), java.util.Arrays.copyOfRange(wire, 40, 44));
    }

    static final byte[] TMF_RESPONSE = hex(
            "22 80 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "00 00 00 30", "00 00 00 00", "00 00 00 35", "00 00 00 41",
            "00 00 00 60", "00 00 00 00", "00 00 00 00", "00 00 00 00");

    @Test
    void taskManagementResponseFigure11_6() {
        assertWire(TMF_RESPONSE, encode(Opcode.TASK_MGMT_RESPONSE, h -> h.response(0).itt(0x30)
                .statSn(0x35).expCmdSn(0x41).maxCmdSn(0x60), null));
        byte[] noTask = encode(Opcode.TASK_MGMT_RESPONSE, h -> h.response(1), null);
        assertEquals(1, noTask[2], "Response byte: task does not exist");
        Bhs h = decode(Opcode.TASK_MGMT_RESPONSE, TMF_RESPONSE).bhs();
        assertEquals(0, h.response());
        assertEquals(0x35, h.statSn());
    }

    static final byte[] LOGIN_RESPONSE_DATA = ascii("HeaderDigest=None\0");
    static final byte[] LOGIN_RESPONSE = concat(hex(
            "23 87 00 00", "00 00 00 12", "80 12 34 56", "78 9a 00 07",
            "00 00 00 00", "00 00 00 00", "00 00 00 01", "00 00 00 01",
            "00 00 00 20", "00 00 00 00", "00 00 00 00", "00 00 00 00"),
            LOGIN_RESPONSE_DATA, hex("00 00"));

    @Test
    void loginResponseFigure11_13() {
        assertWire(LOGIN_RESPONSE, encode(Opcode.LOGIN_RESPONSE, h -> h.transit(true).csg(1).nsg(3)
                .versionMax(0).versionActive(0).isid(0x80123456789aL).tsih(7).itt(0).statSn(1)
                .expCmdSn(1).maxCmdSn(0x20).statusClass(0).statusDetail(0), LOGIN_RESPONSE_DATA));
        Bhs h = decode(Opcode.LOGIN_RESPONSE, LOGIN_RESPONSE).bhs();
        assertFalse(h.immediate());
        assertEquals(1, h.csg());
        assertEquals(3, h.nsg());
        assertEquals(7, h.tsih());
        assertEquals(0x20, h.maxCmdSn());
        assertEquals(LoginStatus.SUCCESS, LoginStatus.valueOf(h.statusClass(), h.statusDetail()));
    }

    @Test
    void loginResponseStatusBytes() {
        byte[] wire = encode(Opcode.LOGIN_RESPONSE, h -> h.statusClass(LoginStatus.AUTHENTICATION_FAILURE
                .statusClass()).statusDetail(LoginStatus.AUTHENTICATION_FAILURE.detail()), null);
        assertArrayEquals(hex("02 01"), java.util.Arrays.copyOfRange(wire, 36, 38));
        assertEquals(0x0201, LoginStatus.AUTHENTICATION_FAILURE.code());
        assertEquals(0x020b, LoginStatus.INVALID_DURING_LOGIN.code());
        assertEquals(0x0300, LoginStatus.TARGET_ERROR.code());
    }

    static final byte[] TEXT_RESPONSE_DATA = ascii("TargetName=iqn.2003-01.org.rdma:t1\0");
    static final byte[] TEXT_RESPONSE = concat(hex(
            "24 80 00 00", "00 00 00 23", "00 00 00 00", "00 00 00 00",
            "00 00 00 05", "ff ff ff ff", "00 00 00 02", "00 00 00 03",
            "00 00 00 22", "00 00 00 00", "00 00 00 00", "00 00 00 00"),
            TEXT_RESPONSE_DATA, hex("00"));

    @Test
    void textResponseFigure11_11() {
        assertWire(TEXT_RESPONSE, encode(Opcode.TEXT_RESPONSE, h -> h.finalBit(true).itt(5)
                .ttt(Bhs.RESERVED_TAG).statSn(2).expCmdSn(3).maxCmdSn(0x22), TEXT_RESPONSE_DATA));
        PduReader r = decode(Opcode.TEXT_RESPONSE, TEXT_RESPONSE);
        assertArrayEquals(TEXT_RESPONSE_DATA, bytes(r.data()));
    }

    static final byte[] DATA_IN = hex(
            "25 83 00 00", "00 00 00 06", "00 01 00 00", "00 00 00 00",
            "00 00 00 14", "ff ff ff ff", "00 00 00 36", "00 00 00 15",
            "00 00 00 34", "00 00 00 00", "00 00 00 00", "00 00 00 02",
            "0a 0b 0c 0d", "0e 0f 00 00");

    @Test
    void dataInWithStatusFigure11_7() {
        assertWire(DATA_IN, encode(Opcode.SCSI_DATA_IN, h -> h.finalBit(true).residualUnderflow(true)
                .statusPresent(true).status(0).lun(0x0001000000000000L).itt(0x14).ttt(Bhs.RESERVED_TAG)
                .statSn(0x36).expCmdSn(0x15).maxCmdSn(0x34).dataSn(0).bufferOffset(0).residualCount(2),
                hex("0a 0b 0c 0d 0e 0f")));
        Bhs h = decode(Opcode.SCSI_DATA_IN, DATA_IN).bhs();
        assertTrue(h.statusPresent());
        assertTrue(h.residualUnderflow());
        assertFalse(h.acknowledge());
        assertEquals(2, h.residualCount());
        assertEquals(0x36, h.statSn());
    }

    @Test
    void dataInAcknowledgeBit() {
        byte[] wire = encode(Opcode.SCSI_DATA_IN, h -> h.acknowledge(true).residualOverflow(true), null);
        assertEquals(0x40 | 0x04, wire[1] & 0xff, "A and O, and no F: the F bit of Data-In is the sender's");
    }

    static final byte[] R2T = hex(
            "31 80 00 00", "00 00 00 00", "00 03 00 00", "00 00 00 00",
            "00 00 00 07", "00 00 10 01", "00 00 00 38", "00 00 00 08",
            "00 00 00 27", "00 00 00 01", "00 00 20 00", "00 01 00 00");

    @Test
    void readyToTransferFigure11_8() {
        assertWire(R2T, encode(Opcode.READY_TO_TRANSFER, h -> h.lun(0x0003000000000000L).itt(7)
                .ttt(0x1001).statSn(0x38).expCmdSn(8).maxCmdSn(0x27).r2tSn(1).bufferOffset(0x2000)
                .desiredDataTransferLength(0x10000), null));
        Bhs h = decode(Opcode.READY_TO_TRANSFER, R2T).bhs();
        assertEquals(1, h.r2tSn());
        assertEquals(0x2000, h.bufferOffset());
        assertEquals(0x10000, h.desiredDataTransferLength());
    }

    static final byte[] ASYNC = hex(
            "32 80 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "ff ff ff ff", "00 00 00 00", "00 00 00 39", "00 00 00 0d",
            "00 00 00 2c", "01 00 00 00", "00 00 00 05", "00 00 00 00");

    @Test
    void asynchronousMessageFigure11_9() {
        assertWire(ASYNC, encode(Opcode.ASYNC_MESSAGE, h -> h.itt(Bhs.RESERVED_TAG).statSn(0x39)
                .expCmdSn(0x0d).maxCmdSn(0x2c).asyncEvent(1).asyncVCode(0).parameter(3, 5), null));
        Bhs h = decode(Opcode.ASYNC_MESSAGE, ASYNC).bhs();
        assertEquals(1, h.asyncEvent());
        assertEquals(0, h.parameter(1));
        assertEquals(0, h.parameter(2));
        assertEquals(5, h.parameter(3));
    }

    static final byte[] REJECT = concat(hex(
            "3f 80 09 00", "00 00 00 30", "00 00 00 00", "00 00 00 00",
            "ff ff ff ff", "00 00 00 00", "00 00 00 3a", "00 00 00 0e",
            "00 00 00 2d", "00 00 00 00", "00 00 00 00", "00 00 00 00"),
            java.util.Arrays.copyOf(NOP_OUT, 48));

    @Test
    void rejectCarriesTheBadHeaderFigure11_17() {
        assertWire(REJECT, encode(Opcode.REJECT, h -> h.reason(RejectReason.INVALID_PDU_FIELD.code())
                .itt(Bhs.RESERVED_TAG).statSn(0x3a).expCmdSn(0x0e).maxCmdSn(0x2d).dataSn(0),
                java.util.Arrays.copyOf(NOP_OUT, 48)));
        PduReader r = decode(Opcode.REJECT, REJECT);
        assertEquals(RejectReason.INVALID_PDU_FIELD, RejectReason.valueOf(r.bhs().reason()));
        assertArrayEquals(java.util.Arrays.copyOf(NOP_OUT, 48), bytes(r.data()));
    }

    @Test
    void everyOpcodeHasAVector() {
        byte[][] vectors = {NOP_OUT, READ_10, TMF_REQUEST, LOGIN_REQUEST, TEXT_REQUEST, DATA_OUT,
            LOGOUT_REQUEST, SNACK, NOP_IN, SCSI_RESPONSE, TMF_RESPONSE, LOGIN_RESPONSE, TEXT_RESPONSE,
            DATA_IN, LOGOUT_RESPONSE, R2T, ASYNC, REJECT};
        java.util.Set<Opcode> seen = java.util.EnumSet.noneOf(Opcode.class);
        for (byte[] v : vectors) {
            seen.add(Opcode.valueOf(v[0] & 0x3f));
        }
        assertEquals(java.util.EnumSet.allOf(Opcode.class), seen);
    }

    static final byte[] LOGOUT_RESPONSE = hex(
            "26 80 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00",
            "00 00 00 0a", "00 00 00 00", "00 00 00 37", "00 00 00 0c",
            "00 00 00 2b", "00 00 00 00", "00 02 00 14", "00 00 00 00");

    @Test
    void logoutResponseFigure11_15() {
        assertWire(LOGOUT_RESPONSE, encode(Opcode.LOGOUT_RESPONSE, h -> h.response(0).itt(0x0a)
                .statSn(0x37).expCmdSn(0x0c).maxCmdSn(0x2b).time2Wait(2).time2Retain(20), null));
        Bhs h = decode(Opcode.LOGOUT_RESPONSE, LOGOUT_RESPONSE).bhs();
        assertEquals(2, h.time2Wait());
        assertEquals(20, h.time2Retain());
    }
}
