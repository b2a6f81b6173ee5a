package org.rdma.fabric.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.rdma.fabric.Capture;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FaultCounters;
import org.rdma.fabric.FaultProfile;
import org.rdma.fabric.Packet;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.time.IbClock;

/**
 * A cable: two {@link Direction}s, each with its fault state, and an optional capture tap.
 *
 * <h2>Datapath</h2>
 * {@link #carry} takes a packet a port transmitted. Without faults and without a capture (the
 * fast path) it goes straight to the far port's receiver on the caller's thread. With faults,
 * the direction's monitor guards the random generator and the held packet; deliveries happen
 * after the monitor is released, either at once or from the fabric clock.
 *
 * <p>A direction does not count the packets entering it: a port counts every packet it puts on
 * its cable in PortXmitPkts, so the direction reads that count from its sending port instead of
 * paying for a second counter update per packet.
 */
final class LinkImpl implements FabricLink {
    final FabricImpl fabric;
    final PortImpl a;
    final PortImpl b;
    final PortWidth width;
    final PortSpeed speed;
    final Direction ab;
    final Direction ba;

    /** Written under the fabric lock. */
    volatile boolean up;
    /** Counts the times the link went down: a delivery scheduled before a pull is lost. */
    volatile int epoch;
    volatile boolean cablePresent = true;
    volatile CaptureImpl capture;

    /** One direction of the cable: faults, their generator and statistics. */
    final class Direction {
        final int index;
        final PortImpl from;
        final PortImpl to;
        final SplittableRandom rng;
        volatile FaultProfile profile = FaultProfile.NONE;
        /** No faults and no capture: deliver inline without touching the monitor. */
        volatile boolean fast = true;
        /** Packets lost to a link down. */
        final StripedLongs lostLinkDown = new StripedLongs(1);
        /** {@code from}'s PortXmitPkts (ignoring clears) when the cable was connected. */
        private final long xmitBase;
        /** The packets carried, fixed when the cable was disconnected; -1 while it is connected. */
        private volatile long carriedWhenDisconnected = -1;
        long dropped;
        long duplicated;
        long reordered;
        long corrupted;
        long delayed;
        Packet held;
        IbClock.Timer holdTimer;

        Direction(int index, PortImpl from, PortImpl to, long seed) {
            this.index = index;
            this.from = from;
            this.to = to;
            this.rng = new SplittableRandom(seed);
            this.xmitBase = from.counters.raw(Counters.XMIT_PKTS);
        }

        /** The packets that entered this direction: those {@code from} transmitted since the cable was connected. */
        long carried() {
            long fixed = carriedWhenDisconnected;
            return fixed >= 0 ? fixed : from.counters.raw(Counters.XMIT_PKTS) - xmitBase;
        }

        synchronized FaultCounters snapshot() {
            return new FaultCounters(carried(), dropped, duplicated, reordered, corrupted, delayed, lostLinkDown.get(0));
        }
    }

    LinkImpl(FabricImpl fabric, PortImpl a, PortImpl b, PortWidth width, PortSpeed speed, long seed) {
        this.fabric = fabric;
        this.a = a;
        this.b = b;
        this.width = width;
        this.speed = speed;
        this.ab = new Direction(0, a, b, seed * 0x9E3779B97F4A7C15L + 1);
        this.ba = new Direction(1, b, a, seed * 0x9E3779B97F4A7C15L + 2);
    }

    // ------------------------------------------------------------------ FabricLink

    @Override
    public FabricPort endA() {
        return a;
    }

    @Override
    public FabricPort endB() {
        return b;
    }

    @Override
    public PortImpl other(FabricPort port) {
        if (port == a) {
            return b;
        }
        if (port == b) {
            return a;
        }
        throw new IllegalArgumentException(port + " is not an end of " + this);
    }

    @Override
    public PortWidth width() {
        return width;
    }

    @Override
    public PortSpeed speed() {
        return speed;
    }

    @Override
    public boolean isUp() {
        return up;
    }

    @Override
    public boolean isCablePresent() {
        return cablePresent;
    }

    @Override
    public void cablePull() {
        fabric.setCable(this, false);
    }

    @Override
    public void cableRestore() {
        fabric.setCable(this, true);
    }

    @Override
    public void setFaults(FaultProfile faults) {
        setFaults(a, faults);
        setFaults(b, faults);
    }

    @Override
    public void setFaults(FabricPort from, FaultProfile faults) {
        Direction d = direction(from);
        Packet release;
        synchronized (d) {
            d.profile = faults == null ? FaultProfile.NONE : faults;
            refreshFast();
            release = d.profile.reorderRate() == 0 ? takeHeld(d) : null;
        }
        if (release != null) {
            deliver(d, release);
        }
    }

    @Override
    public FaultProfile faults(FabricPort from) {
        return direction(from).profile;
    }

    @Override
    public FaultCounters faultCounters(FabricPort from) {
        return direction(from).snapshot();
    }

    @Override
    public Capture capture(Path file) throws IOException {
        CaptureImpl c = new CaptureImpl(file, a.linkLayer == LinkLayer.INFINIBAND, fabric.clock(), this::captureClosed);
        CaptureImpl old;
        synchronized (this) {
            old = capture;
            capture = c;
            refreshFast();
        }
        if (old != null) {
            old.close();
        }
        return c;
    }

    private synchronized void captureClosed(CaptureImpl c) {
        if (capture == c) {
            capture = null;
            refreshFast();
        }
    }

