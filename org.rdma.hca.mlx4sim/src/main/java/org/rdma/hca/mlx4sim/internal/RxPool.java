package org.rdma.hca.mlx4sim.internal;

import java.util.ArrayDeque;
import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtPacket;

/**
 * Receive descriptors: an {@link RvtPacket} bound to the fabric {@link Packet} it describes, the
 * counterpart of mlx4's receive ring entries ({@code struct mlx4_ib_buf} of the RQ). The transport
 * keeps a packet alive by {@link RvtPacket#retain()}, which retains the fabric packet; the
 * descriptor returns to the pool when neither the driver nor the transport holds it. Nothing is
 * allocated once the pool has grown to the number of packets in flight.
 */
final class RxPool {
    /** One descriptor. */
    final class Slot implements RvtPacket.Owner {
        final RvtPacket pkt = new RvtPacket();
        Packet frame;
        private int refs;

        @Override
        public void retain(RvtPacket p) {
            synchronized (RxPool.this) {
                refs++;
            }
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
            synchronized (RxPool.this) {
                if (--refs > 0) {
                    return;
                }
                pkt.clear();
                frame = null;
                free.addFirst(this);
            }
        }
    }

    private final ArrayDeque<Slot> free = new ArrayDeque<>();

    /** A descriptor for {@code frame}, holding the driver's reference; the packet is cleared. */
    Slot take(Packet frame) {
        Slot s;
        synchronized (this) {
            s = free.pollFirst();
            if (s == null) {
                s = new Slot();
            }
            s.refs = 1;
        }
        s.pkt.clear();
        s.frame = frame;
        s.pkt.owner = s;
        return s;
    }
}
