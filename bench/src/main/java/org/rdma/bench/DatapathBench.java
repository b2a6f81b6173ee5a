package org.rdma.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The datapath benchmarks, all in operations per second, one operation being one message (or one
 * copy):
 * <ul>
 * <li>{@link #copy64k}: the baseline, a single-thread bulk {@code put} of 64 KiB between two
 * direct ByteBuffers (what the responder's one copy per packet is made of);</li>
 * <li>{@link #write64k}: RC RDMA WRITE of 64 KiB between two mlx4sim HCAs across the switch, path
 * MTU 4096, send queue depth 128, every 32nd signalled;</li>
 * <li>{@link #write8}: the same with 8-byte WRITEs (message rate);</li>
 * <li>{@link #write8list}: 8-byte WRITEs posted in lists of {@link #POST_LIST} (perftest's
 * {@code --post_list}). The fabric delivers inside the post, so a single post drains the send
 * queue and its WRITE asks for an ACK; a list shares one.</li>
 * </ul>
 * Run with {@code -prof gc} for the bytes allocated per operation ({@code gc.alloc.rate.norm}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
public class DatapathBench {
    /** Bytes of the large WRITE and of the baseline copy. */
    public static final int BIG = 64 * 1024;
    /** Send queue depth (perftest's default TX depth for bandwidth tests). */
    public static final int DEPTH = 128;
    /** Every this many WRITEs one is signalled. */
    public static final int SIGNAL_EVERY = 32;
    /**
     * Forks of each whole-path benchmark. The host's speed moves by up to 1.5x from one minute to
     * the next (and the JIT may settle a JVM into a slower or faster compilation of the long
     * synchronous call chain); one fork is one stretch of that, three show its spread.
     */
    public static final int WHOLE_PATH_FORKS = 3;
    /** WRITEs per post of {@link #write8list} (perftest's {@code --post_list}). */
    public static final int POST_LIST = 16;

    /** Two direct buffers of 64 KiB. */
    @State(Scope.Thread)
    public static class Copy {
        ByteBuffer src;
        ByteBuffer dst;

        @Setup
        public void setUp() {
            src = ByteBuffer.allocateDirect(BIG);
            dst = ByteBuffer.allocateDirect(BIG);
            for (int i = 0; i < BIG; i++) {
                src.put(i, (byte) i);
            }
        }
    }

    /** A connected writer of 64 KiB WRITEs. */
    @State(Scope.Thread)
    public static class Big {
        Writer writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = Workload.writer("write64k");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            finish(writer);
        }
    }

    /** A connected writer of 8-byte WRITEs. */
    @State(Scope.Thread)
    public static class Small {
        Writer writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = Workload.writer("write8");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            finish(writer);
        }
    }

    /** A connected writer of 8-byte WRITEs posted in lists of {@link #POST_LIST}. */
    @State(Scope.Thread)
    public static class SmallList {
        Writer writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = Workload.writer("write8list");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            finish(writer);
        }
    }

    static void finish(Writer w) {
        try {
            w.drain();
            w.verify();
        } finally {
            w.close();
        }
    }

    @Benchmark
    public ByteBuffer copy64k(Copy c) {
        return c.dst.put(0, c.src, 0, BIG);
    }

    @Benchmark
    @Fork(WHOLE_PATH_FORKS)
    public void write64k(Big s) {
        s.writer.next();
    }

    @Benchmark
    @Fork(WHOLE_PATH_FORKS)
    public void write8(Small s) {
        s.writer.next();
    }

    @Benchmark
    @OperationsPerInvocation(POST_LIST)
    @Fork(WHOLE_PATH_FORKS)
    public void write8list(SmallList s) {
        s.writer.next();
    }
}
