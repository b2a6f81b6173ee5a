package org.rdma.verbs.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;

/**
 * Table-driven packing of Java objects into big-endian wire headers and back.
 *
 * <p>Mirrors {@code ib_pack()} and {@code ib_unpack()} (drivers/infiniband/core/packer.c): every
 * entry of a field table ({@link IbField}) is written into, or read from, its bit range of the
 * buffer in network byte order, bit 0 of a word being its most significant bit. Pack is a
 * read-modify-write: bits of the buffer not covered by the table keep their value, exactly like
 * the kernel's {@code (*addr & ~mask) | (val & mask)}.
 *
 * <p>Compared with the kernel this implementation also accepts value fields of at most 32 bits
 * that cross a 32-bit word boundary (any field with {@code offsetBits + sizeBits <= 64}) and
 * byte-string fields of any whole number of bytes.
 *
 * <p>The {@link ByteBuffer} variants use absolute indexing: they neither read nor change the
 * buffer's position, limit or byte order.
 */
public final class IbPack {
    /**
     * {@link #byteLength} of the tables seen so far, by identity: tables are constants, and
     * computing the span on every pack and unpack cost more than the packing of small MADs.
     * Copy-on-write, so that lookups take no lock.
     */
    private static volatile IdentityHashMap<List<?>, Integer> spans = new IdentityHashMap<>();

    private IbPack() {
    }

    /** {@link #byteLength}, remembered per table. */
    private static <T> int span(List<IbField<T>> desc) {
        Integer known = spans.get(desc);
        if (known != null) {
            return known;
        }
        int n = byteLength(desc);
        synchronized (IbPack.class) {
            IdentityHashMap<List<?>, Integer> next = new IdentityHashMap<>(spans);
            next.put(desc, n);
            spans = next;
        }
        return n;
    }

    /**
     * The number of bytes a field table spans from the start of its header, i.e. one past the last
     * byte any entry touches.
     *
     * @param desc the field table
     * @param <T>  the header type
     * @return the span in bytes (0 for an empty table)
     */
    public static <T> int byteLength(List<IbField<T>> desc) {
        int end = 0;
        for (IbField<T> f : desc) {
            end = Math.max(end, f.endByte());
        }
        return end;
    }

    /**
     * Packs {@code obj} into {@code buf} at {@code offset} as described by {@code desc}.
     *
     * <p>Mirrors {@code ib_pack()} (drivers/infiniband/core/packer.c). Values wider than their
     * field are truncated to the field's low-order bits; reserved ranges are cleared.
     *
     * @param desc   the field table
     * @param obj    the object to read values from
     * @param buf    the destination buffer
     * @param offset the offset of the header's first byte in {@code buf}
     * @param <T>    the header type
     * @throws IndexOutOfBoundsException if the table does not fit in {@code buf} at {@code offset};
     *                                   the buffer is then left unmodified
     */
    public static <T> void pack(List<IbField<T>> desc, T obj, byte[] buf, int offset) {
        Objects.requireNonNull(obj, "obj");
        Objects.checkFromIndexSize(offset, span(desc), buf.length);
        for (int k = 0, count = desc.size(); k < count; k++) {
            IbField<T> f = desc.get(k);
            if (f.usesBitPath()) {
                long value = f.isReserved() ? 0L : f.get(obj);
                putBits(buf, offset + f.firstByte(), f.bitOffset() & 7, f.sizeBits(), value);
            } else {
                int start = offset + f.firstByte();
                int n = f.sizeBits() >>> 3;
                byte[] src = f.isReserved() ? null : f.getBytes(obj);
                copyIn(f, src, n, buf, start);
            }
        }
    }