    private void refreshFast() {
        boolean noCapture = capture == null;
        ab.fast = noCapture && ab.profile.isNone();
        ba.fast = noCapture && ba.profile.isNone();
    }

    Direction direction(FabricPort from) {
        if (from == a) {
            return ab;
        }
        if (from == b) {
            return ba;
        }
        throw new IllegalArgumentException(from + " is not an end of " + this);
    }

    // ------------------------------------------------------------------ datapath

    /**
     * A packet {@code from} transmitted (and counted in its PortXmitPkts) enters the cable.
     * Consumes the reference. {@code bytes} and {@code mc} are what {@code from} counted: the
     * fast path hands them on to the receiver; a delivery through faults or the capture tap
     * happens later, through {@link PortImpl#ingress(Packet)}, which decodes them again.
     */
    void carry(PortImpl from, Packet p, int bytes, boolean mc) {
        Direction d = from == a ? ab : ba;
        if (d.fast) {
            d.to.ingress(p, bytes, mc);
            return;
        }
        // Faults and the capture tap see each packet of a train.
        while (p.segments() > 1) {
            carryWithFaults(d, p.splitFirst(d.from.pool.alloc()));
        }
        carryWithFaults(d, p);
    }

    private void carryWithFaults(Direction d, Packet p) {
        Packet first = p;
        Packet second = null;
        Packet dup = null;
        long delay;
        synchronized (d) {
            FaultProfile f = d.profile;
            SplittableRandom r = d.rng;
            if (f.dropRate() > 0 && r.nextDouble() < f.dropRate()) {
                d.dropped++;
                p.release();
                return;
            }
            try {
                if (f.corruptRate() > 0 && r.nextDouble() < f.corruptRate()) {
                    p.flipBit(r.nextInt(p.corruptibleBits()));
                    d.corrupted++;
                }
                if (f.duplicateRate() > 0 && r.nextDouble() < f.duplicateRate()) {
                    p.materialize();
                    dup = d.from.pool.alloc().copyFrom(p);
                    d.duplicated++;
                }
                delay = f.delayNanos();
                if (f.reorderRate() > 0 && d.held == null && r.nextDouble() < f.reorderRate()) {
                    p.materialize();
                    d.held = p;
                    d.reordered++;
                    Packet token = p;
                    d.holdTimer = fabric.clock().schedule(() -> releaseHeld(d, token), f.reorderHoldNanos(),
                            TimeUnit.NANOSECONDS);
                    first = null;
                } else {
                    second = takeHeld(d);
                }
                if (delay > 0) {
                    if (first != null) {
                        first.materialize();
                        d.delayed++;
                    }
                    if (second != null) {
                        d.delayed++;
                    }
                }
            } catch (IllegalArgumentException | IndexOutOfBoundsException malformed) {
                // The CRC engines refuse a malformed packet: it never makes it across the cable.
                d.from.counters.inc(Counters.XMIT_DISCARDS);
                p.release();
                if (dup != null) {
                    dup.release();
                }
                return;
            }
        }
        if (delay > 0) {
            schedule(d, first, delay);
            schedule(d, second, delay);
            schedule(d, dup, delay);
        } else {
            deliver(d, first);
            deliver(d, second);
            deliver(d, dup);
        }
    }

    /** Takes the held packet out (monitor of {@code d} held). */
    private static Packet takeHeld(Direction d) {
        Packet h = d.held;
        if (h != null) {
            d.held = null;
            if (d.holdTimer != null) {
                d.holdTimer.cancel();
                d.holdTimer = null;
            }
        }
        return h;
    }

    private void releaseHeld(Direction d, Packet token) {
        synchronized (d) {
            if (d.held != token) {
                return;
            }
            d.held = null;
            d.holdTimer = null;
        }
        deliver(d, token);
    }

    private void schedule(Direction d, Packet p, long delayNanos) {
        if (p != null) {
            int sent = epoch;
            fabric.clock().schedule(() -> deliver(d, p, sent), delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void deliver(Direction d, Packet p) {
        deliver(d, p, epoch);
    }

    /** The far end of the cable: the capture tap, then the receiving port. */
    private void deliver(Direction d, Packet p, int sentInEpoch) {
        if (p == null) {
            return;
        }
        if (!up || sentInEpoch != epoch || fabric.isClosed()) {
            d.lostLinkDown.inc(0);
            p.release();
            return;
        }
        CaptureImpl c = capture;
        if (c != null) {
            try {
                c.record(d.index, p);
            } catch (IllegalArgumentException | IndexOutOfBoundsException malformed) {
                d.from.counters.inc(Counters.XMIT_DISCARDS);
                p.release();
                return;
            }
        }
        d.to.ingress(p);
    }

    /** The link went down: packets in flight and those a fault held back are lost (fabric lock held). */
    void dropHeld() {
        epoch++;
        for (Direction d : new Direction[] {ab, ba}) {
            Packet h;
            synchronized (d) {
                h = takeHeld(d);
            }
            if (h != null) {
                d.lostLinkDown.inc(0);
                h.release();
            }
        }
    }

    /**
     * The cable was disconnected and its ports forgot it (fabric lock held): their later packets
     * go onto other cables, so each direction keeps the count it has now.
     */
    void disconnected() {
        for (Direction d : new Direction[] {ab, ba}) {
            d.carriedWhenDisconnected = d.carried();
        }
    }

    void closeCapture() {
        CaptureImpl c = capture;
        if (c != null) {
            c.close();
        }
    }

    @Override
    public String toString() {
        return a + " - " + b;
    }
}
