package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** VCRC known answers, error detection and wire order. */
class VcrcTest {

    /**
     * An independent formulation: a plain MSB-first shift register with the normal polynomial
     * 0x100B, fed with each byte bit-reversed (LSB first on the wire), result bit-reversed, preset
     * and final XOR 0xFFFF. The production code uses a reflected (0xD008) byte table instead.
     */
    static int reference(byte[] data, int off, int len) {
        int reg = 0xFFFF;
        for (int i = off; i < off + len; i++) {
            int b = Integer.reverse(data[i] & 0xFF) >>> 24;
            reg ^= b << 8;
            for (int k = 0; k < 8; k++) {
                reg = (reg & 0x8000) != 0 ? ((reg << 1) ^ 0x100B) & 0xFFFF : (reg << 1) & 0xFFFF;
            }
        }
        return (Integer.reverse(reg) >>> 16) ^ 0xFFFF;
    }

    @Test
    void checkValue() {
        // The catalogue-style check value over ASCII "123456789", computed by the reference above
        // and independently by a bitwise Python implementation: 0x0a3d
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x0A3D, Vcrc.compute(check, 0, 9));
        assertEquals(0x0A3D, reference(check, 0, 9));
    }

    @Test
    void smallKnownAnswers() {
        // from the same Python script
        assertEquals(0x0000, Vcrc.compute(new byte[0], 0, 0));
        assertEquals(0xF660, Vcrc.compute(new byte[1], 0, 1));
        assertEquals(0xAA90, Vcrc.compute(Hex.bytes("ff ff ff ff"), 0, 4));
        byte[] ramp = new byte[256];
        for (int i = 0; i < 256; i++) {
            ramp[i] = (byte) i;
        }
        assertEquals(0xA799, Vcrc.compute(ramp, 0, 256));
    }

    @Test
    void mpgaPacketKnownAnswer() {
        // Mellanox MPGA's test_array_vcrc: the 52-byte local packet plus its ICRC, the 56 bytes
        // the VCRC covers. MPGA gives no VCRC value; 0xfa45 is from the Python script.
        byte[] covered = Arrays.copyOf(IcrcTest.MPGA_LOCAL, 56);
        System.arraycopy(IcrcTest.MPGA_LOCAL_ICRC, 0, covered, 52, 4);
        assertEquals(0xFA45, Vcrc.compute(covered, 0, 56));
        byte[] pkt = Arrays.copyOf(covered, 58);
        assertEquals(58, Vcrc.append(pkt, 0, 56));
        assertArrayEquals(Hex.bytes("45 fa"), Arrays.copyOfRange(pkt, 56, 58));
        assertTrue(Vcrc.verify(pkt, 0, 58));
    }

    @Test
    void tableMatchesTheBitwiseReference() {
        Random r = new Random(0x100B);
        for (int i = 0; i < 2_000; i++) {
            byte[] d = new byte[r.nextInt(300)];
            r.nextBytes(d);
            int off = d.length == 0 ? 0 : r.nextInt(d.length);
            int len = d.length - off;
            assertEquals(reference(d, off, len), Vcrc.compute(d, off, len));
        }
    }

    @Test
    void littleEndianAppendGivesAConstantResidue() {
        // With a reflected CRC appended LSB first, the CRC over message + CRC is the same for
        // every message (0xaa90 here, with the final XOR applied); the check a receiver can do
        // without locating the field.
        Random r = new Random(9);
        for (int i = 0; i < 500; i++) {
            byte[] d = new byte[1 + r.nextInt(200) + 2];
            r.nextBytes(d);
            Vcrc.append(d, 0, d.length - 2);
            assertEquals(0xAA90, Vcrc.compute(d, 0, d.length));
        }
    }

    @Test
    void everySingleBitFlipIsDetected() {
        byte[] pkt = Arrays.copyOf(IcrcTest.MPGA_LOCAL, 58);
        Icrc.appendIb(pkt, 0, 52);
        Vcrc.append(pkt, 0, 56);
        assertTrue(Vcrc.verify(pkt, 0, 58));
        int flips = 0;
        for (int bit = 0; bit < pkt.length * 8; bit++) {
            byte[] q = pkt.clone();
            q[bit >>> 3] ^= (byte) (1 << (bit & 7));
            assertFalse(Vcrc.verify(q, 0, 58), "bit " + bit);
            flips++;
        }
        assertEquals(464, flips);
    }

    @Test
    void burstsUpToSixteenBitsAreDetected() {
        // any CRC of degree 16 with a non-zero constant term catches every burst of length <= 16
        byte[] pkt = new byte[130];
        new Random(3).nextBytes(pkt);
        Vcrc.append(pkt, 0, 128);
        Random r = new Random(4);
        for (int i = 0; i < 20_000; i++) {
            int length = 1 + r.nextInt(16);
            long middle = length > 2 ? r.nextInt(1 << (length - 2)) : 0;
            long pattern = 1 | middle << 1 | 1L << (length - 1); // first and last bit of the burst set
            int start = r.nextInt(pkt.length * 8 - length + 1);
            byte[] q = pkt.clone();
            for (int b = 0; b < length; b++) {
                if ((pattern >>> b & 1) != 0) {
                    int pos = start + b;
                    q[pos >>> 3] ^= (byte) (1 << (pos & 7));
                }
            }
            assertFalse(Vcrc.verify(q, 0, q.length), () -> "burst at " + start);
        }
    }

    @Test
    void wireOrderAndBounds() {
        byte[] b = new byte[4];
        Vcrc.put(0xFA45, b, 1);
        assertArrayEquals(Hex.bytes("00 45 fa 00"), b);
        assertEquals(0xFA45, Vcrc.get(b, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> Vcrc.put(0, b, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Vcrc.get(b, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Vcrc.compute(b, 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Vcrc.compute(ByteBuffer.allocate(4), 2, 3));
        assertEquals(0x100B, Vcrc.POLYNOMIAL);
    }

    @Test
    void byteBufferMatchesArray() {
        Random r = new Random(5);
        for (int i = 0; i < 200; i++) {
            byte[] d = new byte[1 + r.nextInt(100)];
            r.nextBytes(d);
            ByteBuffer direct = ByteBuffer.allocateDirect(d.length + 3);
            direct.put(3, d);
            direct.position(1).limit(d.length + 3);
            assertEquals(Vcrc.compute(d, 0, d.length), Vcrc.compute(direct, 3, d.length));
            assertEquals(Vcrc.compute(d, 0, d.length), Vcrc.compute(ByteBuffer.wrap(d), 0, d.length));
            assertEquals(1, direct.position());
        }
    }
}
