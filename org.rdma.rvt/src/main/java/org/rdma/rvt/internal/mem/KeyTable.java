package org.rdma.rvt.internal.mem;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The lkey/rkey table ({@code struct rvt_lkey_table}): a key is a 24-bit table index and an
 * 8-bit key. MRs and MWs share the index space. An index is reserved first and published only when
 * its object is complete; lookups never allocate and return the object at the index, whose current
 * key the caller compares with the full 32-bit key it was given.
 */
public final class KeyTable {
    private final AtomicReferenceArray<Object> slots;
    private final int[] generation;
    private final int[] free;
    private int freeCount;

    /** A table with room for {@code size - 1} keys (index 0 is never used). */
    public KeyTable(int size) {
        int n = Math.max(2, Math.min(size, 1 << 24));
        slots = new AtomicReferenceArray<>(n);
        generation = new int[n];
        free = new int[n - 1];
        for (int i = n - 1; i >= 1; i--) {
            free[freeCount++] = i;
        }
    }

    /**
     * Reserves an index and returns the initial key for it (index and a fresh 8-bit key);
     * ENOMEM when the table is full.
     */
    public synchronized int reserve() {
        if (freeCount == 0) {
            throw new RdmaException(Errno.ENOMEM, "lkey table full");
        }
        int index = free[--freeCount];
        int key = generation[index]++ & 0xff;
        return index << 8 | key;
    }

    /** Takes the index of {@code key} out of circulation (a device-wide reserved key). */
    public synchronized void claim(int key) {
        int index = key >>> 8;
        for (int i = 0; i < freeCount; i++) {
            if (free[i] == index) {
                free[i] = free[--freeCount];
                return;
            }
        }
    }

    /** Publishes {@code obj} under a reserved key's index. */
    public void publish(int key, Object obj) {
        slots.set(key >>> 8, obj);
    }

    /** Removes the object at the key's index and frees the index. */
    public synchronized void remove(int key) {
        int index = key >>> 8;
        slots.set(index, null);
        free[freeCount++] = index;
    }

    /** The object at the key's index (MR or MW), or {@code null}; the caller checks the full key. */
    public Object lookup(int key) {
        int index = key >>> 8;
        return index < slots.length() ? slots.get(index) : null;
    }
}
