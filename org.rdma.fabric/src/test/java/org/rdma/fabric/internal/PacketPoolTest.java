package org.rdma.fabric.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.Packet;
import org.rdma.verbs.LinkLayer;

/** The per-thread slots of {@link PacketPool} and the shared paths behind them. */
class PacketPoolTest {

    @Test
    void aRoundOnOneThreadReusesThePacket() {
        PacketPool pool = new PacketPool(LinkLayer.INFINIBAND);
        Packet p = pool.alloc();
        p.release();
        Packet q = pool.alloc();
        assertSame(p, q);
        assertEquals(1, q.refCount());
        q.release();
    }

    @Test
    void packetsOutAtOnceAreDistinctAndAllComeBack() {
        PacketPool pool = new PacketPool(LinkLayer.INFINIBAND);
        List<Packet> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            out.add(pool.alloc());
        }
        assertEquals(10, identities(out).size());
        out.forEach(Packet::release);
        List<Packet> again = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            again.add(pool.alloc());
        }
        assertEquals(identities(out), identities(again), "the pool hands its idle packets out again");
    }

    @Test
    void aPacketReleasedOnAnotherThreadComesBackThroughTheSharedSlot() throws Exception {
        PacketPool pool = new PacketPool(LinkLayer.INFINIBAND);
        Packet p = pool.alloc();
        Thread t = new Thread(p::release);
        t.start();
        join(t);
        Packet q = pool.alloc();
        assertSame(p, q);
        // The slot stays bound to q: released here, it is handed out again without the shared slot.
        q.release();
        assertSame(q, pool.alloc());
    }

    @Test
    void threadsBeyondTheSlotsUseTheSharedPathsAndNeverShareAPacket() throws Exception {
        PacketPool pool = new PacketPool(LinkLayer.INFINIBAND);
        int threads = PacketPool.MAX_SLOTS + 4;
        CountDownLatch holding = new CountDownLatch(threads);
        CountDownLatch done = new CountDownLatch(1);
        Set<Packet> held = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    for (int round = 0; round < 1000; round++) {
                        Packet p = pool.alloc();
                        if (!held.add(p)) {
                            throw new AssertionError("a packet was handed out twice");
                        }
                        held.remove(p);
                        p.release();
                    }
                    Packet last = pool.alloc();
                    held.add(last);
                    holding.countDown();
                    done.await();
                    last.release();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    holding.countDown();
                }
            });
            ts.add(t);
            t.start();
        }
        assertTrue(holding.await(60, TimeUnit.SECONDS), "every thread holds its packet within 60 s");
        assertEquals(threads, held.size(), "each thread holds a packet of its own");
        done.countDown();
        for (Thread t : ts) {
            join(t);
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void aFinishedThreadsSlotGoesToANewThread() throws Exception {
        PacketPool pool = new PacketPool(LinkLayer.INFINIBAND);
        for (int i = 0; i < PacketPool.MAX_SLOTS; i++) {
            Thread t = new Thread(() -> pool.alloc().release());
            t.start();
            join(t);
        }
        AtomicReference<Packet> bound = new AtomicReference<>();
        AtomicReference<Packet> next = new AtomicReference<>();
        Thread t = new Thread(() -> {
            Packet a = pool.alloc();
            Packet b = pool.alloc();
            a.release();            // not the packet the slot waits for: the shared slot
            b.release();            // into the thread's slot (without one: the stack)
            bound.set(b);
            next.set(pool.alloc());
        });
        t.start();
        join(t);
        assertSame(bound.get(), next.get(), "the new thread got a slot of its own");
        assertEquals(1, next.get().refCount());
    }

    /** Waits a bounded time for {@code t}, failing the test if it is still running. */
    private static void join(Thread t) throws InterruptedException {
        t.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(t.isAlive(), t.getName() + " did not finish within 60 s");
    }

    private static Set<Packet> identities(List<Packet> ps) {
        Set<Packet> s = Collections.newSetFromMap(new IdentityHashMap<>());
        s.addAll(ps);
        return s;
    }
}
