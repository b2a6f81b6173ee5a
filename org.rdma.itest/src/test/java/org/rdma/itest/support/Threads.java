package org.rdma.itest.support;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Looks at the threads of the JVM: the core's ({@code rdma-*}) and stack dumps for messages. */
public final class Threads {
    /** The prefix of the threads the core starts. */
    public static final String CORE_PREFIX = "rdma-";

    private Threads() {
    }

    /** Live threads whose name starts with {@link #CORE_PREFIX}. */
    public static Set<Thread> core() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(CORE_PREFIX))
                .collect(Collectors.toSet());
    }

    /** Names of threads, sorted. */
    public static Set<String> names(Set<Thread> threads) {
        return threads.stream().map(Thread::getName).collect(Collectors.toCollection(TreeSet::new));
    }

    /** One thread's stack, for failure messages. */
    public static String stackOf(Thread t) {
        return t.getName() + " " + t.getState() + "\n    at "
                + Arrays.stream(t.getStackTrace()).map(String::valueOf).collect(Collectors.joining("\n    at "));
    }

    /** Every thread's stack, for failure messages (deadlocks). */
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
