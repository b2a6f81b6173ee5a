package org.rdma.verbs.wire;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;
import org.rdma.verbs.Gid;

/**
 * A field table compiled for its header type: {@link IbPack#pack(List, Object, byte[], int)} and
 * {@link IbPack#unpack(List, byte[], int, Object)} of one table, each direction one method
 * handle that moves every field in table order.
 *
 * <p>Why: {@link IbPack} walks the table and calls each field's accessor through the same call
 * site for every table, where the JIT can only dispatch; the handles here bind each entry's
 * geometry and accessors as constants, so that a codec held in a {@code static final} field is
 * compiled like hand-written code for its header ({@code ib_pack()} per field becomes a few
 * stores). The bytes are the same as {@link IbPack}'s, and so are the checks: a table that does
 * not fit leaves the buffer (or object) untouched; values are truncated to their fields;
 * reserved ranges pack as zeros and are skipped on unpack; a byte field whose value is too short
 * fails.
 *
 * <p>Hold a codec in a {@code static final} field of the header class and call it from that
 * class ({@code CODEC.pack(this, buf, off)}): a codec reached through anything else still works,
 * at the speed of an interpreted method handle tree. Make one with {@link #of(List)}.
 *
 * @param table      the field table
 * @param byteLength the table's {@link IbPack#byteLength span}
 * @param packer     {@code (Object obj, byte[] buf, int offset) void}: packs every entry
 * @param unpacker   {@code (Object obj, byte[] buf, int offset) void}: unpacks every entry
 * @param <T>        the header type
 */
public record IbCodec<T>(List<IbField<T>> table, int byteLength, MethodHandle packer, MethodHandle unpacker) {
    private static final MethodType FIELD = MethodType.methodType(void.class, Object.class, byte[].class, int.class);
    private static final MethodHandle PUT_BITS;
    private static final MethodHandle GET_BITS;
    private static final MethodHandle PUT_BYTES;
    private static final MethodHandle GET_BYTES;
    private static final MethodHandle PUT_GID;
    private static final MethodHandle GET_GID;
    private static final MethodHandle ZERO_BYTES;
    private static final MethodHandle APPLY_AS_LONG;
    private static final MethodHandle ACCEPT_LONG;
    private static final MethodHandle APPLY;
    private static final MethodHandle ACCEPT;

