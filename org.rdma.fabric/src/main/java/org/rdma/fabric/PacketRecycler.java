package org.rdma.fabric;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Where a {@link Packet} goes when its last reference is released: the per-port packet pool,
 * the counterpart of the kernel's skb cache ({@code kmem_cache_free()}).
 */
@ConsumerType
@FunctionalInterface
public interface PacketRecycler {
    /**
     * Takes back a packet whose reference count dropped to zero. Its fields are already cleared;
     * the pool calls {@link Packet#reuse()} before handing it out again.
     *
     * @param packet the packet
     */
    void recycle(Packet packet);
}
