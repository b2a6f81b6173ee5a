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
        int per = 1;
        switch (name) {
            case "copy64k":
                writer = null;
                break;
            case "write64k":
                writer = new Writer(new Subnet(), DatapathBench.BIG, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, 1);
                break;
            case "write8":
                writer = new Writer(new Subnet(), 8, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, 1);
                break;
            case "write8list":
                writer = new Writer(new Subnet(), 8, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, DatapathBench.POST_LIST);
                per = DatapathBench.POST_LIST;
                break;
            case "transport64k":
                writer = new Writer(new Wire(), DatapathBench.BIG, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, 1);
                break;
            case "transport8list":
                writer = new Writer(new Wire(), 8, DatapathBench.DEPTH, DatapathBench.SIGNAL_EVERY, DatapathBench.POST_LIST);
                per = DatapathBench.POST_LIST;
                break;
            default:
                throw new IllegalArgumentException("no workload " + name + "; one of " + String.join(", ", NAMES));
        }
        messagesPerOp = per;
        if (writer != null) {
            op = writer::next;
        } else {
            ByteBuffer src = ByteBuffer.allocateDirect(DatapathBench.BIG);
            ByteBuffer dst = ByteBuffer.allocateDirect(DatapathBench.BIG);
            op = () -> dst.put(0, src, 0, DatapathBench.BIG);
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
            writer.drain();
            writer.verify();
            writer.close();
        }
    }
}
