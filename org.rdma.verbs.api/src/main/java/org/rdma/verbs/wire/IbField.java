package org.rdma.verbs.wire;

import java.util.Objects;
import org.rdma.verbs.Gid;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;

/**
 * One entry of a wire-format field table: where a field lives in a big-endian header and how to
 * read and write the matching Java value.
 *
 * <p>Mirrors {@code struct ib_field} (include/rdma/ib_pack.h). The kernel locates the C value with
 * {@code struct_offset_bytes}/{@code struct_size_bytes}; here the value is reached through accessor
 * functions instead. The wire position uses the kernel's coordinates: {@link #offsetWords()} counts
 * 32-bit words from the start of the header and {@link #offsetBits()} counts bits from the
 * <em>most significant</em> bit of that word (IBTA bit numbering, network byte order).
 *
 * <p>There are three kinds of entry:
 * <ul>
 *   <li>{@linkplain #of value fields} of 1 to 64 bits, which need not be byte aligned and may
 *       cross a word boundary as long as {@code offsetBits + sizeBits <= 64};</li>
 *   <li>{@linkplain #bytes byte-string fields} (for example a 128-bit GID or a 48-bit MAC), which
 *       must start on a byte boundary and have a whole number of bytes;</li>
 *   <li>{@linkplain #reserved reserved fields} (the kernel's {@code RESERVED} entries), which
 *       {@link IbPack#pack pack} as zeros and {@link IbPack#unpack unpack} skips.</li>
 * </ul>
 *
 * <p>Instances are immutable and may be shared between threads; the accessor functions must be
 * safe to call for whatever objects are packed concurrently.
 *
 * @param <T> the Java type holding the unpacked header
 */
public final class IbField<T> {

    /** The kind of a field table entry. */
    public enum Kind {
        /** A value of at most 64 bits, read and written as a {@code long}. */
        VALUE,
        /** A byte-aligned string of whole bytes, read and written as a {@code byte[]}. */
        BYTES,
        /** A reserved range: packed as zeros, skipped by unpack. */
        RESERVED
    }

    private final String name;
    private final Kind kind;
    private final int offsetWords;
    private final int offsetBits;
    private final int sizeBits;
    private final ToLongFunction<? super T> getter;
    private final ObjLongConsumer<? super T> setter;
    private final Function<? super T, byte[]> bytesGetter;
    private final BiConsumer<? super T, byte[]> bytesSetter;
    /** A GID field's own accessors (its byte accessors go through them), else null. */
    private final Function<? super T, Gid> gidGetter;
    private final BiConsumer<? super T, Gid> gidSetter;
    /** {@link #firstByte()}, kept: pack and unpack read it for every field. */
    final int firstByte;
    /** Bit of {@link #firstByte} holding the field's most significant bit (0 = MSB). */
    final int bitInByte;
    /** Bytes the field touches from {@link #firstByte}. */
    final int byteCount;
    /** How {@link IbPack} moves the field: one of the {@code OP_*} codes. */
    final int op;

    /** A value of whole bytes starting on a byte: stored directly, no neighbouring bits to keep. */
    static final int OP_WHOLE = 0;
    /** A value that shares bytes with its neighbours: read-modify-write of its bit window. */
    static final int OP_BITS = 1;
    /** A byte string. */
    static final int OP_BYTES = 2;
    /** A reserved range of whole bytes: zeros. */
    static final int OP_ZERO_BYTES = 3;
    /** A reserved range sharing bytes with its neighbours: zero bits in its window. */
    static final int OP_ZERO_BITS = 4;
    /** A 128-bit GID held as a {@link Gid}: two 64-bit words, no byte array in between. */
    static final int OP_GID = 5;

    private IbField(String name, Kind kind, int offsetWords, int offsetBits, int sizeBits,
                    ToLongFunction<? super T> getter, ObjLongConsumer<? super T> setter,
                    Function<? super T, byte[]> bytesGetter, BiConsumer<? super T, byte[]> bytesSetter) {
        this(name, kind, offsetWords, offsetBits, sizeBits, getter, setter, bytesGetter, bytesSetter, null, null);
    }

