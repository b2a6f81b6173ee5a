package org.rdma.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketRecycler;
import org.rdma.verbs.LinkLayer;

/**
 * A port's packet pool ({@code kmem_cache} of skbs). The fabric delivers synchronously, so a
 * port usually has one packet out at a time: it goes back to the pool before the next is
 * allocated. That packet waits in a one-entry slot, the way a per-CPU cache sits in front of a
 * slab's locked lists; the others wait in a small array stack behind the monitor. Grows on
 * demand up to {@link #MAX_CACHED} idle packets in the stack; beyond that released packets are
 * left to the garbage collector.
 *
 * <p>Only taking from the slot is an atomic exchange, so no packet is handed out twice. Putting
 * into a slot seen empty is a release store: a racing put may overwrite the packet another
 * thread just stored, which then goes to the garbage collector like one beyond the cap. Losing a
 * pooled packet under contention costs an allocation; an atomic on every release cost more.
 */
final class PacketPool implements PacketRecycler {
    /** Idle packets kept per port (besides the one in the fast slot). */
    static final int MAX_CACHED = 256;
    private static final VarHandle SPARE;

    static {
        try {
            SPARE = MethodHandles.lookup().findVarHandle(PacketPool.class, "spare", Packet.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LinkLayer linkLayer;
    private final Packet[] idle = new Packet[MAX_CACHED];
    private int count;
    /** The fast slot; read and written only through {@link #SPARE}. */
    @SuppressWarnings("unused")
    private Packet spare;

    PacketPool(LinkLayer linkLayer) {
        this.linkLayer = linkLayer;
    }

    Packet alloc() {
        Packet p = (Packet) SPARE.getAndSet(this, (Packet) null);
        if (p == null) {
            synchronized (this) {
                if (count > 0) {
                    p = idle[--count];
                    idle[count] = null;
                }
            }
        }
        return p == null ? new Packet(linkLayer, this) : p.reuse();
    }

    @Override
    public void recycle(Packet packet) {
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
}
