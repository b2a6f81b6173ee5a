package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbPackTest.Obj;

/**
 * The compiled form of a field table ({@link IbCodec}) writes and reads exactly what
 * {@link IbPack} does, with the same checks; single fields ({@link IbPack#get}, {@link IbPack#put})
 * and GID fields ({@link IbField#gid}).
 */
class IbCodecTest {

    /** A holder with GID fields as well as value and byte fields. */
    static final class GidObj {
        long a;
        Gid g = Gid.ZERO;
        Gid h = Gid.ZERO;
        byte[] mac;
    }

    static final List<IbField<GidObj>> GID_TABLE = List.of(
            IbField.of("a", 0, 0, 20, o -> o.a, (o, v) -> o.a = v),
            IbField.reserved(0, 20, 12),
            IbField.gid("g", 1, 0, o -> o.g, (o, v) -> o.g = v),
            IbField.bytes("mac", 5, 0, 48, o -> o.mac, (o, v) -> o.mac = v),
            IbField.reserved(6, 16, 16),
            IbField.gid("h", 7, 0, o -> o.h, (o, v) -> o.h = v));

    @Test
    void everyWireCodecCompilesToTheSameBytesAsTheTableWalk() {
        Random r = new Random(0x1BC0DEC);
        for (MadCodecs.Codec<?> c : MadCodecs.all()) {
            sameAsTableWalk(c, r);
        }
    }

    private static <T> void sameAsTableWalk(MadCodecs.Codec<T> c, Random r) {
        IbCodec<T> codec = IbCodec.of(c.table());
        assertEquals(c.bytes(), codec.byteLength(), c.name());
        for (int i = 0; i < 50; i++) {
            T obj = MadCodecs.randomize(c, c.make().get(), r);
            int off = r.nextInt(5);
            byte[] walked = new byte[off + c.bytes() + 2];
            r.nextBytes(walked);
            byte[] compiled = walked.clone();
            IbPack.pack(c.table(), obj, walked, off);
            codec.pack(obj, compiled, off);
            assertArrayEquals(walked, compiled, c.name());
            assertEquals(obj, codec.unpack(compiled, off, c.make().get()), c.name());
        }
    }

    @Test
    void randomTablesAgreeWithTheBitReference() {
        Random rnd = new Random(7);
        for (int iter = 0; iter < 300; iter++) {
            List<IbField<Obj>> t = new ArrayList<>();
            List<int[]> geometry = new ArrayList<>();
            int pos = rnd.nextInt(8);
            while (t.size() < 12) {
                int bit = pos & 31;
                int size = 1 + rnd.nextInt(64 - bit);
                if (pos + size > 40 * 8) {
                    break;
                }
                t.add(IbPackTest.val(t.size(), pos >>> 5, bit, size));
                geometry.add(new int[] {pos, size});
                pos += size + rnd.nextInt(5);
            }
            Obj o = new Obj(12);
            for (int i = 0; i < t.size(); i++) {
                o.v[i] = rnd.nextLong();
            }
            int off = rnd.nextInt(5);
            byte[] buf = new byte[off + 44];
            rnd.nextBytes(buf);
            byte[] ref = buf.clone();
            IbCodec.of(t).pack(o, buf, off);
            for (int i = 0; i < t.size(); i++) {
                IbPackTest.refPut(ref, off * 8 + geometry.get(i)[0], geometry.get(i)[1], o.v[i]);
            }
            assertArrayEquals(ref, buf, "pack keeps the bits no field covers");
            Obj back = IbCodec.of(t).unpack(buf, off, new Obj(12));
            for (int i = 0; i < t.size(); i++) {
                assertEquals(o.v[i] & IbPackTest.mask(geometry.get(i)[1]), back.v[i], t.get(i).toString());
            }
        }
    }

    @Test
    void gidFieldsMoveTheGidAndLookLikeByteFields() {
        GidObj o = new GidObj();
        o.a = 0xABCDE;
        o.g = Gid.of(0xfe80_0000_0000_0000L, 0x0002_c903_00ab_cdefL);
        o.h = Gid.of(0x0102_0304_0506_0708L, 0x090a_0b0c_0d0e_0f10L);
        o.mac = Hex.bytes("665544332211");
        byte[] expected = Hex.bytes("abcde000 fe800000 00000000 0002c903 00abcdef 66554433 22110000"
                + " 01020304 05060708 090a0b0c 0d0e0f10");
        byte[] walked = new byte[44];
        IbPack.pack(GID_TABLE, o, walked, 0);
        assertArrayEquals(expected, walked);
        byte[] compiled = new byte[44];
        IbCodec.of(GID_TABLE).pack(o, compiled, 0);
        assertArrayEquals(expected, compiled);
        ByteBuffer bb = ByteBuffer.allocate(44);
        IbPack.pack(GID_TABLE, o, bb, 0);
        assertArrayEquals(expected, bb.array());

        for (GidObj back : new GidObj[] {IbCodec.of(GID_TABLE).unpack(expected, 0, new GidObj()),
            unpacked(expected), unpacked(ByteBuffer.wrap(expected))}) {
            assertEquals(o.a, back.a);
            assertEquals(o.g, back.g);
            assertEquals(o.h, back.h);
            assertArrayEquals(o.mac, back.mac);
        }
        assertSame(Gid.ZERO, IbCodec.of(GID_TABLE).unpack(new byte[44], 0, new GidObj()).g, "zero GIDs are Gid.ZERO");

        // a GID field is a 16-byte byte field to code that treats all byte fields alike
        IbField<GidObj> g = GID_TABLE.get(2);
        assertEquals(IbField.Kind.BYTES, g.kind());
        assertEquals(128, g.sizeBits());
        assertArrayEquals(o.g.bytes(), g.getBytes(o));
        g.setBytes(o, o.h.bytes());
        assertEquals(o.h, o.g);

        // a null GID packs as zeros
        o.g = null;
        Arrays.fill(compiled, (byte) 0xFF);
        IbCodec.of(GID_TABLE).pack(o, compiled, 0);
        assertArrayEquals(new byte[16], Arrays.copyOfRange(compiled, 4, 20));
    }

