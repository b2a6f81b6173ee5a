package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Tests of the field-table codec ({@code ib_pack}/{@code ib_unpack}). */
class IbPackTest {

    /** A generic holder: one long per value field, one byte[] per byte field. */
    static final class Obj {
        final long[] v;
        final byte[][] b;

        Obj(int n) {
            v = new long[n];
            b = new byte[n][];
        }
    }

    static IbField<Obj> val(int i, int words, int bits, int size) {
        return IbField.of("f" + i, words, bits, size, o -> o.v[i], (o, x) -> o.v[i] = x);
    }

    static IbField<Obj> bytes(int i, int words, int bits, int size) {
        return IbField.bytes("b" + i, words, bits, size, o -> o.b[i], (o, x) -> o.b[i] = x);
    }

    // ---- an independent, bit-at-a-time reference of the IBTA bit numbering -------------------

    /** Bit {@code pos} of the buffer, 0 being the most significant bit of byte 0. */
    static int refBit(byte[] buf, int pos) {
        return (buf[pos >>> 3] >> (7 - (pos & 7))) & 1;
    }

    static void refSetBit(byte[] buf, int pos, int bit) {
        int m = 1 << (7 - (pos & 7));
        buf[pos >>> 3] = (byte) (bit != 0 ? buf[pos >>> 3] | m : buf[pos >>> 3] & ~m);
    }

    /** Writes the low {@code size} bits of {@code value}, MSB first, from bit {@code pos}. */
    static void refPut(byte[] buf, int pos, int size, long value) {
        for (int i = 0; i < size; i++) {
            refSetBit(buf, pos + i, (int) (value >>> (size - 1 - i)) & 1);
        }
    }

    static long refGet(byte[] buf, int pos, int size) {
        long v = 0;
        for (int i = 0; i < size; i++) {
            v = v << 1 | refBit(buf, pos + i);
        }
        return v;
    }

    static long mask(int size) {
        return size == 64 ? -1L : (1L << size) - 1;
    }

    // ---- hand-worked geometry -------------------------------------------------------------

    private static byte[] packOne(IbField<Obj> f, long value, int len, int fill) {
        Obj o = new Obj(1);
        o.v[0] = value;
        byte[] buf = new byte[len];
        Arrays.fill(buf, (byte) fill);
        IbPack.pack(List.of(f), o, buf, 0);
        return buf;
    }

    @Test
    void fourBitFieldAtBitFour() {
        // LRH LVer position: word 0, bits 4..7 -> low nibble of byte 0
        assertArrayEquals(Hex.bytes("0a 00 00 00"), packOne(val(0, 0, 4, 4), 0xA, 4, 0));
    }

    @Test
    void twentyBitFlowLabel() {
        // GRH flow label: word 0, bits 12..31 -> low nibble of byte 1 and bytes 2, 3
        assertArrayEquals(Hex.bytes("00 0a bc de"), packOne(val(0, 0, 12, 20), 0xABCDE, 4, 0));
    }

    @Test
    void twentyFourBitQpnInSecondWord() {
        // BTH DestQP: word 1, bits 8..31
        assertArrayEquals(Hex.bytes("00 00 00 00 00 12 34 56"), packOne(val(0, 1, 8, 24), 0x123456, 8, 0));
    }

    @Test
    void twelveBitField() {
        // a VLAN id style 12-bit field at word 0, bits 20..31
        assertArrayEquals(Hex.bytes("00 00 0f ff"), packOne(val(0, 0, 20, 12), 0xFFF, 4, 0));
        assertArrayEquals(Hex.bytes("00 00 0a bc"), packOne(val(0, 0, 20, 12), 0xABC, 4, 0));
    }

    @Test
    void elevenBitPacketLength() {
        // LRH PktLen: word 1, bits 5..15
        assertArrayEquals(Hex.bytes("00 00 00 00 07 ff 00 00"), packOne(val(0, 1, 5, 11), 0x7FF, 8, 0));
        assertArrayEquals(Hex.bytes("00 00 00 00 04 01 00 00"), packOne(val(0, 1, 5, 11), 0x401, 8, 0));
    }

    @Test
    void fieldCrossingAWordBoundary() {
        // 40 bits starting at word 0 bit 16: bytes 2..6 (kernel 64-bit path)
        assertArrayEquals(Hex.bytes("00 00 01 02 03 04 05 00"), packOne(val(0, 0, 16, 40), 0x0102030405L, 8, 0));
        // a 20-bit field straddling words 0 and 1 (bits 24..43), beyond what the kernel's 32-bit path allows
        assertArrayEquals(Hex.bytes("00 00 00 ab cd e0 00 00"), packOne(val(0, 0, 24, 20), 0xABCDE, 8, 0));
    }

