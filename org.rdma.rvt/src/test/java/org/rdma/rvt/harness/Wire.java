package org.rdma.rvt.harness;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.rdma.rvt.RvtDevice;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;

/**
 * An in-memory network joining test devices. Synchronous mode delivers inside {@code transmit}
 * (payload by reference, nothing copied unless the receiver keeps the packet); queued mode holds
 * packets (payload copied) until {@link #run()} and can drop, duplicate and reorder them with a
 * seeded random source. Delivered packets come from a pool and are returned when every holder has
 * released them.
 */
public final class Wire {
    /** Delivery modes. */
    public enum Mode { SYNC, QUEUED }

    /** One attached port. */
    public static final class Endpoint {
        final RvtDevice dev;
        final int port;
        final int lid;
        final Gid gid;

        Endpoint(RvtDevice dev, int port, int lid, Gid gid) {
            this.dev = dev;
            this.port = port;
            this.lid = lid;
            this.gid = gid;
        }
    }

    /** A pooled delivered packet and its reference count. */
    private final class Slot implements RvtPacket.Owner {
        final RvtPacket pkt = new RvtPacket();
        ByteBuffer own = ByteBuffer.allocate(8192);
        Endpoint dst;
        int refs;

        @Override
        public void retain(RvtPacket p) {
            synchronized (Wire.this) {
                refs++;
                retained++;
            }
        }

        @Override
        public void release(RvtPacket p) {
            put(this);
        }

        @Override
        public void retainPayload(RvtPacket p) {
            if (p.payload != own && p.payloadLength > 0) {
                int total = p.payloadLength * p.segments;
                if (own.capacity() < total) {
                    own = ByteBuffer.allocate(total);
                }
                own.put(0, p.payload, p.payloadOffset, total);
                p.payload = own;
                p.payloadOffset = 0;
                copies++;
            }
            p.payloadStable = true;
        }
    }

    private static final boolean TRACE = Boolean.getBoolean("rvt.trace");
    private final List<Endpoint> endpoints = new ArrayList<>();
    private Endpoint[] eps = new Endpoint[0];
    private final ArrayDeque<Slot> pool = new ArrayDeque<>();
    private final ArrayList<Slot> queue = new ArrayList<>();
    private Mode mode = Mode.SYNC;
    private Random rnd = new Random(1);
    private double drop;
    private double dup;
    private double reorder;
    /** Drops every packet it accepts (applied before random faults). */
    public volatile Predicate<RvtPacket> filter;
    /** Counters. */
    public long sent;
    /** Delivered packets. */
    public long delivered;
    /** Dropped packets. */
    public long dropped;
    /** Duplicated packets. */
    public long duplicated;
    /** Reordered packets. */
    public long reordered;
    /** Packets receivers retained. */
    public long retained;
    /** Payload copies made for retained packets. */
    public long copies;
    /** Trains sent. */
    public long trains;
    /** Trains sent that carry their message's last packet. */
    public long endingTrains;
    /** Trains sent that carry their message's first packet. */
    public long startingTrains;

    /** Sets the mode. */
    public synchronized Wire mode(Mode m) {
        this.mode = m;
        return this;
    }

    /** Sets fault probabilities and the seed. */
    public synchronized Wire faults(long seed, double drop, double dup, double reorder) {
        this.rnd = new Random(seed);
        this.drop = drop;
        this.dup = dup;
        this.reorder = reorder;
        return this;
    }

    synchronized Endpoint attach(RvtDevice dev, int port, int lid, Gid gid) {
        Endpoint e = new Endpoint(dev, port, lid, gid);
        endpoints.add(e);
        eps = endpoints.toArray(new Endpoint[0]);
        return e;
    }