    private static GidObj unpacked(byte[] b) {
        GidObj o = new GidObj();
        IbPack.unpack(GID_TABLE, b, 0, o);
        return o;
    }

    private static GidObj unpacked(ByteBuffer b) {
        GidObj o = new GidObj();
        IbPack.unpack(GID_TABLE, b, 0, o);
        return o;
    }

    @Test
    void theChecksAreTheTableWalks() {
        IbCodec<Obj> c = IbCodec.of(List.of(IbPackTest.val(0, 0, 0, 8), IbPackTest.val(1, 1, 8, 24)));
        Obj o = new Obj(2);
        o.v[0] = 1;
        o.v[1] = 2;
        byte[] small = new byte[7];
        assertThrows(IndexOutOfBoundsException.class, () -> c.pack(o, small, 0));
        assertArrayEquals(new byte[7], small, "a table that does not fit leaves the buffer untouched");
        assertThrows(IndexOutOfBoundsException.class, () -> c.pack(o, new byte[8], 1));
        assertThrows(IndexOutOfBoundsException.class, () -> c.pack(o, new byte[8], -1));
        Obj back = new Obj(2);
        assertThrows(IndexOutOfBoundsException.class, () -> c.unpack(new byte[7], 0, back));
        assertArrayEquals(new long[2], back.v, "nor the object");
        assertThrows(NullPointerException.class, () -> c.pack(null, new byte[8], 0));
        assertThrows(NullPointerException.class, () -> c.unpack(new byte[8], 0, null));

        IbCodec<Obj> bytes = IbCodec.of(List.of(IbPackTest.bytes(0, 0, 0, 64)));
        Obj shortValue = new Obj(1);
        shortValue.b[0] = new byte[7];
        assertThrows(IllegalArgumentException.class, () -> bytes.pack(shortValue, new byte[8], 0));
        Obj none = new Obj(1);
        byte[] buf = Hex.bytes("ffffffffffffffff");
        bytes.pack(none, buf, 0);
        assertArrayEquals(new byte[8], buf, "a null byte field packs as zeros");

        IbCodec<Obj> empty = IbCodec.of(List.of());
        empty.pack(o, new byte[0], 0);
        assertEquals(0, empty.byteLength());
    }

    @Test
    void reservedRangesPackAsZerosAndAreNotRead() {
        List<IbField<Obj>> t = List.of(IbField.reserved(0, 0, 4), IbPackTest.val(0, 0, 4, 12),
                IbField.reserved(0, 16, 16), IbField.reserved(1, 0, 96));
        Obj o = new Obj(1);
        o.v[0] = 0xABC;
        byte[] buf = new byte[16];
        Arrays.fill(buf, (byte) 0xFF);
        IbCodec.of(t).pack(o, buf, 0);
        assertArrayEquals(Hex.bytes("0abc0000 00000000 00000000 00000000"), buf);
        Obj back = IbCodec.of(t).unpack(Hex.bytes("fabcffff ffffffff ffffffff ffffffff"), 0, new Obj(1));
        assertEquals(0xABC, back.v[0]);
    }

    @Test
    void singleFieldsAreReadAndWrittenInPlace() {
        Random rnd = new Random(99);
        for (int iter = 0; iter < 5_000; iter++) {
            int words = rnd.nextInt(4);
            int bits = rnd.nextInt(32);
            int size = 1 + rnd.nextInt(64 - bits);
            IbField<Obj> f = IbPackTest.val(0, words, bits, size);
            int off = rnd.nextInt(4);
            byte[] background = new byte[off + 24];
            rnd.nextBytes(background);
            long value = rnd.nextLong();
            byte[] actual = background.clone();
            IbPack.put(f, actual, off, value);
            byte[] expected = background.clone();
            IbPackTest.refPut(expected, off * 8 + words * 32 + bits, size, value);
            assertArrayEquals(expected, actual, f::toString);
            assertEquals(value & IbPackTest.mask(size), IbPack.get(f, actual, off), f::toString);
        }
        IbField<Obj> f = IbPackTest.val(0, 1, 0, 32);
        assertThrows(IndexOutOfBoundsException.class, () -> IbPack.get(f, new byte[7], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> IbPack.put(f, new byte[8], 1, 0));
        assertThrows(IllegalArgumentException.class, () -> IbPack.get(IbPackTest.bytes(0, 0, 0, 8), new byte[8], 0));
        assertThrows(IllegalArgumentException.class, () -> IbPack.put(IbField.reserved(0, 0, 8), new byte[8], 0, 1));
    }
}
