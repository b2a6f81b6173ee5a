package org.rdma.hca.mlx4sim.itest.support;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Looks at the live threads of the JVM by name, and dumps stacks for failure messages. */
public final class Threads {
    private Threads() {
    }

    /** Names of live threads whose name contains any of {@code parts}, sorted. */
    public static Set<String> named(String... parts) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> Arrays.stream(parts).anyMatch(n::contains))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The stacks of the threads whose name contains {@code part}, for failure messages. */
    public static String stacks(String part) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().contains(part)) {
                sb.append(e.getKey().getName()).append(' ').append(e.getKey().getState()).append('\n');
                for (StackTraceElement s : e.getValue()) {
                    sb.append("    at ").append(s).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** Every thread's stack, for failure messages (deadlocks, hangs). */
    public static String dump() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            sb.append(e.getKey().getName()).append(' ').append(e.getKey().getState()).append('\n');
            for (StackTraceElement s : e.getValue()) {
                sb.append("    at ").append(s).append('\n');
            }
        }
        return sb.toString();
    }
}
