package org.rdma.hca.mlx4sim.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtPacket;

/**
 * Receive descriptors: an {@link RvtPacket} bound to the fabric {@link Packet} it describes, the
 * counterpart of mlx4's receive ring entries ({@code struct mlx4_ib_buf} of the RQ). The transport
 * keeps a packet alive by {@link RvtPacket#retain()}, which retains the fabric packet; the
 * descriptor returns to the pool when neither the driver nor the transport holds it. Nothing is
 * allocated once the pool has grown to the number of packets in flight.
 *
 * <p>Most packets are processed inline and their descriptor is free again before the next one
 * arrives, so one free descriptor waits in a slot taken with a single atomic exchange; the
 * others wait in a list behind the pool's monitor. References are counted atomically, so the
 * usual take-and-done costs two atomic instructions instead of two monitor round trips.
 */
final class RxPool {
    private static final VarHandle SPARE;
    private static final VarHandle REFS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SPARE = l.findVarHandle(RxPool.class, "spare", Slot.class);
            REFS = l.findVarHandle(Slot.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One descriptor. */
    final class Slot implements RvtPacket.Owner {
        final RvtPacket pkt = new RvtPacket();
        Packet frame;
        /** Holders: the driver until {@code receive} returns, plus each retain; through {@link #REFS}. */
        @SuppressWarnings("unused")
        private volatile int refs;

        @Override
        public void retain(RvtPacket p) {
            REFS.getAndAdd(this, 1);
            frame.retain();
        }

        @Override
        public void release(RvtPacket p) {
            Packet f = frame;
            done();
            f.release();
        }

        @Override
        public void retainPayload(RvtPacket p) {
            Packet f = frame;
            f.retainPayload();
            p.payload = f.payload;
            p.payloadOffset = f.payloadOffset;
            p.payloadStable = true;
        }

        /** The driver's (or a retainer's) reference is gone. */
        void done() {
            if ((int) REFS.getAndAdd(this, -1) > 1) {
                return;
            }
            pkt.clear();
            frame = null;
            if (SPARE.compareAndSet(RxPool.this, (Slot) null, this)) {
                return;
            }
            synchronized (RxPool.this) {
                free.addFirst(this);
            }
        }
    }

    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    /** The fast slot; read and written only through {@link #SPARE}. */
    @SuppressWarnings("unused")
    private Slot spare;

    /** A descriptor for {@code frame}, holding the driver's reference; the packet is clear (done() cleared it). */
    Slot take(Packet frame) {
        Slot s = (Slot) SPARE.getAndSet(this, (Slot) null);
        if (s == null) {
            synchronized (this) {
                s = free.pollFirst();
            }
            if (s == null) {
                s = new Slot();
            }
        }
        s.refs = 1;
        s.frame = frame;
        s.pkt.owner = s;
        return s;
    }
}