    private IbField(String name, Kind kind, int offsetWords, int offsetBits, int sizeBits,
                    ToLongFunction<? super T> getter, ObjLongConsumer<? super T> setter,
                    Function<? super T, byte[]> bytesGetter, BiConsumer<? super T, byte[]> bytesSetter,
                    Function<? super T, Gid> gidGetter, BiConsumer<? super T, Gid> gidSetter) {
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.offsetWords = offsetWords;
        this.offsetBits = offsetBits;
        this.sizeBits = sizeBits;
        this.getter = getter;
        this.setter = setter;
        this.bytesGetter = bytesGetter;
        this.bytesSetter = bytesSetter;
        this.gidGetter = gidGetter;
        this.gidSetter = gidSetter;
        if (offsetWords < 0) {
            throw new IllegalArgumentException(name + ": offsetWords must be >= 0, got " + offsetWords);
        }
        if (offsetBits < 0 || offsetBits > 31) {
            throw new IllegalArgumentException(name + ": offsetBits must be in [0, 31], got " + offsetBits);
        }
        if (sizeBits < 1) {
            throw new IllegalArgumentException(name + ": sizeBits must be >= 1, got " + sizeBits);
        }
        boolean fitsBitPath = sizeBits <= 64 && offsetBits + sizeBits <= 64;
        boolean byteAligned = offsetBits % 8 == 0 && sizeBits % 8 == 0;
        switch (kind) {
            case VALUE:
                if (!fitsBitPath) {
                    throw new IllegalArgumentException(name + ": a value field needs sizeBits <= 64 and "
                            + "offsetBits + sizeBits <= 64, got offsetBits=" + offsetBits + " sizeBits=" + sizeBits);
                }
                break;
            case BYTES:
                if (!byteAligned) {
                    throw new IllegalArgumentException(name + ": a byte field must start on a byte boundary and "
                            + "have a whole number of bytes, got offsetBits=" + offsetBits + " sizeBits=" + sizeBits);
                }
                break;
            default:
                if (!fitsBitPath && !byteAligned) {
                    throw new IllegalArgumentException(name + ": a reserved field wider than the 64-bit window "
                            + "must be byte aligned, got offsetBits=" + offsetBits + " sizeBits=" + sizeBits);
                }
                break;
        }
        int bit = offsetWords * 32 + offsetBits;
        this.firstByte = bit >>> 3;
        this.bitInByte = bit & 7;
        this.byteCount = (bitInByte + sizeBits + 7) >>> 3;
        boolean wholeBytes = bitInByte == 0 && sizeBits % 8 == 0;
        switch (kind) {
            case VALUE:
                this.op = wholeBytes ? OP_WHOLE : OP_BITS;
                break;
            case BYTES:
                this.op = gidGetter != null ? OP_GID : OP_BYTES;
                break;
            default:
                this.op = wholeBytes ? OP_ZERO_BYTES : OP_ZERO_BITS;
                break;
        }
    }

    /**
     * A value field of 1 to 64 bits, the equivalent of a {@code STRUCT_FIELD(...)} entry in the
     * kernel's tables (drivers/infiniband/core/ud_header.c).
     *
     * <p>On pack the getter's value is masked to {@code sizeBits}; on unpack the setter receives the
     * field zero-extended to a {@code long}.
     *
     * @param name        diagnostic name, by convention {@code "header:field"}
     * @param offsetWords 32-bit word in which the field starts
     * @param offsetBits  first bit within that word, 0 being the most significant bit
     * @param sizeBits    width in bits, 1 to 64, with {@code offsetBits + sizeBits <= 64}
     * @param getter      reads the field from the Java object
     * @param setter      writes the field into the Java object
     * @param <T>         the header type
     * @return the field description
     * @throws IllegalArgumentException if the geometry is not representable
     */
    public static <T> IbField<T> of(String name, int offsetWords, int offsetBits, int sizeBits,
                                    ToLongFunction<? super T> getter, ObjLongConsumer<? super T> setter) {
        return new IbField<>(name, Kind.VALUE, offsetWords, offsetBits, sizeBits,
                Objects.requireNonNull(getter, "getter"), Objects.requireNonNull(setter, "setter"), null, null);
    }

    /**
     * A byte-string field, the equivalent of the kernel's {@code memcpy} path in {@code ib_pack()}
     * for fields wider than 64 bits (GIDs), usable here for any byte-aligned width (MAC addresses).
     *
     * <p>On pack the getter must return an array of at least {@code sizeBits / 8} bytes, of which
     * the first {@code sizeBits / 8} are copied; a {@code null} array packs as zeros. On unpack the
     * setter receives a newly allocated array of exactly {@code sizeBits / 8} bytes.
     *
     * @param name        diagnostic name
     * @param offsetWords 32-bit word in which the field starts
     * @param offsetBits  first bit within that word; must be a multiple of 8
     * @param sizeBits    width in bits; must be a positive multiple of 8
     * @param getter      reads the bytes from the Java object
     * @param setter      stores the unpacked bytes into the Java object
     * @param <T>         the header type
     * @return the field description
     * @throws IllegalArgumentException if the field is not byte aligned
     */
    public static <T> IbField<T> bytes(String name, int offsetWords, int offsetBits, int sizeBits,
                                       Function<? super T, byte[]> getter, BiConsumer<? super T, byte[]> setter) {
        return new IbField<>(name, Kind.BYTES, offsetWords, offsetBits, sizeBits, null, null,
                Objects.requireNonNull(getter, "getter"), Objects.requireNonNull(setter, "setter"));
    }

