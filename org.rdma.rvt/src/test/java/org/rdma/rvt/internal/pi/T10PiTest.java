package org.rdma.rvt.internal.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.testkit.Dif;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.SigDomain;
import org.rdma.verbs.SignatureType;
import org.rdma.verbs.T10DifBgType;

/** The guard functions and tuple layout against published and independently computed vectors. */
class T10PiTest {
    /** 512 bytes of {@code (i * 7 + 3) & 0xff}. */
    private static ByteBuffer sector() {
        ByteBuffer b = ByteBuffer.allocate(512);
        for (int i = 0; i < 512; i++) {
            b.put(i, (byte) (i * 7 + 3));
        }
        return b;
    }

    @Test
    void crcCheckValueOfTheT10DifPolynomialIs0xD0DB() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xD0DB, T10Pi.crc16(0, check, 0, check.length));
        assertEquals(0xD0DB, T10Pi.crc16(0, ByteBuffer.wrap(check), 0, check.length));
    }

    @Test
    void sectorVectorsWorkedOutBitByBit() {
        // computed with a bit-serial CRC-16/T10-DIF outside this code base
        assertEquals(0xF958, T10Pi.crc16(0, sector(), 0, 512));
        ByteBuffer ones = ByteBuffer.allocate(512);
        for (int i = 0; i < 512; i++) {
            ones.put(i, (byte) 0xff);
        }
        assertEquals(0xE6A1, T10Pi.crc16(0, ones, 0, 512));
        assertEquals(0, T10Pi.crc16(0, ByteBuffer.allocate(512), 0, 512));
        assertEquals(Dif.crc(sector(), 0, 512), T10Pi.crc16(0, sector(), 0, 512));
    }

    @Test
    void crcContinuesAcrossPieces() {
        ByteBuffer s = sector();
        Random rnd = new Random(5);
        for (int round = 0; round < 50; round++) {
            int c = 0;
            int off = 0;
            while (off < 512) {
                int n = Math.min(512 - off, 1 + rnd.nextInt(100));
                c = T10Pi.crc16(c, s, off, n);
                off += n;
            }
            assertEquals(0xF958, c);
        }
    }

    @Test
    void internetChecksumMatchesRfc1071AndContinuesAcrossOddPieces() {
        // RFC 1071 section 3 example: the words 0001 f203 f4f5 f6f7 sum to ddf2; the checksum is its complement
        ByteBuffer rfc = ByteBuffer.wrap(new byte[] {0x00, 0x01, (byte) 0xf2, 0x03, (byte) 0xf4, (byte) 0xf5,
            (byte) 0xf6, (byte) 0xf7});
        assertEquals(0x220D, T10Pi.csumFold(T10Pi.csumAdd(0, rfc, 0, 8, false)));
        assertEquals(0x807F, T10Pi.csumFold(T10Pi.csumAdd(0, sector(), 0, 512, false)));
        ByteBuffer s = sector();
        int sum = T10Pi.csumAdd(0, s, 0, 3, false);
        sum = T10Pi.csumAdd(sum, s, 3, 200, true);
        sum = T10Pi.csumAdd(sum, s, 203, 309, true);
        assertEquals(0x807F, T10Pi.csumFold(sum));
        assertEquals(Dif.csum(s, 0, 512), T10Pi.csumFold(sum));
    }

    @Test
    void tupleIsGuardAppTagRefTagBigEndian() {
        long t = T10Pi.tuple(0xF958, 0x002A, 0x00001000);
        byte[] want = {(byte) 0xF9, 0x58, 0x00, 0x2A, 0x00, 0x00, 0x10, 0x00};
        for (int i = 0; i < 8; i++) {
            assertEquals(want[i], T10Pi.byteAt(t, i), "byte " + i);
        }
        assertEquals(0xF958, T10Pi.guard(t));
        assertEquals(0x2A, T10Pi.appTag(t));
        assertEquals(0x1000, T10Pi.refTag(t));
        assertEquals(T10Pi.tuple(0xF958, 0x002A, 0x12001000), T10Pi.withByte(t, 4, (byte) 0x12));
        ByteBuffer b = ByteBuffer.allocate(8);
        Dif.putTuple(b, 0, 0xF958, 0x2A, 0x1000);
        assertEquals(ByteBuffer.wrap(want), b);
    }

    @Test
    void checkMaskSelectsTupleBytes() {
        assertEquals(0xffff, PiDomain.guardMask(SigAttrs.CHECK_GUARD));
        assertEquals(0xff00, PiDomain.guardMask(0x80));
        assertEquals(0, PiDomain.guardMask(SigAttrs.CHECK_APPTAG | SigAttrs.CHECK_REFTAG));
        assertEquals(0xffff_ffff, PiDomain.refMask(SigAttrs.CHECK_REFTAG));
        assertEquals(0x0000_00ff, PiDomain.refMask(0x01));
        assertEquals(0xff00_0000, PiDomain.refMask(0x08));
        PiDomain d = new PiDomain();
        SigDomain sd = new SigDomain();
        sd.sigType = SignatureType.T10_DIF;
        sd.dif.apptagCheckMask = 0x0ff0;
        d.set(sd);
        assertEquals(0x0ff0, d.appMask(SigAttrs.CHECK_APPTAG));
        assertEquals(0x00f0, d.appMask(0x10));
    }

    @Test
    void domainsTheDeviceCannotApplyAreRefused() {
        SigDomain d = new SigDomain();
        assertTrue(PiDomain.valid(d));
        d.sigType = SignatureType.T10_DIF;
        assertTrue(PiDomain.valid(d));
        d.dif.piInterval = 520;
        assertFalse(PiDomain.valid(d));
        d.dif.piInterval = 8192;
        assertFalse(PiDomain.valid(d));
        d.dif.piInterval = 4096;
        d.dif.bgType = null;
        assertFalse(PiDomain.valid(d));
        d.dif.bgType = T10DifBgType.CSUM;
        assertTrue(PiDomain.valid(d));
        d.sigType = null;
        assertFalse(PiDomain.valid(d));
    }

    @Test
    void referenceTagsIncrementWhenRemappedAndEscapesSkip() {
        SigDomain sd = new SigDomain();
        sd.sigType = SignatureType.T10_DIF;
        sd.dif.refTag = -2;
        sd.dif.refRemap = true;
        sd.dif.appEscape = true;
        PiDomain d = new PiDomain();
        d.set(sd);
        assertEquals(-2, d.refTag(0));
        assertEquals(1, d.refTag(3));
        assertTrue(d.escaped(T10Pi.tuple(0, 0xffff, 5)));
        assertFalse(d.escaped(T10Pi.tuple(0, 0xfffe, 5)));
        sd.dif.appEscape = false;
        sd.dif.refEscape = true;
        d.set(sd);
        assertFalse(d.escaped(T10Pi.tuple(0, 0xffff, 5)));
        assertTrue(d.escaped(T10Pi.tuple(0, 0xffff, -1)));
    }
}
