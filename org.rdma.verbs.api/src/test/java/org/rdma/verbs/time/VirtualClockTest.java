package org.rdma.verbs.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class VirtualClockTest {
    @Test
    void timersRunInDeadlineOrderOnlyWhenTimeAdvances() {
        VirtualClock clock = new VirtualClock();
        List<String> ran = new ArrayList<>();
        clock.schedule(() -> ran.add("b"), 20, TimeUnit.MILLISECONDS);
        clock.schedule(() -> ran.add("a"), 10, TimeUnit.MILLISECONDS);
        clock.schedule(() -> ran.add("c"), 20, TimeUnit.MILLISECONDS);
        assertEquals(List.of(), ran);
        assertEquals(1, clock.advance(15, TimeUnit.MILLISECONDS));
        assertEquals(List.of("a"), ran);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(15), clock.nanoTime());
        assertEquals(2, clock.advance(5, TimeUnit.MILLISECONDS));
        assertEquals(List.of("a", "b", "c"), ran);
    }

    @Test
    void aTimerArmedByATimerRunsWithinTheSameAdvance() {
        VirtualClock clock = new VirtualClock();
        List<Long> at = new ArrayList<>();
        Runnable[] retry = new Runnable[1];
        retry[0] = () -> {
            at.add(clock.nanoTime());
            if (at.size() < 3) {
                clock.schedule(retry[0], 1, TimeUnit.SECONDS);
            }
        };
        clock.schedule(retry[0], 1, TimeUnit.SECONDS);
        assertEquals(3, clock.advance(10, TimeUnit.SECONDS));
        assertEquals(List.of(1_000_000_000L, 2_000_000_000L, 3_000_000_000L), at);
        assertEquals(10_000_000_000L, clock.nanoTime());
    }

    @Test
    void cancelledTimersNeverRun() {
        VirtualClock clock = new VirtualClock();
        boolean[] ran = {false};
        IbClock.Timer t = clock.schedule(() -> ran[0] = true, 1, TimeUnit.SECONDS);
        assertTrue(t.isPending());
        assertTrue(t.cancel());
        assertFalse(t.cancel());
        assertFalse(t.isPending());
        assertEquals(0, clock.runAll());
        assertFalse(ran[0]);
        assertEquals(-1, clock.nextDeadline());
    }

    @Test
    void cancelledTimersAreNotCountedAndNeverHideTheNextOne() {
        VirtualClock clock = new VirtualClock();
        List<Integer> ran = new ArrayList<>();
        List<IbClock.Timer> early = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            early.add(clock.schedule(() -> ran.add(-1), 1, TimeUnit.MILLISECONDS));
        }
        IbClock.Timer kept = clock.schedule(() -> ran.add(2), 2, TimeUnit.MILLISECONDS);
        assertEquals(501, clock.pending());
        for (IbClock.Timer t : early) {
            assertTrue(t.cancel());
        }
        assertEquals(1, clock.pending(), "cancelled timers are not pending, swept from the queue or not");
        assertEquals(TimeUnit.MILLISECONDS.toNanos(2), clock.nextDeadline(), "the next deadline skips cancelled ones");
        IbClock.Timer late = clock.schedule(() -> ran.add(3), 3, TimeUnit.MILLISECONDS);
        assertTrue(late.cancel());
        assertEquals(1, clock.pending());
        assertEquals(1, clock.runAll());
        assertEquals(List.of(2), ran);
        assertFalse(kept.isPending());
        assertFalse(kept.cancel(), "a timer that ran cannot be cancelled");
        assertEquals(0, clock.pending());
        assertEquals(-1, clock.nextDeadline());
    }
}
