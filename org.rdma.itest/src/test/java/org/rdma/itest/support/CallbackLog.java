package org.rdma.itest.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * An ordered, thread-safe record of callbacks as strings (e.g. {@code add C1 itA_0}), with
 * waits that block on the log's monitor until enough entries arrived, bounded by a timeout.
 */
public final class CallbackLog {
    private final List<String> entries = new ArrayList<>();

    /** Appends an entry and wakes waiters. */
    public synchronized void add(String entry) {
        entries.add(entry);
        notifyAll();
    }

    /** A copy of every entry so far. */
    public synchronized List<String> entries() {
        return new ArrayList<>(entries);
    }

    /** Entries accepted by {@code filter}. */
    public synchronized List<String> entries(Predicate<String> filter) {
        List<String> l = new ArrayList<>();
        for (String e : entries) {
            if (filter.test(e)) {
                l.add(e);
            }
        }
        return l;
    }

    public synchronized int size() {
        return entries.size();
    }

    /** Removes everything. */
    public synchronized void clear() {
        entries.clear();
    }

    /** Waits until the log holds at least {@code n} entries; fails with the log on timeout. */
    public List<String> awaitSize(int n) {
        return await(n, e -> true, Poll.TIMEOUT);
    }

    /**
     * Waits until at least {@code n} entries match {@code filter}; returns every entry; fails
     * with the whole log after {@code timeout}.
     */
    public synchronized List<String> await(int n, Predicate<String> filter, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count(filter) < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for " + n
                        + " matching callbacks; log: " + entries);
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for callbacks; log: " + entries);
            }
        }
        return new ArrayList<>(entries);
    }

    private int count(Predicate<String> filter) {
        int n = 0;
        for (String e : entries) {
            if (filter.test(e)) {
                n++;
            }
        }
        return n;
    }

    @Override
    public synchronized String toString() {
        return entries.toString();
    }
}