    /**
     * Unpacks the fields described by {@code desc} from {@code buf} at {@code offset} into
     * {@code obj}. Reserved ranges are skipped; values are zero-extended.
     *
     * <p>Mirrors {@code ib_unpack()} (drivers/infiniband/core/packer.c).
     *
     * @param desc   the field table
     * @param buf    the source buffer
     * @param offset the offset of the header's first byte in {@code buf}
     * @param obj    the object to store values into
     * @param <T>    the header type
     * @throws IndexOutOfBoundsException if the table does not fit in {@code buf} at {@code offset};
     *                                   {@code obj} is then left unmodified
     */
    public static <T> void unpack(List<IbField<T>> desc, byte[] buf, int offset, T obj) {
        Objects.requireNonNull(obj, "obj");
        Objects.checkFromIndexSize(offset, span(desc), buf.length);
        for (int k = 0, count = desc.size(); k < count; k++) {
            IbField<T> f = desc.get(k);
            if (f.isReserved()) {
                continue;
            }
            if (f.usesBitPath()) {
                f.set(obj, getBits(buf, offset + f.firstByte(), f.bitOffset() & 7, f.sizeBits()));
            } else {
                int start = offset + f.firstByte();
                f.setBytes(obj, Arrays.copyOfRange(buf, start, start + (f.sizeBits() >>> 3)));
            }
        }
    }

    /**
     * {@link ByteBuffer} variant of {@link #pack(List, Object, byte[], int)}, writing at absolute
     * index {@code index}.
     *
     * @param desc  the field table
     * @param obj   the object to read values from
     * @param buf   the destination buffer
     * @param index the absolute index of the header's first byte
     * @param <T>   the header type
     * @throws IndexOutOfBoundsException if the table does not fit below the buffer's limit
     */
    public static <T> void pack(List<IbField<T>> desc, T obj, ByteBuffer buf, int index) {
        Objects.requireNonNull(obj, "obj");
        Objects.checkFromIndexSize(index, span(desc), buf.limit());
        for (int k = 0, count = desc.size(); k < count; k++) {
            IbField<T> f = desc.get(k);
            int start = index + f.firstByte();
            if (f.usesBitPath()) {
                long value = f.isReserved() ? 0L : f.get(obj);
                int bitInByte = f.bitOffset() & 7;
                int n = (bitInByte + f.sizeBits() + 7) >>> 3;
                long window = 0;
                for (int i = 0; i < n; i++) {
                    window = (window << 8) | (buf.get(start + i) & 0xFF);
                }
                window = merge(window, n, bitInByte, f.sizeBits(), value);
                for (int i = n - 1; i >= 0; i--) {
                    buf.put(start + i, (byte) window);
                    window >>>= 8;
                }
            } else {
                int n = f.sizeBits() >>> 3;
                byte[] src = f.isReserved() ? null : f.getBytes(obj);
                checkSource(f, src, n);
                for (int i = 0; i < n; i++) {
                    buf.put(start + i, src == null ? 0 : src[i]);
                }
            }
        }
    }

    /**
     * {@link ByteBuffer} variant of {@link #unpack(List, byte[], int, Object)}, reading at absolute
     * index {@code index}.
     *
     * @param desc  the field table
     * @param buf   the source buffer
     * @param index the absolute index of the header's first byte
     * @param obj   the object to store values into
     * @param <T>   the header type
     * @throws IndexOutOfBoundsException if the table does not fit below the buffer's limit
     */
    public static <T> void unpack(List<IbField<T>> desc, ByteBuffer buf, int index, T obj) {
        Objects.requireNonNull(obj, "obj");
        Objects.checkFromIndexSize(index, span(desc), buf.limit());
        for (int k = 0, count = desc.size(); k < count; k++) {
            IbField<T> f = desc.get(k);
            if (f.isReserved()) {
                continue;
            }
            int start = index + f.firstByte();
            if (f.usesBitPath()) {
                int bitInByte = f.bitOffset() & 7;
                int n = (bitInByte + f.sizeBits() + 7) >>> 3;
                long window = 0;
                for (int i = 0; i < n; i++) {
                    window = (window << 8) | (buf.get(start + i) & 0xFF);
                }
                f.set(obj, extract(window, n, bitInByte, f.sizeBits()));
            } else {
                byte[] out = new byte[f.sizeBits() >>> 3];
                for (int i = 0; i < out.length; i++) {
                    out[i] = buf.get(start + i);
                }
                f.setBytes(obj, out);
            }
        }
    }

