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
 * <h2>The fast descriptor</h2>
 * Almost every packet is processed inline and its descriptor is free again before the next one
 * arrives, so the pool keeps one descriptor of its own, {@link #fast}, taken with one
 * compare-and-set of {@link #fastBusy} and given back with a plain releasing store, and the usual
 * receive costs a single atomic instruction. Why this is safe:
 * <ul>
 * <li>Only the thread whose CAS turned {@code fastBusy} from 0 to 1 fills {@code fast}; a
 * concurrent receive on another thread, a receive re-entered on the same thread (loopback from
 * inside the transport) and any receive while the transport retains {@code fast} find it busy and
 * take a descriptor from the pool instead.</li>
 * <li>{@code fastBusy} returns to 0 only in {@link Slot#done()} of the last holder, after the
 * descriptor was emptied; the store is a release, the next CAS an acquire, so the next owner sees
 * every write of the previous ones (including a release on a transport thread).</li>
 * </ul>
 *
 * <h2>References</h2>
 * A descriptor's holders are the driver until {@code receive} returns, plus each retain. By the
 * {@link RvtPacket} contract the transport retains while the driver still holds the descriptor
 * (before {@code receive} returns), so a holder that reads a count of 1 holds the only reference
 * and nobody can retain or release concurrently: the usual last {@code done()} needs no atomic
 * read-modify-write, as {@link Packet#release()} does. Other descriptors wait in {@link #spare}
 * (one atomic exchange) and then in a list behind the pool's monitor.
 */
final class RxPool {
    private static final VarHandle SPARE;
    private static final VarHandle REFS;
    private static final VarHandle FAST_BUSY;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SPARE = l.findVarHandle(RxPool.class, "spare", Slot.class);
            FAST_BUSY = l.findVarHandle(RxPool.class, "fastBusy", int.class);
            REFS = l.findVarHandle(Slot.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One descriptor. */
    final class Slot implements RvtPacket.Owner {
        final RvtPacket pkt = new RvtPacket();
        Packet frame;
        /** Holders (see the class comment); read-modify-written through {@link #REFS}. */
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
            if (refs != 1 && (int) REFS.getAndAdd(this, -1) > 1) {
                return;
            }
            // no RvtPacket.clear(): take() and the link write every field anyway, and clearing
            // twice costs ~5 ns a packet; only the references go, so an idle descriptor keeps
            // neither the sender's memory nor the fabric packet reachable
            pkt.payload = null;
            frame = null;
            if (this == fast) {
                FAST_BUSY.setRelease(RxPool.this, 0);
                return;
            }
            if (SPARE.compareAndSet(RxPool.this, (Slot) null, this)) {
                return;
            }
            synchronized (RxPool.this) {
                free.addFirst(this);
            }
        }
    }

    private final Slot fast = new Slot();
    /** 1 while {@link #fast} is held; read-modify-written through {@link #FAST_BUSY}. */
    @SuppressWarnings("unused")
    private volatile int fastBusy;
    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    /** The second descriptor to try; read and written only through {@link #SPARE}. */
    @SuppressWarnings("unused")
    private Slot spare;

    /**
     * A descriptor for {@code frame}, holding the driver's reference, with the transport headers
     * {@code frame.header[bth, bth + hdrLen)}, the payload reference and pad of {@code frame},
     * {@code port}, and {@code av}, {@code opcode}, {@code mask}, {@code psn} cleared. The link
     * sets every other field {@link RvtPacket#clear()} resets (the network-layer facts and
     * {@code payloadStable}): a descriptor is not cleared between packets.
     */
    Slot take(Packet frame, int bth, int hdrLen, int port) {
        Slot s;
        if (FAST_BUSY.compareAndSet(this, 0, 1)) {
            s = fast;
        } else {
            s = (Slot) SPARE.getAndSet(this, (Slot) null);
            if (s == null) {
                synchronized (this) {
                    s = free.pollFirst();
                }
                if (s == null) {
                    s = new Slot();
                }
            }
        }
        // plain stores: the slot is this thread's, and the transport reaches it only through this
        // thread (inline) or a hand-off that publishes it
        REFS.set(s, 1);
        s.frame = frame;
        RvtPacket r = s.pkt;
        System.arraycopy(frame.header, bth, r.hdr, 0, hdrLen);
        r.hdrLen = hdrLen;
        r.padCount = frame.padCount;
        r.segments = frame.segments();
        r.endsMessage = frame.endsMessage();
        r.startsMessage = frame.startsMessage();
        r.payload = frame.payload;
        r.payloadOffset = frame.payloadOffset;
        r.payloadLength = frame.payloadLength;
        r.port = port;
        r.av = null;
        r.opcode = 0;
        r.mask = 0;
        r.psn = 0;
        r.owner = s;
        return s;
    }
}
