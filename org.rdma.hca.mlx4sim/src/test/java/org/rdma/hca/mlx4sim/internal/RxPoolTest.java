package org.rdma.hca.mlx4sim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.Packet;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.LinkLayer;

/** The receive descriptors: the fast descriptor's ownership rules and the references under retains. */
class RxPoolTest {

    private static Packet frame(int tag) {
        Packet p = new Packet(LinkLayer.INFINIBAND);
        p.header[8] = (byte) tag;
        p.header[9] = (byte) (tag >>> 8);
        p.header[10] = (byte) (tag >>> 16);
        p.header[11] = (byte) (tag >>> 24);
        p.headerLength = 20;
        p.payload = ByteBuffer.allocate(16);
        p.payloadOffset = 4;
        p.payloadLength = 8;
        p.padCount = 3;
        return p;
    }

    private static int tagOf(RvtPacket r) {
        byte[] h = r.hdr;
        return h[0] & 0xFF | (h[1] & 0xFF) << 8 | (h[2] & 0xFF) << 16 | (h[3] & 0xFF) << 24;
    }

    @Test
    void inlineReceivesReuseTheFastDescriptor() {
        RxPool pool = new RxPool();
        RxPool.Slot first = pool.take(frame(1), 8, 12, 1);
        first.done();
        for (int i = 2; i < 100; i++) {
            Packet f = frame(i);
            RxPool.Slot s = pool.take(f, 8, 12, 1);
            assertSame(first, s);
            assertSame(f, s.frame);
            assertEquals(i, tagOf(s.pkt));
            s.done();
            assertNull(s.frame, "an idle descriptor keeps no fabric packet");
            assertNull(s.pkt.payload, "an idle descriptor keeps no payload");
            assertEquals(1, f.refCount(), "the driver never takes the fabric packet's reference");
        }
    }

    @Test
    void takeFillsTheCommonFieldsWhateverTheTransportLeftBehind() {
        RxPool pool = new RxPool();
        RxPool.Slot s = pool.take(frame(7), 8, 12, 1);
        RvtPacket r = s.pkt;
        r.av = new AhAttr();
        r.opcode = 0x0A;
        r.mask = -1;
        r.psn = 12345;
        r.owner = null;
        r.port = 9;
        s.done();
        Packet f = frame(8);
        RxPool.Slot t = pool.take(f, 8, 12, 2);
        assertSame(s, t);
        assertEquals(8, tagOf(r));
        assertEquals(12, r.hdrLen);
        assertEquals(3, r.padCount);
        assertSame(f.payload, r.payload);
        assertEquals(4, r.payloadOffset);
        assertEquals(8, r.payloadLength);
        assertEquals(2, r.port);
        assertNull(r.av);
        assertEquals(0, r.opcode);
        assertEquals(0, r.mask);
        assertEquals(0, r.psn);
        assertSame(t, r.owner);
        t.done();
    }

    @Test
    void aReceiveWhileTheFastDescriptorIsHeldOrRetainedUsesThePool() {
        RxPool pool = new RxPool();
        Packet f1 = frame(1);
        RxPool.Slot fast = pool.take(f1, 8, 12, 1);
        // re-entered receive (loopback from inside the transport)
        RxPool.Slot nested = pool.take(frame(2), 8, 12, 1);
        assertNotSame(fast, nested);
        nested.done();
        // the transport keeps the packet beyond receive
        fast.pkt.retain();
        assertEquals(2, f1.refCount());
        fast.done();
        assertSame(f1, fast.frame, "a retained descriptor stays bound to its packet");
        RxPool.Slot other = pool.take(frame(3), 8, 12, 1);
        assertNotSame(fast, other);
        assertSame(nested, other, "the pool's descriptors are reused too");
        other.done();
        assertEquals(1, tagOf(fast.pkt), "nobody else wrote into the retained descriptor");
        // released on a transport thread
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                fast.pkt.release();
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        t.start();
        join(t);
        assertNull(failed.get());
        assertEquals(1, f1.refCount(), "the transport's reference on the fabric packet is gone");
        assertSame(fast, pool.take(frame(4), 8, 12, 1), "released: the fast descriptor is free again");
    }

    @Test
    void nestedRetainsKeepTheDescriptorUntilTheLastRelease() {
        RxPool pool = new RxPool();
        Packet f = frame(5);
        RxPool.Slot s = pool.take(f, 8, 12, 1);
        s.pkt.retain();
        s.pkt.retain();
        s.done();
        s.pkt.release();
        assertNotSame(s, pool.take(frame(6), 8, 12, 1));
        s.pkt.release();
        assertEquals(1, f.refCount());
        assertSame(s, pool.take(frame(7), 8, 12, 1));
    }

    /**
     * Several receiving threads on one pool, each sometimes handing the descriptor to a transport
     * thread that releases it later: a descriptor is never held by two receives at once, and what
     * a holder wrote stays there until it lets go.
     */
    @Test
    void concurrentReceivesAndRemoteReleasesNeverShareADescriptor() throws Exception {
        RxPool pool = new RxPool();
        int threads = 4;
        int perThread = 20_000;
        Map<RxPool.Slot, Boolean> held = new ConcurrentHashMap<>();
        LinkedBlockingQueue<RxPool.Slot> retained = new LinkedBlockingQueue<>();
        RxPool.Slot poison = pool.new Slot();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        Thread releaser = new Thread(() -> {
            try {
                for (RxPool.Slot s = retained.take(); s != poison; s = retained.take()) {
                    int tag = tagOf(s.pkt);
                    assertEquals(tag, s.pkt.psn, "a retained descriptor was overwritten");
                    Packet f = s.frame;
                    assertTrue(f.refCount() >= 1);
                    held.remove(s);
                    s.pkt.release();
                }
            } catch (Throwable e) {
                failed.compareAndSet(null, e);
            }
        }, "releaser");
        releaser.start();
        List<Thread> receivers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t << 24;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    for (int i = 0; i < perThread; i++) {
                        int tag = base | i;
                        Packet f = frame(tag);
                        RxPool.Slot s = pool.take(f, 8, 12, 1);
                        assertTrue(held.putIfAbsent(s, Boolean.TRUE) == null, "a descriptor handed out twice");
                        s.pkt.psn = tag;
                        for (int k = rnd.nextInt(8); k > 0; k--) {
                            Thread.onSpinWait();
                        }
                        assertEquals(tag, tagOf(s.pkt), "another receive wrote into this descriptor");
                        assertEquals(tag, s.pkt.psn, "another receive wrote into this descriptor");
                        boolean retain = rnd.nextInt(4) == 0;
                        if (retain) {
                            s.pkt.retain();
                            s.done();
                            retained.add(s);
                        } else {
                            held.remove(s);
                            s.done();
                        }
                        f.release(); // the fabric's reference, after receive returns
                    }
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                }
            }, "receiver-" + t);
            receivers.add(th);
            th.start();
        }
        for (Thread th : receivers) {
            join(th);
        }
        retained.add(poison);
        join(releaser);
        if (failed.get() != null) {
            throw new AssertionError(failed.get());
        }
        assertTrue(held.isEmpty());
        // every descriptor came back: the fast one first
        RxPool.Slot s = pool.take(frame(1), 8, 12, 1);
        assertFalse(s == poison);
        RxPool.Slot again = pool.take(frame(2), 8, 12, 1);
        assertNotSame(s, again);
    }

    private static void join(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertFalse(t.isAlive(), t.getName() + " did not finish");
    }
}