    /**
     * A 128-bit GID field ({@code union ib_gid} in the kernel's tables, packed by its
     * {@code memcpy} path): a {@linkplain #bytes byte-string field} of 16 bytes whose Java value is
     * a {@link Gid}. Pack and unpack move the GID's two 64-bit halves directly; the byte accessors
     * ({@link Kind#BYTES}) convert through the GID, so code that treats every byte field alike
     * keeps working.
     *
     * <p>On pack a {@code null} GID packs as zeros.
     *
     * @param name        diagnostic name
     * @param offsetWords 32-bit word in which the field starts
     * @param offsetBits  first bit within that word; must be a multiple of 8
     * @param getter      reads the GID from the Java object
     * @param setter      stores the unpacked GID into the Java object
     * @param <T>         the header type
     * @return the field description
     * @throws IllegalArgumentException if the field is not byte aligned
     */
    public static <T> IbField<T> gid(String name, int offsetWords, int offsetBits,
                                     Function<? super T, Gid> getter, BiConsumer<? super T, Gid> setter) {
        Objects.requireNonNull(getter, "getter");
        Objects.requireNonNull(setter, "setter");
        return new IbField<>(name, Kind.BYTES, offsetWords, offsetBits, 128, null, null, o -> {
            Gid g = getter.apply(o);
            return g == null ? null : g.bytes();
        }, (o, v) -> setter.accept(o, Gid.of(v)), getter, setter);
    }

    /**
     * A reserved range, the equivalent of the kernel's {@code RESERVED} table entries: packed as
     * zero bits, ignored on unpack.
     *
     * @param offsetWords 32-bit word in which the range starts
     * @param offsetBits  first bit within that word, 0 being the most significant bit
     * @param sizeBits    width in bits; ranges that do not fit the 64-bit window
     *                    ({@code offsetBits + sizeBits > 64}) must be byte aligned
     * @param <T>         the header type
     * @return the field description
     */
    public static <T> IbField<T> reserved(int offsetWords, int offsetBits, int sizeBits) {
        return new IbField<>("reserved", Kind.RESERVED, offsetWords, offsetBits, sizeBits, null, null, null, null);
    }

    /** @return the diagnostic name ({@code field_name} in the kernel) */
    public String name() {
        return name;
    }

    /** @return what kind of entry this is */
    public Kind kind() {
        return kind;
    }

    /** @return whether this is a reserved range */
    public boolean isReserved() {
        return kind == Kind.RESERVED;
    }

    /** @return the 32-bit word in which the field starts ({@code offset_words}) */
    public int offsetWords() {
        return offsetWords;
    }

    /** @return the first bit in that word, counted from the most significant bit ({@code offset_bits}) */
    public int offsetBits() {
        return offsetBits;
    }

    /** @return the width in bits ({@code size_bits}) */
    public int sizeBits() {
        return sizeBits;
    }

    /** @return the absolute bit position of the field's first (most significant) bit */
    public int bitOffset() {
        return offsetWords * 32 + offsetBits;
    }

    /** @return the offset of the first byte the field touches, from the start of the header */
    public int firstByte() {
        return firstByte;
    }

    /** @return one past the offset of the last byte the field touches */
    public int endByte() {
        return firstByte + byteCount;
    }

    long get(T obj) {
        return getter.applyAsLong(obj);
    }

    /** The accessor {@link IbCodec} binds into its method handles: the value, byte or GID reader by {@link #op}. */
    Object reader() {
        return op == OP_GID ? gidGetter : kind == Kind.VALUE ? getter : bytesGetter;
    }

    /** The matching writer. */
    Object writer() {
        return op == OP_GID ? gidSetter : kind == Kind.VALUE ? setter : bytesSetter;
    }

    void set(T obj, long value) {
        setter.accept(obj, value);
    }

    byte[] getBytes(T obj) {
        return bytesGetter.apply(obj);
    }

    void setBytes(T obj, byte[] value) {
        bytesSetter.accept(obj, value);
    }

    Gid getGid(T obj) {
        return gidGetter.apply(obj);
    }

    void setGid(T obj, Gid value) {
        gidSetter.accept(obj, value);
    }

    @Override
    public String toString() {
        return name + "{" + kind + " word=" + offsetWords + " bit=" + offsetBits + " size=" + sizeBits + "}";
    }
}
