package org.rdma.verbs.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Package-private helpers shared by the MAD attribute codecs: error construction, reserved byte
 * ranges and embedding one field table inside another (the way {@code struct ib_pma_mad} embeds
 * {@code struct ib_mad_hdr}).
 */
final class IbFieldTables {

    private IbFieldTables() {
    }

    /**
     * @param what the reason
     * @return an {@link IllegalArgumentException} whose message starts with {@code "EINVAL: "},
     *         where the kernel would return {@code -EINVAL}
     */
    static IllegalArgumentException einval(String what) {
        return new IllegalArgumentException("EINVAL: " + what);
    }

    /**
     * A reserved range given in bytes, for the long reserved tails of MAD layouts.
     *
     * @param byteOffset first byte of the range
     * @param nBytes     length in bytes
     * @param <T>        the header type
     * @return the reserved entry
     */
    static <T> IbField<T> reservedBytes(int byteOffset, int nBytes) {
        return IbField.reserved(byteOffset / 4, (byteOffset % 4) * 8, nBytes * 8);
    }

    /**
     * Re-bases the entries of {@code inner} so that they describe a part of an outer object found
     * at {@code byteOffset}; the accessors reach the part through {@code part}.
     *
     * @param inner      the part's field table
     * @param part       reads the part from the outer object; must not return {@code null}
     * @param byteOffset where the part starts in the outer layout; a multiple of 4
     * @param <O>        the outer type
     * @param <I>        the part's type
     * @return the re-based entries
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if {@code byteOffset} is not word aligned
     */
    static <O, I> List<IbField<O>> embed(List<IbField<I>> inner, Function<? super O, ? extends I> part,
                                         int byteOffset) {
        if (byteOffset < 0 || byteOffset % 4 != 0) {
            throw einval("an embedded table must start on a 32-bit word, got byte " + byteOffset);
        }
        int words = byteOffset / 4;
        List<IbField<O>> out = new ArrayList<>(inner.size());
        for (IbField<I> f : inner) {
            int w = f.offsetWords() + words;
            switch (f.kind()) {
                case VALUE:
                    out.add(IbField.of(f.name(), w, f.offsetBits(), f.sizeBits(),
                            o -> f.get(part.apply(o)), (o, v) -> f.set(part.apply(o), v)));
                    break;
                case BYTES:
                    out.add(IbField.bytes(f.name(), w, f.offsetBits(), f.sizeBits(),
                            o -> f.getBytes(part.apply(o)), (o, v) -> f.setBytes(part.apply(o), v)));
                    break;
                default:
                    out.add(IbField.reserved(w, f.offsetBits(), f.sizeBits()));
                    break;
            }
        }
        return out;
    }

    /**
     * @param b a byte array or {@code null}
     * @return a copy, or {@code null}
     */
    static byte[] clone(byte[] b) {
        return b == null ? null : b.clone();
    }
}
