package org.rdma.verbs.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SystemClockTest {
    @Test
    void aTimerIsNoLongerPendingOnceItsCallbackRuns() throws Exception {
        try (SystemClock clock = new SystemClock("test-timer")) {
            CountDownLatch done = new CountDownLatch(1);
            AtomicBoolean pendingInside = new AtomicBoolean(true);
            IbClock.Timer[] t = new IbClock.Timer[1];
            synchronized (t) {
                t[0] = clock.schedule(() -> {
                    synchronized (t) {
                        pendingInside.set(t[0].isPending());
                    }
                    done.countDown();
                }, 1, TimeUnit.MILLISECONDS);
            }
            assertTrue(done.await(10, TimeUnit.SECONDS), "the timer did not fire within 10 s");
            assertFalse(pendingInside.get(), "timer_pending() must be false inside the callback, so it can re-arm");
            assertFalse(t[0].cancel(), "a timer that ran cannot be cancelled");
        }
    }

    @Test
    void aCancelledTimerNeverRuns() throws Exception {
        try (SystemClock clock = new SystemClock("test-timer")) {
            AtomicInteger runs = new AtomicInteger();
            IbClock.Timer t = clock.schedule(runs::incrementAndGet, 1, TimeUnit.HOURS);
            assertTrue(t.isPending());
            assertTrue(t.cancel());
            assertFalse(t.isPending());
            assertFalse(t.cancel());
            CountDownLatch marker = new CountDownLatch(1);
            clock.schedule(marker::countDown, 0, TimeUnit.MILLISECONDS);
            assertTrue(marker.await(10, TimeUnit.SECONDS), "a later timer did not run");
            assertEquals(0, runs.get());
        }
    }
}