    static {
        MethodHandles.Lookup l = MethodHandles.lookup();
        try {
            PUT_BITS = l.findStatic(IbCodec.class, "putBits",
                    MethodType.methodType(void.class, int.class, int.class, int.class, byte[].class, int.class, long.class));
            GET_BITS = l.findStatic(IbCodec.class, "getBits",
                    MethodType.methodType(long.class, int.class, int.class, int.class, byte[].class, int.class));
            PUT_BYTES = l.findStatic(IbCodec.class, "putBytes",
                    MethodType.methodType(void.class, IbField.class, byte[].class, int.class, byte[].class));
            GET_BYTES = l.findStatic(IbCodec.class, "getBytes",
                    MethodType.methodType(byte[].class, int.class, int.class, byte[].class, int.class));
            PUT_GID = l.findStatic(IbCodec.class, "putGid",
                    MethodType.methodType(void.class, int.class, byte[].class, int.class, Gid.class));
            GET_GID = l.findStatic(IbCodec.class, "getGid", MethodType.methodType(Gid.class, int.class, byte[].class, int.class));
            ZERO_BYTES = l.findStatic(IbCodec.class, "zeroBytes",
                    MethodType.methodType(void.class, int.class, int.class, byte[].class, int.class));
            APPLY_AS_LONG = l.findVirtual(ToLongFunction.class, "applyAsLong", MethodType.methodType(long.class, Object.class));
            ACCEPT_LONG = l.findVirtual(ObjLongConsumer.class, "accept",
                    MethodType.methodType(void.class, Object.class, long.class));
            APPLY = l.findVirtual(Function.class, "apply", MethodType.methodType(Object.class, Object.class));
            ACCEPT = l.findVirtual(BiConsumer.class, "accept", MethodType.methodType(void.class, Object.class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Compiles {@code table}.
     *
     * @param table the field table
     * @param <T>   the header type
     * @return the codec
     */
    public static <T> IbCodec<T> of(List<IbField<T>> table) {
        List<MethodHandle> packs = new ArrayList<>();
        List<MethodHandle> unpacks = new ArrayList<>();
        for (IbField<T> f : table) {
            packs.add(packer(f));
            if (!f.isReserved()) {
                unpacks.add(unpacker(f));
            }
        }
        return new IbCodec<>(List.copyOf(table), IbPack.byteLength(table), sequence(packs, 0, packs.size()),
                sequence(unpacks, 0, unpacks.size()));
    }

    /**
     * {@link IbPack#pack(List, Object, byte[], int)} of the table.
     *
     * @param obj    the object to read values from
     * @param buf    the destination buffer
     * @param offset the offset of the header's first byte in {@code buf}
     * @throws IndexOutOfBoundsException if the table does not fit in {@code buf} at {@code offset};
     *                                   the buffer is then left unmodified
     */
    public void pack(T obj, byte[] buf, int offset) {
        Objects.requireNonNull(obj, "obj");
        Objects.checkFromIndexSize(offset, byteLength, buf.length);
        try {
            packer.invokeExact((Object) obj, buf, offset);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new UndeclaredThrowableException(t);
        }
    }

    /**
     * {@link IbPack#unpack(List, byte[], int, Object)} of the table.
     *
     * @param buf    the source buffer
     * @param offset the offset of the header's first byte in {@code buf}
     * @param obj    the object to store values into
     * @return {@code obj}
     * @throws IndexOutOfBoundsException if the table does not fit in {@code buf} at {@code offset};
     *                                   {@code obj} is then left unmodified
     */
    public T unpack(byte[] buf, int offset, T obj) {
        Objects.requireNonNull(obj, "obj");
        Objects.checkFromIndexSize(offset, byteLength, buf.length);
        try {
            unpacker.invokeExact((Object) obj, buf, offset);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new UndeclaredThrowableException(t);
        }
        return obj;
    }

    // ------------------------------------------------------------------ one entry

    /** {@code (obj, buf, offset) void} writing entry {@code f}. */
    private static MethodHandle packer(IbField<?> f) {
        MethodHandle write; // (buf, offset, value) void
        MethodHandle read;  // (obj) value
        switch (f.op) {
            case IbField.OP_WHOLE, IbField.OP_BITS -> {
                write = MethodHandles.insertArguments(PUT_BITS, 0, f.firstByte, f.bitInByte, f.sizeBits());
                read = APPLY_AS_LONG.bindTo(f.reader());
            }
            case IbField.OP_BYTES -> {
                write = MethodHandles.insertArguments(PUT_BYTES, 0, f);
                read = APPLY.bindTo(f.reader()).asType(MethodType.methodType(byte[].class, Object.class));
            }
            case IbField.OP_GID -> {
                write = MethodHandles.insertArguments(PUT_GID, 0, f.firstByte);
                read = APPLY.bindTo(f.reader()).asType(MethodType.methodType(Gid.class, Object.class));
            }
            case IbField.OP_ZERO_BYTES -> {
                return MethodHandles.dropArguments(
                        MethodHandles.insertArguments(ZERO_BYTES, 0, f.firstByte, f.byteCount), 0, Object.class);
            }
            default -> {
                MethodHandle zero = MethodHandles.insertArguments(PUT_BITS, 0, f.firstByte, f.bitInByte, f.sizeBits());
                return MethodHandles.dropArguments(MethodHandles.insertArguments(zero, 2, 0L), 0, Object.class);
            }
        }
        // (buf, offset, obj) -> write(buf, offset, read(obj)), then obj first
        MethodHandle h = MethodHandles.collectArguments(write, 2, read);
        return MethodHandles.permuteArguments(h, FIELD, 1, 2, 0);
    }

    /** {@code (obj, buf, offset) void} reading entry {@code f}. */
    private static MethodHandle unpacker(IbField<?> f) {
        MethodHandle read;  // (buf, offset) value
        MethodHandle write; // (obj, value) void
        switch (f.op) {
            case IbField.OP_WHOLE, IbField.OP_BITS -> {
                read = MethodHandles.insertArguments(GET_BITS, 0, f.firstByte, f.bitInByte, f.sizeBits());
                write = ACCEPT_LONG.bindTo(f.writer());
            }
            case IbField.OP_BYTES -> {
                read = MethodHandles.insertArguments(GET_BYTES, 0, f.firstByte, f.byteCount);
                write = ACCEPT.bindTo(f.writer()).asType(MethodType.methodType(void.class, Object.class, byte[].class));
            }
            default -> {
                read = MethodHandles.insertArguments(GET_GID, 0, f.firstByte);
                write = ACCEPT.bindTo(f.writer()).asType(MethodType.methodType(void.class, Object.class, Gid.class));
            }
        }
        return MethodHandles.collectArguments(write, 1, read);
    }

    /**
     * Runs {@code hs[from..to)} in order. A balanced tree of folds, not a chain: the JIT inlines
     * a few levels deep, whatever the table's length.
     */
    private static MethodHandle sequence(List<MethodHandle> hs, int from, int to) {
        if (to - from == 0) {
            return MethodHandles.empty(FIELD);
        }
        if (to - from == 1) {
            return hs.get(from);
        }
        int mid = (from + to) >>> 1;
        return MethodHandles.foldArguments(sequence(hs, mid, to), sequence(hs, from, mid));
    }

    // ------------------------------------------------------------------ what the handles call

    private static void putBits(int firstByte, int bitInByte, int sizeBits, byte[] buf, int offset, long value) {
        IbPack.putBits(buf, offset + firstByte, bitInByte, sizeBits, value);
    }

    private static long getBits(int firstByte, int bitInByte, int sizeBits, byte[] buf, int offset) {
        return IbPack.getBits(buf, offset + firstByte, bitInByte, sizeBits);
    }

    private static void putBytes(IbField<?> f, byte[] buf, int offset, byte[] src) {
        IbPack.copyIn(f, src, f.byteCount, buf, offset + f.firstByte);
    }

    private static byte[] getBytes(int firstByte, int n, byte[] buf, int offset) {
        int start = offset + firstByte;
        return Arrays.copyOfRange(buf, start, start + n);
    }

    private static void putGid(int firstByte, byte[] buf, int offset, Gid gid) {
        IbPack.putGid(buf, offset + firstByte, gid);
    }

    private static Gid getGid(int firstByte, byte[] buf, int offset) {
        return IbPack.getGid(buf, offset + firstByte);
    }

    private static void zeroBytes(int firstByte, int n, byte[] buf, int offset) {
        int start = offset + firstByte;
        Arrays.fill(buf, start, start + n, (byte) 0);
    }
}
