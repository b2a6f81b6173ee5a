package org.rdma.target.internal.backstore;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * Which blocks of a thin fileio backstore are mapped, one bit per logical block (bit {@code i %
 * 8} of byte {@code i / 8}), kept in a file beside the data. Java 17 can neither punch holes nor
 * seek them, so deallocation is recorded here instead of in the file system: unmapped blocks read
 * as zeros, and their space is not returned to the file system.
 *
 * <p>Durability: a write updates the map's bytes before the data, and {@link #force} runs with
 * the data file's force, so a block acknowledged as stable is mapped in the stable map too.
 */
final class AllocationMap implements Closeable {
    private final BitSet bits;
    private final long blocks;
    private final BlockChannel ch;

    private AllocationMap(BlockChannel ch, long blocks, BitSet bits) {
        this.ch = ch;
        this.blocks = blocks;
        this.bits = bits;
    }

    /**
     * Opens the map of a data file of {@code blocks} blocks.
     *
     * @param freshData the data file was just created, so nothing is mapped; otherwise a missing or
     *        mis-sized map maps every block (reading old data is safe, reading zeros is not)
     */
    static AllocationMap open(BlockChannel ch, long blocks, boolean freshData) throws IOException {
        if (blocks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("EINVAL: thin provisioning maps at most 2^31-1 blocks, not " + blocks);
        }
        int len = (int) ((blocks + 7) / 8);
        BitSet bits;
        if (!freshData && ch.size() == len) {
            ByteBuffer b = ByteBuffer.allocate(len);
            ch.readFully(b, 0);
            bits = BitSet.valueOf(b.flip());
        } else {
            bits = new BitSet((int) blocks);
            if (!freshData) {
                bits.set(0, (int) blocks);
            }
            AllocationMap m = new AllocationMap(ch, blocks, bits);
            m.store(0, (int) blocks);
            ch.force(true);
            return m;
        }
        return new AllocationMap(ch, blocks, bits);
    }

    /** Marks {@code n} blocks from {@code lba} mapped or unmapped, writing the changed map bytes. */
    synchronized void set(long lba, long n, boolean mapped) throws IOException {
        int from = (int) lba;
        int to = (int) (lba + n);
        int changed = mapped ? bits.nextClearBit(from) : bits.nextSetBit(from);
        if (changed < 0 || changed >= to) {
            return;
        }
        bits.set(from, to, mapped);
        store(from, to);
    }

    private void store(int from, int to) throws IOException {
        int firstByte = from / 8;
        int lastByte = (to - 1) / 8;
        ByteBuffer b = ByteBuffer.allocate(lastByte - firstByte + 1);
        for (int i = firstByte; i <= lastByte; i++) {
            int v = 0;
            for (int bit = 0; bit < 8; bit++) {
                if (bits.get(i * 8 + bit)) {
                    v |= 1 << bit;
                }
            }
            b.put((byte) v);
        }
        ch.writeFully(b.flip(), firstByte);
    }

    synchronized boolean isMapped(long lba) {
        return bits.get((int) lba);
    }

    /** Blocks from {@code lba}, at most {@code max}, with {@code lba}'s state. */
    synchronized long runLength(long lba, long max) {
        int from = (int) lba;
        int end = bits.get(from) ? bits.nextClearBit(from) : bits.nextSetBit(from);
        long run = (end < 0 ? blocks : end) - lba;
        return Math.min(run, max);
    }

    void force() throws IOException {
        ch.force(false);
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