    @Test
    void sixtyFourBitField() {
        assertArrayEquals(Hex.bytes("00 00 00 00 01 23 45 67 89 ab cd ef"),
                packOne(val(0, 1, 0, 64), 0x0123456789ABCDEFL, 12, 0));
        Obj o = new Obj(1);
        IbPack.unpack(List.of(val(0, 0, 0, 64)), Hex.bytes("ff ff ff ff ff ff ff fe"), 0, o);
        assertEquals(-2L, o.v[0]);
    }

    @Test
    void valuesWiderThanTheFieldAreMaskedAndNeighboursKept() {
        // 4-bit field at bits 4..7 over an all-ones background, value 0x10: only its low nibble (0) lands
        assertArrayEquals(Hex.bytes("f0 ff ff ff"), packOne(val(0, 0, 4, 4), 0x10, 4, 0xFF));
        // 1-bit field cleared in the middle of ones
        assertArrayEquals(Hex.bytes("ff 7f ff ff"), packOne(val(0, 0, 8, 1), 0, 4, 0xFF));
        // 16-bit DLID given a 20-bit value
        assertArrayEquals(Hex.bytes("00 00 23 45"), packOne(val(0, 0, 16, 16), 0x12345, 4, 0));
        // negative long into 24 bits
        assertArrayEquals(Hex.bytes("ff ff ff ff"), packOne(val(0, 0, 8, 24), -1L, 4, 0xFF));
        assertArrayEquals(Hex.bytes("00 ff ff ff"), packOne(val(0, 0, 8, 24), -1L, 4, 0));
    }

    @Test
    void unpackZeroExtends() {
        Obj o = new Obj(3);
        List<IbField<Obj>> t = List.of(val(0, 0, 0, 32), val(1, 1, 0, 1), val(2, 1, 1, 31));
        IbPack.unpack(t, Hex.bytes("ff ff ff ff ff ff ff ff"), 0, o);
        assertEquals(0xFFFF_FFFFL, o.v[0]);
        assertEquals(1L, o.v[1]);
        assertEquals(0x7FFF_FFFFL, o.v[2]);
    }

    @Test
    void reservedPacksZerosAndIsSkippedOnUnpack() {
        List<IbField<Obj>> t = List.of(IbField.reserved(0, 0, 8), val(0, 0, 8, 24),
                IbField.reserved(1, 0, 96)); // 12 byte-aligned bytes through the memset path
        Obj o = new Obj(1);
        o.v[0] = 0xABCDEF;
        byte[] buf = new byte[16];
        Arrays.fill(buf, (byte) 0xFF);
        IbPack.pack(t, o, buf, 0);
        assertArrayEquals(Hex.bytes("00 ab cd ef 00 00 00 00 00 00 00 00 00 00 00 00"), buf);

        Obj back = new Obj(1);
        IbPack.unpack(t, Hex.bytes("5a 12 34 56 ff ff ff ff ff ff ff ff ff ff ff ff"), 0, back);
        assertEquals(0x123456, back.v[0]);
        assertTrue(IbField.<Obj>reserved(0, 0, 8).isReserved());
        assertEquals(IbField.Kind.RESERVED, IbField.<Obj>reserved(0, 0, 8).kind());
    }

    @Test
    void byteStringFields() {
        // a 128-bit GID at word 3 and a 48-bit MAC at word 1 bit 16 (both byte aligned)
        List<IbField<Obj>> t = List.of(bytes(0, 3, 0, 128), bytes(1, 1, 16, 48));
        Obj o = new Obj(2);
        o.b[0] = Hex.bytes("fe80000000000000 0002c90300abcdef");
        o.b[1] = Hex.bytes("66 77 88 99 aa bb cc"); // longer than needed: first 6 bytes used
        byte[] buf = new byte[28];
        IbPack.pack(t, o, buf, 0);
        assertArrayEquals(Hex.bytes("00000000 0000 6677 8899aabb fe800000 00000000 0002c903 00abcdef"), buf);

        Obj back = new Obj(2);
        IbPack.unpack(t, buf, 0, back);
        assertArrayEquals(o.b[0], back.b[0]);
        assertArrayEquals(Hex.bytes("66 77 88 99 aa bb"), back.b[1]);
        assertEquals(6, back.b[1].length);

        // null packs as zeros
        Obj zeros = new Obj(2);
        Arrays.fill(buf, (byte) 0xFF);
        IbPack.pack(t, zeros, buf, 0);
        assertArrayEquals(Hex.bytes("ffffffff ffff 0000 00000000 00000000 00000000 00000000 00000000"), buf);
        // too short is an error
        zeros.b[0] = new byte[15];
        assertThrows(IllegalArgumentException.class, () -> IbPack.pack(t, zeros, new byte[28], 0));
    }

