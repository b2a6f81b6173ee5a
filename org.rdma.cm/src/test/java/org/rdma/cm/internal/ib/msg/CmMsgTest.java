package org.rdma.cm.internal.ib.msg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.Gid;

/**
 * The chapter 12 message layouts against byte vectors written from the IBTA message tables
 * (vol. 1, tables 106 to 120): every field at its byte and bit, reserved bits zero, private data
 * at the end of the 232-byte message.
 */
class CmMsgTest {
    private static final long TID = 0x0000_0001_0000_0005L;
    private static final Gid GID_A = Gid.parse("fe80:0000:0000:0000:0002:c903:00a1:b201");
    private static final Gid GID_B = Gid.parse("fe80:0000:0000:0000:0002:c903:00a1:b301");

    /** A MAD of 0xFF bytes, so pack must clear reserved bits and bytes. */
    private static byte[] dirtyMad() {
        byte[] m = new byte[256];
        Arrays.fill(m, (byte) 0xFF);
        return m;
    }

    /** The expected MAD: a CM Send header with {@code attrId}, then {@code fields} (offset, hex) in the message. */
    private static byte[] expected(int attrId, Object... fields) {
        byte[] e = new byte[256];
        byte[] hdr = HexFormat.of().parseHex("01070203" + "00000000" + "0000000100000005" + "0000" + "0000" + "00000000");
        System.arraycopy(hdr, 0, e, 0, 24);
        e[16] = (byte) (attrId >>> 8);
        e[17] = (byte) attrId;
        for (int i = 0; i < fields.length; i += 2) {
            int off = (Integer) fields[i];
            byte[] v = fields[i + 1] instanceof byte[] b ? b : HexFormat.of().parseHex((String) fields[i + 1]);
            System.arraycopy(v, 0, e, 24 + off, v.length);
        }
        return e;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void reqFieldsSitWhereTable106PutsThem() {
        CmReqMsg r = new CmReqMsg();
        r.localCommId = 0x11223344;
        r.serviceId = 0x0000_0000_0106_1234L;
        r.localCaGuid = 0x0002_c903_00a1_b200L;
        r.localQpn = 0x48;
        r.responderResources = 4;
        r.initiatorDepth = 3;
        r.remoteCmResponseTimeout = 20;
        r.transportServiceType = 0;
        r.endToEndFlowControl = 1;
        r.startingPsn = 0x111;
        r.localCmResponseTimeout = 18;
        r.retryCount = 7;
        r.partitionKey = 0xFFFF;
        r.pathPacketPayloadMtu = 4;
        r.rnrRetryCount = 6;
        r.maxCmRetries = 15;
        r.srq = 1;
        r.primaryLocalPortLid = 1;
        r.primaryRemotePortLid = 3;
        r.primaryLocalPortGid = GID_A;
        r.primaryRemotePortGid = GID_B;
        r.primaryFlowLabel = 0x12345;
        r.primaryPacketRate = 3;
        r.primaryTrafficClass = 0x20;
        r.primarySl = 5;
        r.primarySubnetLocal = 1;
        r.primaryLocalAckTimeout = 19;
        r.privateData = CmMsg.area(ascii("hello"), CmReqMsg.PRIVATE_DATA_SIZE);
        byte[] m = dirtyMad();
        r.toMad(m, TID);
        byte[] e = expected(IbCm.REQ_ATTR_ID,
                0, "11223344",
                8, "0000000001061234",
                16, "0002c90300a1b200",
                32, "00004804" + "00000003" + "000000a1" + "00011197" + "ffff46f8" + "00010003",
                56, GID_A.bytes(),
                72, GID_B.bytes(),
                88, "12345003" + "20005898",
                140, ascii("hello"));
        assertArrayEquals(e, m);

        CmReqMsg u = new CmReqMsg().fromMad(m);
        assertEquals(0x11223344, u.localCommId);
        assertEquals(0x0106_1234L, u.serviceId);
        assertEquals(20, u.remoteCmResponseTimeout);
        assertEquals(1, u.endToEndFlowControl);
        assertEquals(18, u.localCmResponseTimeout);
        assertEquals(7, u.retryCount);
        assertEquals(4, u.pathPacketPayloadMtu);
        assertEquals(6, u.rnrRetryCount);
        assertEquals(15, u.maxCmRetries);
        assertEquals(1, u.srq);
        assertEquals(GID_B, u.primaryRemotePortGid);
        assertEquals(0x12345, u.primaryFlowLabel);
        assertEquals(3, u.primaryPacketRate);
        assertEquals(5, u.primarySl);
        assertEquals(19, u.primaryLocalAckTimeout);
        assertEquals(Gid.ZERO, u.alternateLocalPortGid);
    }

    @Test
    void reqAlternatePathAndXrcFields() {
        CmReqMsg r = new CmReqMsg();
        r.transportServiceType = 3;
        r.extendedTransportType = 1;
        r.alternateLocalPortLid = 0x0011;
        r.alternateRemotePortLid = 0x0022;
        r.alternateLocalPortGid = GID_B;
        r.alternateRemotePortGid = GID_A;
        r.alternateFlowLabel = 0xFFFFF;
        r.alternatePacketRate = 0x3F;
        r.alternateTrafficClass = 0x12;
        r.alternateHopLimit = 0x40;
        r.alternateSl = 0xF;
        r.alternateSubnetLocal = 0;
        r.alternateLocalAckTimeout = 0x1F;
        r.sapSupported = 1;
        byte[] m = dirtyMad();
        r.toMad(m, TID);
        byte[] e = expected(IbCm.REQ_ATTR_ID,
                43, "06",
                51, "01",
                96, "00110022",
                100, GID_B.bytes(),
                116, GID_A.bytes(),
                132, "fffff03f" + "1240f0fc");
        assertArrayEquals(e, m);
    }

    @Test
    void repFieldsSitWhereTable110PutsThem() {
        CmRepMsg r = new CmRepMsg();
        r.localCommId = 0xAABBCCDD;
        r.remoteCommId = 0x11223344;
        r.localQpn = 0x49;
        r.startingPsn = 0x222;
        r.responderResources = 1;
        r.initiatorDepth = 2;
        r.targetAckDelay = 15;
        r.failoverAccepted = 2;
        r.endToEndFlowControl = 1;
        r.rnrRetryCount = 7;
        r.localCaGuid = 0x0002_c903_00a1_b300L;
        r.privateData = CmMsg.area(ascii("accept"), CmRepMsg.PRIVATE_DATA_SIZE);
        byte[] m = dirtyMad();
        r.toMad(m, TID);
        assertArrayEquals(expected(IbCm.REP_ATTR_ID,
                0, "aabbccdd" + "11223344" + "00000000" + "00004900" + "00000000" + "00022200" + "01027de0"
                        + "0002c90300a1b300",
                36, ascii("accept")), m);
        CmRepMsg u = new CmRepMsg().fromMad(m);
        assertEquals(0xAABBCCDD, u.localCommId);
        assertEquals(15, u.targetAckDelay);
        assertEquals(2, u.failoverAccepted);
        assertEquals(7, u.rnrRetryCount);
        assertEquals(0, u.srq);
    }

    @Test
    void rejMraRtuDreqDrepLayouts() {
        CmRejMsg rej = new CmRejMsg();
        rej.remoteCommId = 0x11223344;
        rej.messageRejected = CmMsg.MSG_RESPONSE_REP;
        rej.rejectInfoLength = 8;
        rej.reason = 28;
        rej.ari = CmMsg.area(HexFormat.of().parseHex("0002c90300a1b300"), CmRejMsg.ARI_SIZE);
        rej.privateData = CmMsg.area(ascii("no"), CmRejMsg.PRIVATE_DATA_SIZE);
        byte[] m = dirtyMad();
        rej.toMad(m, TID);
        assertArrayEquals(expected(IbCm.REJ_ATTR_ID, 0, "00000000" + "11223344" + "4010001c" + "0002c90300a1b300",
                84, ascii("no")), m);

        CmMraMsg mra = new CmMraMsg();
        mra.localCommId = 0x01020304;
        mra.remoteCommId = 0x05060708;
        mra.messageMraed = CmMsg.MSG_RESPONSE_OTHER;
        mra.serviceTimeout = 21;
        mra.privateData = CmMsg.area(ascii("wait"), CmMraMsg.PRIVATE_DATA_SIZE);
        m = dirtyMad();
        mra.toMad(m, TID);
        assertArrayEquals(expected(IbCm.MRA_ATTR_ID, 0, "01020304" + "05060708" + "80a8", 10, ascii("wait")), m);
        assertEquals(21, new CmMraMsg().fromMad(m).serviceTimeout);

        CmRtuMsg rtu = new CmRtuMsg();
        rtu.localCommId = 1;
        rtu.remoteCommId = 2;
        rtu.privateData = CmMsg.area(ascii("rtu"), CmRtuMsg.PRIVATE_DATA_SIZE);
        m = dirtyMad();
        rtu.toMad(m, TID);
        assertArrayEquals(expected(IbCm.RTU_ATTR_ID, 0, "00000001" + "00000002", 8, ascii("rtu")), m);

        CmDreqMsg dreq = new CmDreqMsg();
        dreq.localCommId = 1;
        dreq.remoteCommId = 2;
        dreq.remoteQpnEecn = 0x49;
        dreq.privateData = CmMsg.area(ascii("bye"), CmDreqMsg.PRIVATE_DATA_SIZE);
        m = dirtyMad();
        dreq.toMad(m, TID);
        assertArrayEquals(expected(IbCm.DREQ_ATTR_ID, 0, "00000001" + "00000002" + "00004900", 12, ascii("bye")), m);

        CmDrepMsg drep = new CmDrepMsg();
        drep.localCommId = 2;
        drep.remoteCommId = 1;
        m = dirtyMad();
        drep.toMad(m, TID);
        assertArrayEquals(expected(IbCm.DREP_ATTR_ID, 0, "00000002" + "00000001"), m);
    }

    @Test
    void lapAndAprLayouts() {
        CmLapMsg l = new CmLapMsg();
        l.localCommId = 1;
        l.remoteCommId = 2;
        l.remoteQpnEecn = 0x49;
        l.remoteCmResponseTimeout = 20;
        l.alternateLocalPortLid = 1;
        l.alternateRemotePortLid = 3;
        l.alternateLocalPortGid = GID_A;
        l.alternateRemotePortGid = GID_B;
        l.alternateFlowLabel = 0xABCDE;
        l.alternateTrafficClass = 0x10;
        l.alternateHopLimit = 0x40;
        l.alternatePacketRate = 3;
        l.alternateSl = 2;
        l.alternateSubnetLocal = 1;
        l.alternateLocalAckTimeout = 17;
        l.privateData = CmMsg.area(ascii("lap"), CmLapMsg.PRIVATE_DATA_SIZE);
        byte[] m = dirtyMad();
        l.toMad(m, TID);
        assertArrayEquals(expected(IbCm.LAP_ATTR_ID, 0, "00000001" + "00000002" + "00000000" + "000049a0" + "00000000"
                + "00010003", 24, GID_A.bytes(), 40, GID_B.bytes(), 56, "abcde010" + "40032888", 64, ascii("lap")), m);
        CmLapMsg lu = new CmLapMsg().fromMad(m);
        assertEquals(0xABCDE, lu.alternateFlowLabel);
        assertEquals(17, lu.alternateLocalAckTimeout);

        CmAprMsg a = new CmAprMsg();
        a.localCommId = 2;
        a.remoteCommId = 1;
        a.additionalInfoLength = 4;
        a.apStatus = 3;
        a.additionalInfo = CmMsg.area(HexFormat.of().parseHex("deadbeef"), CmAprMsg.INFO_SIZE);
        a.privateData = CmMsg.area(ascii("apr"), CmAprMsg.PRIVATE_DATA_SIZE);
        m = dirtyMad();
        a.toMad(m, TID);
        assertArrayEquals(expected(IbCm.APR_ATTR_ID, 0, "00000002" + "00000001" + "04030000" + "deadbeef",
                84, ascii("apr")), m);
    }

    @Test
    void sidrLayouts() {
        CmSidrReqMsg q = new CmSidrReqMsg();
        q.requestId = 0x0A0B0C0D;
        q.partitionKey = 0xFFFF;
        q.serviceId = 0x0000_0000_0106_1234L;
        q.privateData = CmMsg.area(ascii("sidr"), CmSidrReqMsg.PRIVATE_DATA_SIZE);
        byte[] m = dirtyMad();
        q.toMad(m, TID);
        assertArrayEquals(expected(IbCm.SIDR_REQ_ATTR_ID, 0, "0a0b0c0d" + "ffff0000" + "0000000001061234", 16,
                ascii("sidr")), m);

        CmSidrRepMsg r = new CmSidrRepMsg();
        r.requestId = 0x0A0B0C0D;
        r.status = 0;
        r.additionalInfoLength = 2;
        r.qpn = 0x4A;
        r.serviceId = 0x0000_0000_0106_1234L;
        r.qkey = 0x0000ABCD;
        r.additionalInfo = CmMsg.area(HexFormat.of().parseHex("beef"), CmSidrRepMsg.INFO_SIZE);
        r.privateData = CmMsg.area(ascii("ud"), CmSidrRepMsg.PRIVATE_DATA_SIZE);
        m = dirtyMad();
        r.toMad(m, TID);
        assertArrayEquals(expected(IbCm.SIDR_REP_ATTR_ID, 0, "0a0b0c0d" + "00020000" + "00004a00" + "0000000001061234"
                + "0000abcd" + "beef", 96, ascii("ud")), m);
        CmSidrRepMsg u = new CmSidrRepMsg().fromMad(m);
        assertEquals(0x4A, u.qpn);
        assertEquals(0xABCD, u.qkey);
        assertEquals(2, u.additionalInfoLength);
    }

    @Test
    void privateDataAreasFillTheRestOfTheMessage() {
        assertEquals(IbCm.REQ_PRIVATE_DATA_SIZE, CmReqMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.MRA_PRIVATE_DATA_SIZE, CmMraMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.REJ_PRIVATE_DATA_SIZE, CmRejMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.REP_PRIVATE_DATA_SIZE, CmRepMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.RTU_PRIVATE_DATA_SIZE, CmRtuMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.DREQ_PRIVATE_DATA_SIZE, CmDreqMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.DREP_PRIVATE_DATA_SIZE, CmDrepMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.LAP_PRIVATE_DATA_SIZE, CmLapMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.APR_PRIVATE_DATA_SIZE, CmAprMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.SIDR_REQ_PRIVATE_DATA_SIZE, CmSidrReqMsg.PRIVATE_DATA_SIZE);
        assertEquals(IbCm.SIDR_REP_PRIVATE_DATA_SIZE, CmSidrRepMsg.PRIVATE_DATA_SIZE);
        byte[] full = new byte[IbCm.REQ_PRIVATE_DATA_SIZE];
        Arrays.fill(full, (byte) 0x5A);
        CmReqMsg r = new CmReqMsg();
        r.privateData = CmMsg.area(full, CmReqMsg.PRIVATE_DATA_SIZE);
        byte[] m = new byte[256];
        r.toMad(m, TID);
        assertEquals(0x5A, m[24 + 139 + 1] & 0xFF, "first private byte at 140");
        assertEquals(0x5A, m[255] & 0xFF, "last private byte ends the MAD");
        assertEquals(0, m[24 + 139] & 0xFF);
    }
}
