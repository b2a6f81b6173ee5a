package org.rdma.iscsi.pdu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rdma.iscsi.pdu.Wire.ascii;
import static org.rdma.iscsi.pdu.Wire.concat;
import static org.rdma.iscsi.pdu.Wire.hex;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** CRC32C as iSCSI uses it: the check value and RFC 3720 appendix B.4's examples, in wire order. */
class DigestTest {
    private final Digest digest = new Digest();

    private String wire(byte[] b) {
        ByteBuffer out = ByteBuffer.allocate(4);
        Digest.put(out, 0, digest.crc32c(ByteBuffer.wrap(b), 0, b.length));
        return hex(out.array());
    }

    @Test
    void checkValueOf123456789() {
        byte[] b = ascii("123456789");
        assertEquals(0xE3069283, digest.crc32c(ByteBuffer.wrap(b), 0, b.length));
    }

    @Test
    void rfc3720AppendixB4() {
        byte[] zeros = new byte[32];
        byte[] ones = new byte[32];
        byte[] up = new byte[32];
        byte[] down = new byte[32];
        for (int i = 0; i < 32; i++) {
            ones[i] = (byte) 0xff;
            up[i] = (byte) i;
            down[i] = (byte) (31 - i);
        }
        assertEquals("aa 36 91 8a", wire(zeros));
        assertEquals("43 ab a8 62", wire(ones));
        assertEquals("4e 79 dd 46", wire(up));
        assertEquals("5c db 3f 11", wire(down));
        assertEquals("56 3a 96 d9", wire(PduLayoutTest.READ_10), "the SCSI Read (10) Command PDU");
    }

    @Test
    void writerAppendsTheHeaderDigestOfB4() {
        PduWriter w = new PduWriter();
        w.setDigests(true, false);
        byte[] cdb = hex("28 00 00 00 00 00 00 00 02 00");
        byte[] pdu = Wire.encode(w, Opcode.SCSI_COMMAND, h -> h.finalBit(true).read(true).itt(0x14000000)
                .expectedDataTransferLength(1024).cmdSn(0x14).expStatSn(0x18).cdb(cdb, 0, cdb.length), null);
        assertEquals(hex(concat(PduLayoutTest.READ_10, hex("56 3a 96 d9"))), hex(pdu));
    }

    @Test
    void dataDigestCoversThePadding() {
        PduWriter w = new PduWriter();
        w.setDigests(false, true);
        byte[] data = hex("0a 0b 0c 0d 0e 0f");
        byte[] pdu = Wire.encode(w, Opcode.SCSI_DATA_IN, h -> { }, data);
        assertEquals(48 + 8 + 4, pdu.length);
        assertEquals(wire(hex("0a 0b 0c 0d 0e 0f 00 00")), hex(java.util.Arrays.copyOfRange(pdu, 56, 60)));
    }

    @Test
    void digestLeavesTheBufferAsItWas() {
        ByteBuffer b = ByteBuffer.wrap(new byte[16]).position(3).limit(9);
        digest.crc32c(b, 0, 16);
        assertEquals(3, b.position());
        assertEquals(9, b.limit());
    }

    @Test
    void padding() {
        assertEquals(0, Digest.padding(0));
        assertEquals(3, Digest.padding(1));
        assertEquals(2, Digest.padding(6));
        assertEquals(0, Digest.padding(8));
        assertEquals(40, Digest.padded(38));
    }
}
