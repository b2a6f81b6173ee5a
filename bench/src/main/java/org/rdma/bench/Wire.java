package org.rdma.bench;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtDevice;
import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.SystemClock;

/**
 * Two rvt devices whose ports are joined by nothing but a function call: a transmitted packet's
 * transport headers and payload reference go straight into the peer's {@code receive}, with no
 * link layer, fabric or HCA model in between. What a benchmark measures on this pair is the
 * transport (rvt) and the core's verbs alone; the same benchmark on the {@link Subnet} adds the
 * mlx4sim driver and the fabric, so the two together say where a packet's time goes.
 *
 * <p>The receive descriptors work as a driver's must ({@link RvtPacket.Owner}): one the transport
 * retains leaves the pool until released, and its payload is copied when the transport asks.
 */
final class Wire implements HcaPair {
    static final int LID_A = 10;
    static final int LID_B = 11;

    final SystemClock clock = new SystemClock("wire-bench-clock");
    private final End a = new End(LID_A, 0x0002c90300a1b2c0L);
    private final End b = new End(LID_B, 0x0002c90300a1b4c0L);
    private final CoreDevice devA;
    private final CoreDevice devB;

    Wire() {
        a.peer = b;
        b.peer = a;
        devA = Bench.register(a.rvt, "wire_0", 0);
        devB = Bench.register(b.rvt, "wire_1", 1);
    }

    @Override
    public CoreDevice devA() {
        return devA;
    }

    @Override
    public CoreDevice devB() {
        return devB;
    }

    @Override
    public void close() {
        a.rvt.detach();
        b.rvt.detach();
        clock.close();
    }

    /** One device and its port: an InfiniBand port, always ACTIVE, MTU 4096. */
    private final class End implements RvtDriver {
        final int lid;
        final long guid;
        final RvtDevice rvt;
        End peer;
        private final ArrayDeque<Desc> free = new ArrayDeque<>();
        private final AtomicReference<Desc> spare = new AtomicReference<>();
        private final Desc fast = new Desc(this);
        private final AtomicBoolean fastBusy = new AtomicBoolean();

        End(int lid, long guid) {
            this.lid = lid;
            this.guid = guid;
            DeviceInfo info = new DeviceInfo();
            info.nameTemplate = "wire_%d";
            info.driverId = "wire";
            info.nodeType = NodeType.CA;
            info.nodeGuid = guid;
            info.nodeDesc = "wire " + lid;
            info.physPortCnt = 1;
            rvt = new RvtDevice(info, RvtDevice.defaultAttr(), this, clock);
        }

        @Override
        public PortAttr queryPort(int port) {
            PortAttr p = new PortAttr();
            p.state = PortState.ACTIVE;
            p.physState = PhysPortState.LINK_UP;
            p.lid = lid;
            p.maxMtu = Mtu.MTU_4096;
            p.activeMtu = Mtu.MTU_4096;
            p.gidTblLen = 1;
            p.pkeyTblLen = 1;
            p.linkLayer = LinkLayer.INFINIBAND;
            return p;
        }

        @Override
        public GidEntry queryGid(int port, int index) {
            return index == 0 ? new GidEntry(Gid.linkLocal(guid), GidType.IB, null) : null;
        }

        @Override
        public int queryPkey(int port, int index) {
            return index == 0 ? 0xffff : 0;
        }

        @Override
        public int transmit(int port, RvtPacket pkt) {
            Desc d = peer.take();
            RvtPacket r = d.pkt;
            System.arraycopy(pkt.hdr, 0, r.hdr, 0, pkt.hdrLen);
            r.hdrLen = pkt.hdrLen;
            r.padCount = pkt.padCount;
            r.payload = pkt.payload;
            r.payloadOffset = pkt.payloadOffset;
            r.payloadLength = pkt.payloadLength;
            r.segments = pkt.segments;
            r.startsMessage = pkt.startsMessage;
            r.endsMessage = pkt.endsMessage;
            r.port = 1;
            r.slid = lid;
            r.dlid = pkt.av.dlid;
            r.sl = pkt.av.sl;
            r.owner = d;
            try {
                peer.rvt.receive(1, r);
            } finally {
                d.release(r);
            }
            return 0;
        }

        /** Trains go through whole, as mlx4sim's InfiniBand ports take them. */
        @Override
        public int maxSegments(int port) {
            return Packet.MAX_SEGMENTS;
        }

        /**
         * A free descriptor, taken as mlx4sim's receive pool takes one, so the harness costs what
         * a driver's descriptors cost: the end's own descriptor with one compare-and-set when it
         * is free (it is given back with a release store), else the one most recently freed with
         * one atomic exchange, else one from the list.
         */
        private Desc take() {
            Desc d;
            if (fastBusy.compareAndSet(false, true)) {
                d = fast;
            } else {
                d = spare.getAndSet(null);
                if (d == null) {
                    synchronized (this) {
                        d = free.pollFirst();
                    }
                    if (d == null) {
                        d = new Desc(this);
                    }
                }
            }
            d.refs.set(1);
            return d;
        }

        private void put(Desc d) {
            if (d == fast) {
                fastBusy.setRelease(false);
            } else if (!spare.compareAndSet(null, d)) {
                synchronized (this) {
                    free.addFirst(d);
                }
            }
        }
    }

    /** A receive descriptor: the driver holds it during {@code receive}, the transport while it keeps it. */
    private static final class Desc implements RvtPacket.Owner {
        final End end;
        final RvtPacket pkt = new RvtPacket();
        final AtomicInteger refs = new AtomicInteger();
        private ByteBuffer copy;

        Desc(End end) {
            this.end = end;
        }

        @Override
        public void retain(RvtPacket p) {
            refs.incrementAndGet();
        }

        @Override
        public void release(RvtPacket p) {
            // A count of 1 is the only holder's: the transport retains only while the driver
            // holds the descriptor, so nobody can retain or release concurrently.
            if (refs.get() != 1 && refs.decrementAndGet() > 0) {
                return;
            }
            pkt.clear();
            end.put(this);
        }

        @Override
        public void retainPayload(RvtPacket p) {
            int total = p.payloadLength * p.segments;
            if (copy == null || copy.capacity() < total) {
                copy = ByteBuffer.allocateDirect(Math.max(4096, total));
            }
            copy.put(0, p.payload, p.payloadOffset, total);
            p.payload = copy;
            p.payloadOffset = 0;
            p.payloadStable = true;
        }
    }
}
