package org.rdma.verbs.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import org.rdma.verbs.Gid;

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
 *
 * <p>Walking a table calls each entry's accessor from one place for every table, which the JIT can
 * only dispatch; a header packed on a hot path holds its table compiled, an {@link IbCodec}, which
 * writes the same bytes. {@link #get} and {@link #put} read or write one field in place.
 */
public final class IbPack {
    /** Tables remembered at most; beyond this (tables built on the fly) a plan is made per call. */
    private static final int MAX_PLANS = 512;
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * A table as pack and unpack walk it: its entries in an array and its {@link #byteLength}.
     * Tables are constants, and walking a {@link List} and computing the span on every call cost
     * more than the packing of a small MAD.
     */
    private record Plan(IbField<?>[] fields, int span) {
    }

    /** The plans of the tables seen so far, by identity; copy-on-write, so that lookups take no lock. */
    private static volatile IdentityHashMap<List<?>, Plan> plans = new IdentityHashMap<>();

    private IbPack() {
    }

    /** The table's plan, remembered per table. */
    private static Plan plan(List<? extends IbField<?>> desc) {
        Plan known = plans.get(desc);
        if (known != null) {
            return known;
        }
        IbField<?>[] fields = desc.toArray(new IbField<?>[0]);
        int end = 0;
        for (IbField<?> f : fields) {
            end = Math.max(end, f.endByte());
        }
        Plan p = new Plan(fields, end);
        synchronized (IbPack.class) {
            if (plans.size() < MAX_PLANS) {
                IdentityHashMap<List<?>, Plan> next = new IdentityHashMap<>(plans);
                next.put(desc, p);
                plans = next;
            }
        }
        return p;
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
    @SuppressWarnings("unchecked")
    public static <T> void pack(List<IbField<T>> desc, T obj, byte[] buf, int offset) {
        Objects.requireNonNull(obj, "obj");
        Plan plan = plan(desc);
        Objects.checkFromIndexSize(offset, plan.span, buf.length);
        for (IbField<?> e : plan.fields) {
            IbField<T> f = (IbField<T>) e;
            int start = offset + f.firstByte;
            switch (f.op) {
                case IbField.OP_WHOLE -> putWhole(buf, start, f.byteCount, f.get(obj));
                case IbField.OP_BITS -> putWindow(buf, start, f.byteCount, f.bitInByte, f.sizeBits(), f.get(obj));
                case IbField.OP_BYTES -> copyIn(f, f.getBytes(obj), f.byteCount, buf, start);
                case IbField.OP_GID -> putGid(buf, start, f.getGid(obj));
                case IbField.OP_ZERO_BYTES -> Arrays.fill(buf, start, start + f.byteCount, (byte) 0);
                default -> putWindow(buf, start, f.byteCount, f.bitInByte, f.sizeBits(), 0L);
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
    @SuppressWarnings("unchecked")
    public static <T> void unpack(List<IbField<T>> desc, byte[] buf, int offset, T obj) {
        Objects.requireNonNull(obj, "obj");
        Plan plan = plan(desc);
        Objects.checkFromIndexSize(offset, plan.span, buf.length);
        for (IbField<?> e : plan.fields) {
            IbField<T> f = (IbField<T>) e;
            int start = offset + f.firstByte;
            switch (f.op) {
                case IbField.OP_WHOLE -> f.set(obj, getWhole(buf, start, f.byteCount));
                case IbField.OP_BITS -> f.set(obj, getWindow(buf, start, f.byteCount, f.bitInByte, f.sizeBits()));
                case IbField.OP_BYTES -> f.setBytes(obj, Arrays.copyOfRange(buf, start, start + f.byteCount));
                case IbField.OP_GID -> f.setGid(obj, getGid(buf, start));
                default -> {
                    // reserved: skipped
                }
            }
        }
    }

    /**
     * Reads one value field of a header in {@code buf} without unpacking the rest: what the
     * kernel does when it reads one member of a wire struct ({@code mad_hdr->tid}).
     *
     * @param field  a value field of the header's table
     * @param buf    the source buffer
     * @param offset the offset of the header's first byte in {@code buf}
     * @return the field, zero-extended
     * @throws IllegalArgumentException  if {@code field} is not a value field
     * @throws IndexOutOfBoundsException if the field does not lie inside {@code buf}
     */
    public static long get(IbField<?> field, byte[] buf, int offset) {
        int start = offset + field.firstByte;
        Objects.checkFromIndexSize(start, field.byteCount, buf.length);
        switch (field.op) {
            case IbField.OP_WHOLE:
                return getWhole(buf, start, field.byteCount);
            case IbField.OP_BITS:
                return getWindow(buf, start, field.byteCount, field.bitInByte, field.sizeBits());
            default:
                throw new IllegalArgumentException(field.name() + " is not a value field");
        }
    }

    /**
     * Writes one value field of a header in {@code buf}, leaving every other bit as it is.
     *
     * @param field  a value field of the header's table
     * @param buf    the destination buffer
     * @param offset the offset of the header's first byte in {@code buf}
     * @param value  the value; bits above the field's width are ignored
     * @throws IllegalArgumentException  if {@code field} is not a value field
     * @throws IndexOutOfBoundsException if the field does not lie inside {@code buf}
     */
    public static void put(IbField<?> field, byte[] buf, int offset, long value) {
        int start = offset + field.firstByte;
        Objects.checkFromIndexSize(start, field.byteCount, buf.length);
        switch (field.op) {
            case IbField.OP_WHOLE:
                putWhole(buf, start, field.byteCount, value);
                break;
            case IbField.OP_BITS:
                putWindow(buf, start, field.byteCount, field.bitInByte, field.sizeBits(), value);
                break;
            default:
                throw new IllegalArgumentException(field.name() + " is not a value field");
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
    @SuppressWarnings("unchecked")
    public static <T> void pack(List<IbField<T>> desc, T obj, ByteBuffer buf, int index) {
        Objects.requireNonNull(obj, "obj");
        Plan plan = plan(desc);
        Objects.checkFromIndexSize(index, plan.span, buf.limit());
        for (IbField<?> e : plan.fields) {
            IbField<T> f = (IbField<T>) e;
            int start = index + f.firstByte;
            int n = f.byteCount;
            switch (f.op) {
                case IbField.OP_WHOLE, IbField.OP_BITS, IbField.OP_ZERO_BITS -> {
                    long value = f.op == IbField.OP_ZERO_BITS ? 0L : f.get(obj);
                    long window = 0;
                    for (int i = 0; i < n; i++) {
                        window = (window << 8) | (buf.get(start + i) & 0xFF);
                    }
                    window = merge(window, n, f.bitInByte, f.sizeBits(), value);
                    for (int i = n - 1; i >= 0; i--) {
                        buf.put(start + i, (byte) window);
                        window >>>= 8;
                    }
                }
                default -> {
                    byte[] src = f.op == IbField.OP_BYTES || f.op == IbField.OP_GID ? f.getBytes(obj) : null;
                    checkSource(f, src, n);
                    for (int i = 0; i < n; i++) {
                        buf.put(start + i, src == null ? 0 : src[i]);
                    }
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
    @SuppressWarnings("unchecked")
    public static <T> void unpack(List<IbField<T>> desc, ByteBuffer buf, int index, T obj) {
        Objects.requireNonNull(obj, "obj");
        Plan plan = plan(desc);
        Objects.checkFromIndexSize(index, plan.span, buf.limit());
        for (IbField<?> e : plan.fields) {
            IbField<T> f = (IbField<T>) e;
            int start = index + f.firstByte;
            int n = f.byteCount;
            if (f.op == IbField.OP_WHOLE || f.op == IbField.OP_BITS) {
                long window = 0;
                for (int i = 0; i < n; i++) {
                    window = (window << 8) | (buf.get(start + i) & 0xFF);
                }
                f.set(obj, extract(window, n, f.bitInByte, f.sizeBits()));
            } else if (f.op == IbField.OP_BYTES || f.op == IbField.OP_GID) {
                byte[] out = new byte[n];
                for (int i = 0; i < n; i++) {
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
        int n = (bitInByte + sizeBits + 7) >>> 3;
        if (bitInByte == 0 && (sizeBits & 7) == 0) {
            putWhole(buf, start, n, value);
        } else {
            putWindow(buf, start, n, bitInByte, sizeBits, value);
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
        int n = (bitInByte + sizeBits + 7) >>> 3;
        return bitInByte == 0 && (sizeBits & 7) == 0 ? getWhole(buf, start, n) : getWindow(buf, start, n, bitInByte, sizeBits);
    }

    /**
     * Whole bytes (most MAD fields): no neighbouring bits to keep. Every width a value field can
     * have is spelled out, so that the switch folds away when {@code n} is a constant
     * ({@link IbCodec}); 24-bit QPNs and PSNs are common.
     */
    private static void putWhole(byte[] buf, int start, int n, long value) {
        switch (n) {
            case 1 -> buf[start] = (byte) value;
            case 2 -> SHORT.set(buf, start, (short) value);
            case 3 -> {
                buf[start] = (byte) (value >>> 16);
                SHORT.set(buf, start + 1, (short) value);
            }
            case 4 -> INT.set(buf, start, (int) value);
            case 5 -> {
                buf[start] = (byte) (value >>> 32);
                INT.set(buf, start + 1, (int) value);
            }
            case 6 -> {
                SHORT.set(buf, start, (short) (value >>> 32));
                INT.set(buf, start + 2, (int) value);
            }
            case 7 -> {
                buf[start] = (byte) (value >>> 48);
                SHORT.set(buf, start + 1, (short) (value >>> 32));
                INT.set(buf, start + 3, (int) value);
            }
            default -> LONG.set(buf, start, value);
        }
    }

    private static long getWhole(byte[] buf, int start, int n) {
        switch (n) {
            case 1:
                return buf[start] & 0xFFL;
            case 2:
                return u16(buf, start);
            case 3:
                return (buf[start] & 0xFFL) << 16 | u16(buf, start + 1);
            case 4:
                return u32(buf, start);
            case 5:
                return (buf[start] & 0xFFL) << 32 | u32(buf, start + 1);
            case 6:
                return u16(buf, start) << 32 | u32(buf, start + 2);
            case 7:
                return (buf[start] & 0xFFL) << 48 | u16(buf, start + 1) << 32 | u32(buf, start + 3);
            default:
                return (long) LONG.get(buf, start);
        }
    }

    private static long u16(byte[] buf, int start) {
        return (short) SHORT.get(buf, start) & 0xFFFFL;
    }

    private static long u32(byte[] buf, int start) {
        return (int) INT.get(buf, start) & 0xFFFF_FFFFL;
    }

    /** A field sharing its {@code n} bytes with neighbours: read-modify-write of the window. */
    private static void putWindow(byte[] buf, int start, int n, int bitInByte, int sizeBits, long value) {
        long window = getWhole(buf, start, n);
        window = merge(window, n, bitInByte, sizeBits, value);
        putWhole(buf, start, n, window);
    }

    private static long getWindow(byte[] buf, int start, int n, int bitInByte, int sizeBits) {
        return extract(getWhole(buf, start, n), n, bitInByte, sizeBits);
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

    /** A GID field: its two 64-bit halves; {@code null} packs as zeros. */
    static void putGid(byte[] buf, int start, Gid gid) {
        LONG.set(buf, start, gid == null ? 0L : gid.subnetPrefix());
        LONG.set(buf, start + 8, gid == null ? 0L : gid.interfaceId());
    }

    static Gid getGid(byte[] buf, int start) {
        return Gid.of((long) LONG.get(buf, start), (long) LONG.get(buf, start + 8));
    }

    static void copyIn(IbField<?> f, byte[] src, int n, byte[] buf, int start) {
        checkSource(f, src, n);
        if (src == null) {
            Arrays.fill(buf, start, start + n, (byte) 0);
        } else {
            System.arraycopy(src, 0, buf, start, n);
        }
    }
}