    @Test
    void packHonoursTheOffset() {
        List<IbField<Obj>> t = List.of(val(0, 0, 0, 8), val(1, 1, 8, 24));
        Obj o = new Obj(2);
        o.v[0] = 0x64;
        o.v[1] = 0x000001;
        byte[] buf = new byte[11];
        IbPack.pack(t, o, buf, 3);
        assertArrayEquals(Hex.bytes("000000 64000000 00000001"), buf);
        Obj back = new Obj(2);
        IbPack.unpack(t, buf, 3, back);
        assertArrayEquals(o.v, back.v);
    }

    @Test
    void byteLengthIsTheSpanOfTheTable() {
        assertEquals(0, IbPack.byteLength(List.<IbField<Obj>>of()));
        assertEquals(4, IbPack.byteLength(List.of(val(0, 0, 0, 4), val(1, 0, 20, 12))));
        assertEquals(6, IbPack.byteLength(List.of(val(0, 0, 24, 20))));
        assertEquals(40, IbPack.byteLength(List.of(bytes(0, 6, 0, 128))));
        IbField<Obj> f = val(0, 1, 5, 11);
        assertEquals(4, f.firstByte());
        assertEquals(6, f.endByte());
        assertEquals(37, f.bitOffset());
    }

    @Test
    void outOfBoundsLeavesBuffersAndObjectsUntouched() {
        List<IbField<Obj>> t = List.of(val(0, 0, 0, 8), val(1, 1, 8, 24));
        Obj o = new Obj(2);
        o.v[0] = 1;
        o.v[1] = 2;
        byte[] small = new byte[7];
        assertThrows(IndexOutOfBoundsException.class, () -> IbPack.pack(t, o, small, 0));
        assertArrayEquals(new byte[7], small);
        assertThrows(IndexOutOfBoundsException.class, () -> IbPack.pack(t, o, new byte[8], 1));
        assertThrows(IndexOutOfBoundsException.class, () -> IbPack.pack(t, o, new byte[8], -1));
        Obj back = new Obj(2);
        assertThrows(IndexOutOfBoundsException.class, () -> IbPack.unpack(t, new byte[7], 0, back));
        assertArrayEquals(new long[2], back.v);
        assertThrows(IndexOutOfBoundsException.class,
                () -> IbPack.pack(t, o, ByteBuffer.allocate(16).limit(7), 0));
        assertThrows(IndexOutOfBoundsException.class,
                () -> IbPack.unpack(t, ByteBuffer.allocate(7), 0, back));
    }