    /** The driver's transmit. */
    int send(Endpoint src, RvtPacket pkt) {
        AhAttr av = pkt.av;
        Predicate<RvtPacket> f = filter;
        Mode m;
        if (TRACE) {
            System.out.println("wire " + src.lid + "->" + av.dlid + " " + pkt + (pkt.hdrLen > 16 ? "" : ""));
        }
        synchronized (this) {
            sent++;
            if (pkt.segments > 1) {
                trains++;
                if (pkt.endsMessage) {
                    endingTrains++;
                }
                if (pkt.startsMessage) {
                    startingTrains++;
                }
            }
            if (f != null && f.test(pkt)) {
                dropped++;
                return 0;
            }
            m = mode;
            if (drop > 0 && rnd.nextDouble() < drop) {
                if (TRACE) {
                    System.out.println("  dropped");
                }
                dropped++;
                return 0;
            }
        }
        boolean mcast = av.dlid >= 0xc000 && av.dlid < 0xffff || av.hasGrh() && av.grh.dgid.isMulticast();
        Endpoint[] all = eps;
        for (int i = 0; i < all.length; i++) {
            Endpoint d = all[i];
            boolean hit = mcast ? d != src
                    : av.hasGrh() ? d.gid.equals(av.grh.dgid) : d.lid == av.dlid;
            if (!hit) {
                continue;
            }
            if (m == Mode.SYNC) {
                Slot s = fill(src, d, pkt, false);
                deliver(s);
            } else {
                enqueue(fill(src, d, pkt, true));
                boolean twice;
                synchronized (this) {
                    twice = dup > 0 && rnd.nextDouble() < dup;
                }
                if (twice) {
                    duplicated++;
                    enqueue(fill(src, d, pkt, true));
                }
            }
        }
        return 0;
    }

    private synchronized void enqueue(Slot s) {
        if (reorder > 0 && !queue.isEmpty() && rnd.nextDouble() < reorder) {
            int at = queue.size() - 1 - rnd.nextInt(Math.min(queue.size(), 4));
            queue.add(at, s);
            reordered++;
        } else {
            queue.add(s);
        }
    }

    private Slot fill(Endpoint src, Endpoint dst, RvtPacket pkt, boolean copy) {
        Slot s;
        synchronized (this) {
            s = pool.pollFirst();
        }
        if (s == null) {
            s = new Slot();
        }
        RvtPacket p = s.pkt;
        p.clear();
        System.arraycopy(pkt.hdr, 0, p.hdr, 0, pkt.hdrLen);
        p.hdrLen = pkt.hdrLen;
        p.padCount = pkt.padCount;
        p.payloadLength = pkt.payloadLength;
        p.segments = pkt.segments;
        p.endsMessage = pkt.endsMessage;
        p.startsMessage = pkt.startsMessage;
        if (pkt.payloadLength > 0 && copy) {
            int total = pkt.payloadLength * pkt.segments;
            if (s.own.capacity() < total) {
                s.own = ByteBuffer.allocate(total);
            }
            s.own.put(0, pkt.payload, pkt.payloadOffset, total);
            p.payload = s.own;
            p.payloadOffset = 0;
            p.payloadStable = true;
        } else {
            p.payload = pkt.payload;
            p.payloadOffset = pkt.payloadOffset;
            p.payloadStable = pkt.payloadStable;
        }
        AhAttr av = pkt.av;
        p.slid = src.lid | av.srcPathBits;
        p.dlid = av.dlid;
        p.sl = av.sl;
        p.vl15 = pkt.vl15;
        if (av.hasGrh()) {
            p.hasGrh = true;
            byte[] g = p.grh;
            g[0] = (byte) (0x60 | (av.grh.trafficClass >>> 4));
            g[1] = (byte) ((av.grh.trafficClass << 4) | ((av.grh.flowLabel >>> 16) & 0xf));
            g[2] = (byte) (av.grh.flowLabel >>> 8);
            g[3] = (byte) av.grh.flowLabel;
            int len = pkt.hdrLen + pkt.payloadLength + pkt.padCount + 4;
            g[4] = (byte) (len >>> 8);
            g[5] = (byte) len;
            g[6] = 0x1b;
            g[7] = (byte) av.grh.hopLimit;
            src.gid.writeTo(g, 8);
            av.grh.dgid.writeTo(g, 24);
            p.sgidHi = src.gid.subnetPrefix();
            p.sgidLo = src.gid.interfaceId();
            p.dgidHi = av.grh.dgid.subnetPrefix();
            p.dgidLo = av.grh.dgid.interfaceId();
        }
        p.owner = s;
        s.dst = dst;
        s.refs = 1;
        return s;
    }

    private void deliver(Slot s) {
        synchronized (this) {
            delivered++;
        }
        s.dst.dev.receive(s.dst.port, s.pkt);
        put(s);
    }

    private void put(Slot s) {
        synchronized (this) {
            if (--s.refs == 0) {
                s.pkt.payload = null;
                pool.addFirst(s);
            }
        }
    }

    /** Queued mode: delivers until the queue is empty; returns how many were delivered. */
    public int run() {
        int n = 0;
        while (true) {
            Slot s;
            synchronized (this) {
                if (queue.isEmpty()) {
                    return n;
                }
                s = queue.remove(0);
            }
            deliver(s);
            n++;
        }
    }

    /** Packets waiting in queued mode. */
    public synchronized int queued() {
        return queue.size();
    }
}
