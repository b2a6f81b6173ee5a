package org.rdma.iscsi.internal.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.Pdu;
import org.rdma.scsi.Cdb;
import org.rdma.target.internal.core.Tpg;

/** Text Requests in the full feature phase (RFC 7143 11.10, 11.11) and SendTargets (appendix C). */
class TextTest {
    final Harness h = new Harness();

    private static byte[] text(String... pairs) {
        return (String.join("\0", pairs) + "\0").getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8).replace('\0', '|');
    }

    private static void request(Initiator i, int itt, int ttt, byte[] data) {
        i.send(Opcode.TEXT_REQUEST, b -> b.immediate(true).finalBit(true).itt(itt).ttt(ttt).cmdSn(i.cmdSn), data);
    }

    private Initiator discovery() {
        Params p = new Params();
        p.discovery = true;
        return h.login(p);
    }

    @Test
    void sendTargetsAllListsEveryTargetWithItsPortalsAndGroupTags() {
        Tpg second = h.core.addTpg(IscsiTarget.FABRIC, "iqn.2003-01.org.rdma:disk2", 3, 5);
        h.target.addPortal("iqn.2003-01.org.rdma:disk2", 3, new InetSocketAddress("::1", 3261));
        h.target.addPortal("iqn.2003-01.org.rdma:disk2", 3, new InetSocketAddress("0.0.0.0", 3262));
        Initiator i = discovery();
        request(i, 0x21, Bhs.RESERVED_TAG, text("SendTargets=All"));
        Pdu r = i.next(Opcode.TEXT_RESPONSE);
        assertTrue(r.bhs().finalBit());
        assertFalse(r.bhs().continueBit());
        assertEquals(0x21, r.bhs().itt());
        assertEquals(Bhs.RESERVED_TAG, r.bhs().ttt());
        // The wildcard portal is reported as the address the discovery connection came to.
        assertEquals("TargetName=iqn.2003-01.org.rdma:disk1|TargetAddress=127.0.0.1:3260,1|"
                + "TargetName=iqn.2003-01.org.rdma:disk2|TargetAddress=[0:0:0:0:0:0:0:1]:3261,3|"
                + "TargetAddress=127.0.0.1:3262,3|", text(r.data()));
        second.setEnabled(false);
        request(i, 0x22, Bhs.RESERVED_TAG, text("SendTargets=iqn.2003-01.org.rdma:disk2"));
        assertEquals(0, i.next(Opcode.TEXT_RESPONSE).data().length, "a disabled TPG is not listed");
    }

    @Test
    void aNormalSessionGetsItsOwnTargetAndMayNotAskForAll() {
        Initiator i = h.login(new Params());
        request(i, 0x23, Bhs.RESERVED_TAG, text("SendTargets="));
        assertEquals("TargetName=iqn.2003-01.org.rdma:disk1|TargetAddress=127.0.0.1:3260,1|",
                text(i.next(Opcode.TEXT_RESPONSE).data()));
        request(i, 0x24, Bhs.RESERVED_TAG, text("SendTargets=All"));
        assertEquals("SendTargets=Reject|", text(i.next(Opcode.TEXT_RESPONSE).data()));
    }

    @Test
    void aLongAnswerComesInPiecesEachFetchedWithTheTargetTransferTag() {
        for (int n = 2; n <= 20; n++) {
            String name = "iqn.2003-01.org.rdma:a-rather-long-target-name-number-" + n;
            h.core.addTpg(IscsiTarget.FABRIC, name, 1, 5);
            h.target.addPortal(name, 1, new InetSocketAddress("192.168.100." + n, 3260));
        }
        Params p = new Params();
        p.discovery = true;
        p.maxXmitDataSegmentLength = 512;
        Initiator i = h.login(p);
        request(i, 0x25, Bhs.RESERVED_TAG, text("SendTargets=All"));
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        int pieces = 0;
        while (true) {
            Pdu r = i.next(Opcode.TEXT_RESPONSE);
            pieces++;
            assertTrue(r.data().length <= 512);
            all.writeBytes(r.data());
            if (!r.bhs().continueBit()) {
                assertTrue(r.bhs().finalBit());
                assertEquals(Bhs.RESERVED_TAG, r.bhs().ttt());
                break;
            }
            assertFalse(r.bhs().finalBit());
            request(i, 0x25, r.bhs().ttt(), null);
        }
        assertTrue(pieces > 2, "pieces: " + pieces);
        String t = text(all.toByteArray());
        assertTrue(t.startsWith("TargetName=iqn.2003-01.org.rdma:disk1|"));
        assertTrue(t.endsWith("TargetName=iqn.2003-01.org.rdma:a-rather-long-target-name-number-20|"
                + "TargetAddress=192.168.100.20:3260,1|"), t);
    }

    @Test
    void aContinuedRequestIsAnsweredEmptyUntilItsLastPiece() {
        Initiator i = discovery();
        byte[] whole = text("SendTargets=All");
        i.send(Opcode.TEXT_REQUEST, b -> b.immediate(true).continueBit(true).itt(0x26).ttt(Bhs.RESERVED_TAG),
                java.util.Arrays.copyOf(whole, 5));
        Pdu empty = i.next(Opcode.TEXT_RESPONSE);
        assertEquals(0, empty.data().length);
        assertFalse(empty.bhs().finalBit());
        int ttt = empty.bhs().ttt();
        i.send(Opcode.TEXT_REQUEST, b -> b.immediate(true).finalBit(true).itt(0x26).ttt(ttt),
                java.util.Arrays.copyOfRange(whole, 5, whole.length));
        assertTrue(text(i.next(Opcode.TEXT_RESPONSE).data()).startsWith("TargetName=iqn.2003-01.org.rdma:disk1|"));
    }

    @Test
    void unknownKeysAreNotUnderstoodAndADeclaredMaxRecvDataSegmentLengthSizesDataIn() {
        Initiator i = h.login(new Params());
        i.command(Cdb.testUnitReady(), 0);
        i.received();
        request(i, 0x27, Bhs.RESERVED_TAG, text("X-org.example.Foo=1", "MaxRecvDataSegmentLength=512"));
        assertEquals("X-org.example.Foo=NotUnderstood|", text(i.next(Opcode.TEXT_RESPONSE).data()));
        i.command(Cdb.read10(0, 4, 0), 2048);
        assertEquals(4, i.received().size(), "2048 bytes in 512-byte Data-In PDUs");
    }

    @Test
    void aMalformedTextIsRejected() {
        Initiator i = discovery();
        request(i, 0x28, Bhs.RESERVED_TAG, "NoEquals\0".getBytes(StandardCharsets.UTF_8));
        assertEquals(0x04, i.next(Opcode.REJECT).bhs().reason());
    }
}
