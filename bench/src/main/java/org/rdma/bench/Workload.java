package org.rdma.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;

/**
 * One datapath benchmark as a plain loop, for {@link Compare}: the same writers as
 * {@link DatapathBench} and {@link LayerBench}, timed by the CPU time of the thread that runs them.
 * The datapath runs on the posting thread, so that time is all of its work; unlike wall time it
 * does not count the moments another process had the core.
 */
public final class Workload implements AutoCloseable {
    /** The workloads by name. */
    static final String[] NAMES = {"copy64k", "write64k", "write8", "write8list", "transport64k", "transport8list"};

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Runnable op;
    private final int messagesPerOp;
    private final Writer writer;

    /**
     * The workload {@code name} (one of {@link #NAMES}).
     *
     * @param name the workload
     */
    public Workload(String name) {
        writer = name.equals("copy64k") ? null : writer(name);
        if (writer != null) {
            messagesPerOp = writer.postList;
            op = writer::next;
        } else {
            messagesPerOp = 1;
            ByteBuffer src = ByteBuffer.allocateDirect(DatapathBench.BIG);
            ByteBuffer dst = ByteBuffer.allocateDirect(DatapathBench.BIG);
            op = () -> dst.put(0, src, 0, DatapathBench.BIG);
        }
    }

    /**
     * The connected writer of workload {@code name}: the one place that says what each datapath
     * benchmark posts, for {@link DatapathBench}, {@link LayerBench} and this class. Only
     * constructors are called, so that {@link Compare} can run it against a jar built before it.
     *
     * @param name a workload of {@link #NAMES} other than {@code copy64k}
     * @return its writer, connected
     */
    static Writer writer(String name) {
        switch (name) {
            case "write64k":
                return new Writer(new Subnet(), DatapathBench.BIG, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, 1);
            case "write8":
                return new Writer(new Subnet(), 8, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, 1);
            case "write8list":
                return new Writer(new Subnet(), 8, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, DatapathBench.POST_LIST);
            case "transport64k":
                return new Writer(new Wire(), DatapathBench.BIG, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, 1);
            case "transport8list":
                return new Writer(new Wire(), 8, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, DatapathBench.POST_LIST);
            default:
                throw new IllegalArgumentException("no workload " + name + "; one of " + String.join(", ", NAMES));
        }
    }

    /**
     * Runs the workload for about {@code nanos} of wall time.
     *
     * @param nanos how long
     * @return thread CPU nanoseconds per message (per copy for {@code copy64k})
     */
    public double run(long nanos) {
        long n = 0;
        long cpu = THREADS.getCurrentThreadCpuTime();
        long end = System.nanoTime() + nanos;
        do {
            for (int i = 0; i < 100; i++) {
                op.run();
            }
            n += 100;
        } while (System.nanoTime() < end);
        return (THREADS.getCurrentThreadCpuTime() - cpu) / (double) (n * messagesPerOp);
    }

    /** Waits for what is in flight, checks the destination and closes the pair. */
    @Override
    public void close() {
        if (writer != null) {
            DatapathBench.finish(writer);
        }
    }
}