    /**
     * Writes the low {@code sizeBits} bits of {@code value} big-endian into {@code buf}, the field's
     * most significant bit landing on bit {@code bitInByte} (0 = MSB) of byte {@code start}.
     * The field must fit in 8 bytes ({@code bitInByte + sizeBits <= 64}).
     *
     * @param buf       destination
     * @param start     first byte touched
     * @param bitInByte 0..7, bit position of the field's MSB within {@code buf[start]}
     * @param sizeBits  1..64
     * @param value     the value; bits above {@code sizeBits} are ignored
     */
    static void putBits(byte[] buf, int start, int bitInByte, int sizeBits, long value) {
        if (bitInByte == 0 && (sizeBits & 7) == 0) {
            // whole bytes (most MAD fields): no neighbouring bits to keep
            for (int i = (sizeBits >>> 3) - 1; i >= 0; i--) {
                buf[start + i] = (byte) value;
                value >>>= 8;
            }
            return;
        }
        int n = (bitInByte + sizeBits + 7) >>> 3;
        long window = 0;
        for (int i = 0; i < n; i++) {
            window = (window << 8) | (buf[start + i] & 0xFF);
        }
        window = merge(window, n, bitInByte, sizeBits, value);
        for (int i = n - 1; i >= 0; i--) {
            buf[start + i] = (byte) window;
            window >>>= 8;
        }
    }

    /**
     * Reads a big-endian bit field, zero-extended; the counterpart of
     * {@link #putBits(byte[], int, int, int, long)}.
     *
     * @param buf       source
     * @param start     first byte touched
     * @param bitInByte 0..7, bit position of the field's MSB within {@code buf[start]}
     * @param sizeBits  1..64
     * @return the field value
     */
    static long getBits(byte[] buf, int start, int bitInByte, int sizeBits) {
        if (bitInByte == 0 && (sizeBits & 7) == 0) {
            long v = 0;
            for (int i = 0, n = sizeBits >>> 3; i < n; i++) {
                v = (v << 8) | (buf[start + i] & 0xFF);
            }
            return v;
        }
        int n = (bitInByte + sizeBits + 7) >>> 3;
        long window = 0;
        for (int i = 0; i < n; i++) {
            window = (window << 8) | (buf[start + i] & 0xFF);
        }
        return extract(window, n, bitInByte, sizeBits);
    }

    private static long lowMask(int sizeBits) {
        return sizeBits == 64 ? -1L : (1L << sizeBits) - 1;
    }

    private static long merge(long window, int nBytes, int bitInByte, int sizeBits, long value) {
        int shift = nBytes * 8 - bitInByte - sizeBits;
        long mask = lowMask(sizeBits) << shift;
        return (window & ~mask) | ((value << shift) & mask);
    }

    private static long extract(long window, int nBytes, int bitInByte, int sizeBits) {
        int shift = nBytes * 8 - bitInByte - sizeBits;
        return (window >>> shift) & lowMask(sizeBits);
    }

    private static void checkSource(IbField<?> f, byte[] src, int n) {
        if (src != null && src.length < n) {
            throw new IllegalArgumentException(f.name() + ": needs " + n + " bytes, value has " + src.length);
        }
    }

    private static void copyIn(IbField<?> f, byte[] src, int n, byte[] buf, int start) {
        checkSource(f, src, n);
        if (src == null) {
            Arrays.fill(buf, start, start + n, (byte) 0);
        } else {
            System.arraycopy(src, 0, buf, start, n);
        }
    }
}
