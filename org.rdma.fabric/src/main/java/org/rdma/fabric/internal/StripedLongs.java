package org.rdma.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A fixed set of event counters updated without atomic read-modify-write instructions, the way a
 * NIC keeps per-engine counters and sums them when they are read: each thread adds into a row of
 * its own (one writer per row, plain increments published with opaque stores), a reader sums the
 * rows. Clearing does not write the rows (their owners may be adding at that moment) but moves a
 * baseline that later reads subtract, so no increment is ever lost. A thread's row is allocated
 * on its first update; after that updates allocate nothing.
 *
 * <p>The row last used is remembered; its first cell holds its owner's thread id, so the usual
 * case (one thread driving a port) costs a field load and a compare instead of a thread-local
 * look-up, which on a thread counting on dozens of ports was a probe through a crowded map on
 * every packet. Only {@code long[]} goes into the thread-local (a class of this bundle there
 * would keep its class loader alive in every thread after an update), and only an id, not the
 * thread, is kept, so no finished thread stays reachable; ids are never reused.
 */
class StripedLongs {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final int size;
    private final CopyOnWriteArrayList<long[]> rows = new CopyOnWriteArrayList<>();
    private final ThreadLocal<long[]> mine;
    /** The row used last (a racy cache: a stale or missing entry only sends us to {@link #mine}). */
    private long[] last;
    /** What reads subtract; guarded by {@code this}. */
    private final long[] base;

    StripedLongs(int size) {
        this.size = size;
        this.base = new long[size];
        this.mine = ThreadLocal.withInitial(this::newRow);
    }

    private long[] newRow() {
        long[] r = new long[size + 1];
        r[0] = Thread.currentThread().getId();
        rows.add(r);
        return r;
    }

    /**
     * The thread's row; value {@code i} is in cell {@code i + 1}, after the owner's id. The id
     * comes first so that finding it needs no load of {@link #size}, and the bounds check of the
     * highest value's cell covers it.
     */
    private long[] mine() {
        long[] r = last;
        if (r == null || r[0] != Thread.currentThread().getId()) {
            r = mine.get();
            last = r;
        }
        return r;
    }

    void inc(int i) {
        add(i, 1);
    }

    void add(int i, long delta) {
        long[] r = mine();
        LONGS.setOpaque(r, i + 1, (long) LONGS.getOpaque(r, i + 1) + delta);
    }

    /** Two updates with one look-up of the thread's row. */
    void add(int i, long di, int j, long dj) {
        long[] r = mine();
        LONGS.setOpaque(r, i + 1, (long) LONGS.getOpaque(r, i + 1) + di);
        LONGS.setOpaque(r, j + 1, (long) LONGS.getOpaque(r, j + 1) + dj);
    }

    /** Three updates with one look-up of the thread's row. */
    void add(int i, long di, int j, long dj, int k, long dk) {
        long[] r = mine();
        LONGS.setOpaque(r, i + 1, (long) LONGS.getOpaque(r, i + 1) + di);
        LONGS.setOpaque(r, j + 1, (long) LONGS.getOpaque(r, j + 1) + dj);
        LONGS.setOpaque(r, k + 1, (long) LONGS.getOpaque(r, k + 1) + dk);
    }

    private long sum(int i) {
        long s = 0;
        for (long[] r : rows) {
            s += (long) LONGS.getOpaque(r, i + 1);
        }
        return s;
    }

    /** The sum since creation, ignoring clears. */
    long raw(int i) {
        return sum(i);
    }

    synchronized long get(int i) {
        return sum(i) - base[i];
    }

    synchronized void clear(int i) {
        base[i] = sum(i);
    }
}
