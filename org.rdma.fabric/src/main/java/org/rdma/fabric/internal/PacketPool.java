package org.rdma.fabric.internal;

import org.rdma.fabric.Packet;
import org.rdma.fabric.PacketRecycler;
import org.rdma.verbs.LinkLayer;

/**
 * A port's packet pool ({@code kmem_cache} of skbs): a small array stack behind a monitor, which
 * uncontended costs one CAS. Grows on demand up to {@link #MAX_CACHED} idle packets; beyond that
 * released packets are left to the garbage collector.
 */
final class PacketPool implements PacketRecycler {
    /** Idle packets kept per port. */
    static final int MAX_CACHED = 256;

    private final LinkLayer linkLayer;
    private final Packet[] idle = new Packet[MAX_CACHED];
    private int count;

    PacketPool(LinkLayer linkLayer) {
        this.linkLayer = linkLayer;
    }

    Packet alloc() {
        Packet p;
        synchronized (this) {
            if (count == 0) {
                p = null;
            } else {
                p = idle[--count];
                idle[count] = null;
            }
        }
        return p == null ? new Packet(linkLayer, this) : p.reuse();
    }

    @Override
    public void recycle(Packet packet) {
        synchronized (this) {
            if (count < MAX_CACHED) {
                idle[count++] = packet;
            }
        }
    }

    synchronized int idle() {
        return count;
    }
}
