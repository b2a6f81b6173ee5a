package org.rdma.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketRecycler;
import org.rdma.verbs.LinkLayer;

/**
 * A port's packet pool ({@code kmem_cache} of skbs). The fabric delivers synchronously, so a
 * port usually has one packet out at a time: it goes back to the pool before the next is
 * allocated, most often on the thread that allocated it. That packet waits in a one-entry slot
 * of that thread, the way a per-CPU cache sits in front of a slab's locked lists; behind the
 * per-thread slots are a shared one-entry slot and a small array stack behind the monitor.
 * Grows on demand up to {@link #MAX_CACHED} idle packets in the stack; beyond that released
 * packets are left to the garbage collector.
 *
 * <h2>Per-thread slots</h2>
 * A {@link Slot} is only ever read and written by the thread whose id it carries, so it needs no
 * atomic instruction: the usual allocate-transmit-deliver-release round on one thread costs
 * none. A slot is bound to the packet its thread allocated last and only flips whether that
 * packet is in: the round stores no reference, because storing a reference into an object the
 * collector has promoted costs a StoreLoad fence in G1's write barrier. A packet released on
 * another thread, or another packet released on this one, goes to the shared slot instead.
 *
 * <p>The slot used last is remembered (a racy cache: its id is final, so a thread that reads
 * another thread's slot there sees the other id and looks further). A pool keeps at most
 * {@link #MAX_SLOTS} slots; a further thread takes over the slot of a finished thread, or goes
 * without one (straight to the shared slot). Slots hold their thread weakly, so a finished
 * thread stays unreachable; ids are never reused.
 *
 * <h2>The shared slot</h2>
 * Only taking from it is an atomic exchange, so no packet is handed out twice. Putting into it
 * when seen empty is a release store: a racing put may overwrite the packet another thread just
 * stored, which then goes to the garbage collector like one beyond the cap. Losing a pooled
 * packet under contention costs an allocation; an atomic on every release cost more.
 */
final class PacketPool implements PacketRecycler {
    /** Idle packets kept per port (besides the ones in the slots). */
    static final int MAX_CACHED = 256;
    /** Threads with a slot of their own in one pool. */
    static final int MAX_SLOTS = 8;
    private static final VarHandle SPARE;

    static {
        try {
            SPARE = MethodHandles.lookup().findVarHandle(PacketPool.class, "spare", Packet.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One thread's one-entry cache; its mutable fields are accessed by that thread only. */
    private static final class Slot {
        final long tid;
        /** Tells when the slot may go to another thread; weak, so the pool keeps no thread alive. */
        final WeakReference<Thread> owner = new WeakReference<>(Thread.currentThread());
        /** The packet the slot is bound to: the one its thread allocated last. */
        Packet packet;
        /** Whether {@link #packet} is idle in the slot (else it is out, or gone to another pool path). */
        boolean in;

        Slot(long tid) {
            this.tid = tid;
        }

        boolean ownerFinished() {
            Thread t = owner.get();
            return t == null || t.getState() == Thread.State.TERMINATED;
        }
    }

    private final LinkLayer linkLayer;
    private final Packet[] idle = new Packet[MAX_CACHED];
    private int count;
    /** The per-thread slots; replaced (copy on write) under the monitor. */
    private volatile Slot[] slots = new Slot[0];
    /** The slot used last (racy cache, see the class comment). */
    private Slot last;
    /** The shared slot; read and written only through {@link #SPARE}. */
    @SuppressWarnings("unused")
    private Packet spare;

    PacketPool(LinkLayer linkLayer) {
        this.linkLayer = linkLayer;
    }

    Packet alloc() {
        Slot s = slot();
        if (s != null && s.in) {
            s.in = false;
            return s.packet.reuse();
        }
        Packet p = (Packet) SPARE.getAndSet(this, (Packet) null);
        if (p == null) {
            synchronized (this) {
                if (count > 0) {
                    p = idle[--count];
                    idle[count] = null;
                }
            }
        }
        p = p == null ? new Packet(linkLayer, this) : p.reuse();
        if (s != null) {
            s.packet = p;
        }
        return p;
    }

    @Override
    public void recycle(Packet packet) {
        Slot s = slot();
        if (s != null && s.packet == packet) {
            s.in = true;
            return;
        }
        if (SPARE.getAcquire(this) == null) {
            SPARE.setRelease(this, packet);
            return;
        }
        synchronized (this) {
            if (count < MAX_CACHED) {
                idle[count++] = packet;
            }
        }
    }

    /** The calling thread's slot, or null if every slot belongs to a live thread. */
    private Slot slot() {
        long me = Thread.currentThread().getId();
        Slot s = last;
        if (s == null || s.tid != me) {
            s = find(me);
            if (s != null) {
                last = s;
            }
        }
        return s;
    }

    private Slot find(long tid) {
        Slot[] ss = slots;
        int free = ss.length < MAX_SLOTS ? ss.length : -1;
        for (int i = 0; i < ss.length; i++) {
            if (ss[i].tid == tid) {
                return ss[i];
            }
            if (free < 0 && ss[i].ownerFinished()) {
                free = i;
            }
        }
        return free < 0 ? null : claim(ss, free, tid);
    }

    /**
     * Installs a slot for the calling thread at {@code index} of {@code seen}, unless another
     * thread changed the slots meanwhile (then the caller goes without a slot this time).
     */
    private synchronized Slot claim(Slot[] seen, int index, long tid) {
        if (slots != seen) {
            return null;
        }
        Slot[] next = Arrays.copyOf(seen, Math.max(seen.length, index + 1));
        Slot s = new Slot(tid);
        next[index] = s;
        slots = next;
        return s;
    }
}