    @Test
    void factoriesRejectImpossibleGeometry() {
        assertThrows(IllegalArgumentException.class, () -> val(0, 0, 0, 65));
        assertThrows(IllegalArgumentException.class, () -> val(0, 0, 8, 64));
        assertThrows(IllegalArgumentException.class, () -> val(0, 0, 32, 1));
        assertThrows(IllegalArgumentException.class, () -> val(0, 0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> val(0, -1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> val(0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> bytes(0, 0, 4, 128));
        assertThrows(IllegalArgumentException.class, () -> bytes(0, 0, 0, 12));
        assertThrows(IllegalArgumentException.class, () -> IbField.reserved(0, 4, 100));
        assertThrows(NullPointerException.class, () -> IbField.<Obj>of("x", 0, 0, 1, null, (o, v) -> { }));
        assertThrows(NullPointerException.class, () -> IbField.<Obj>bytes("x", 0, 0, 8, o -> null, null));
        // limits that are allowed
        val(0, 0, 0, 64);
        val(0, 0, 31, 33);
        bytes(0, 0, 8, 8);
        IbField.reserved(0, 8, 200);
        IbField.reserved(0, 3, 61);
    }

    // ---- generated geometry and values ------------------------------------------------------

    /** Builds a random non-overlapping table of value fields within {@code bytes} bytes. */
    private static List<IbField<Obj>> randomTable(Random rnd, int bytes, int[] starts, int[] sizes) {
        List<IbField<Obj>> t = new ArrayList<>();
        int pos = rnd.nextInt(8);
        int i = 0;
        while (i < starts.length) {
            int bit = pos & 31;
            int max = Math.min(64, 64 - bit);
            int size = 1 + rnd.nextInt(max);
            if (pos + size > bytes * 8) {
                break;
            }
            t.add(val(i, pos >>> 5, bit, size));
            starts[i] = pos;
            sizes[i] = size;
            i++;
            pos += size + rnd.nextInt(5);
        }
        return t;
    }

    @Test
    void randomSingleFieldsMatchTheBitReference() {
        Random rnd = new Random(0x1B1B_2024L);
        for (int iter = 0; iter < 20_000; iter++) {
            int words = rnd.nextInt(4);
            int bits = rnd.nextInt(32);
            int size = 1 + rnd.nextInt(64 - bits);
            IbField<Obj> f = val(0, words, bits, size);
            byte[] background = new byte[24];
            rnd.nextBytes(background);
            long value = rnd.nextLong();

            byte[] actual = background.clone();
            Obj o = new Obj(1);
            o.v[0] = value;
            IbPack.pack(List.of(f), o, actual, 0);

            byte[] expected = background.clone();
            refPut(expected, words * 32 + bits, size, value);
            assertArrayEquals(expected, actual, f::toString);

            Obj back = new Obj(1);
            IbPack.unpack(List.of(f), actual, 0, back);
            assertEquals(value & mask(size), back.v[0], f::toString);
            assertEquals(refGet(actual, words * 32 + bits, size), back.v[0], f::toString);
        }
    }

    @Test
    void randomTablesRoundTripAndAgreeAcrossBufferKinds() {
        Random rnd = new Random(42);
        for (int iter = 0; iter < 2_000; iter++) {
            int[] starts = new int[12];
            int[] sizes = new int[12];
            List<IbField<Obj>> t = randomTable(rnd, 40, starts, sizes);
            int n = t.size();
            Obj o = new Obj(12);
            for (int i = 0; i < n; i++) {
                o.v[i] = rnd.nextLong();
            }
            int off = rnd.nextInt(5);
            byte[] arr = new byte[off + 44];
            rnd.nextBytes(arr);
            byte[] background = arr.clone();
            byte[] ref = arr.clone();
            IbPack.pack(t, o, arr, off);
            for (int i = 0; i < n; i++) {
                refPut(ref, off * 8 + starts[i], sizes[i], o.v[i]);
            }
            assertArrayEquals(ref, arr);

            Obj back = new Obj(12);
            IbPack.unpack(t, arr, off, back);
            for (int i = 0; i < n; i++) {
                assertEquals(o.v[i] & mask(sizes[i]), back.v[i]);
            }

            // heap and direct ByteBuffers produce the same bytes and keep position/limit
            for (ByteBuffer bb : new ByteBuffer[] {ByteBuffer.allocate(arr.length), ByteBuffer.allocateDirect(arr.length)}) {
                bb.put(0, background, 0, background.length);
                bb.position(3).limit(arr.length);
                IbPack.pack(t, o, bb, off);
                assertEquals(3, bb.position());
                assertEquals(arr.length, bb.limit());
                byte[] got = new byte[arr.length];
                bb.get(0, got);
                assertArrayEquals(arr, got);
                Obj viaBuffer = new Obj(12);
                IbPack.unpack(t, bb, off, viaBuffer);
                assertArrayEquals(back.v, viaBuffer.v);
                assertEquals(3, bb.position());
            }
        }
    }

    @Test
    void byteBufferByteFieldsAndReserved() {
        List<IbField<Obj>> t = List.of(IbField.reserved(0, 0, 16), bytes(0, 0, 16, 48), IbField.reserved(2, 0, 96));
        Obj o = new Obj(1);
        o.b[0] = Hex.bytes("010203040506");
        ByteBuffer bb = ByteBuffer.allocate(20);
        for (int i = 0; i < 20; i++) {
            bb.put(i, (byte) 0xEE);
        }
        IbPack.pack(t, o, bb, 0);
        byte[] got = new byte[20];
        bb.get(0, got);
        assertArrayEquals(Hex.bytes("0000 0102 03040506 00000000 00000000 00000000"), got);
        Obj back = new Obj(1);
        IbPack.unpack(t, bb, 0, back);
        assertArrayEquals(o.b[0], back.b[0]);
    }
}
