package org.rdma.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * rxe over real UDP on {@code lo} against the JDK's own datagrams (issue 7, acceptance 5). Both
 * rxe devices live in this JVM (two JVMs do not fit JMH's fork model), each on its own UDP port of
 * 127.0.0.1, so every packet crosses the kernel's loopback as on two hosts.
 * <ul>
 * <li>{@link #write1m}: RC RDMA WRITE of 1 MiB messages, path MTU the port's (4096 on {@code lo}),
 * {@value #BIG_DEPTH} posted, each signalled; one op is one 1 MiB message. Like perftest's
 * {@code -e}, a full send queue waits for a completion event rather than spinning on the CQ: on
 * two cores a spinning poller would take one of them from the devices' threads.</li>
 * <li>{@link #blast1m}: the baseline, a raw {@link DatagramChannel} blast over 127.0.0.1 of
 * datagrams the size of rxe's middle WRITE packets ({@value #DATAGRAM} bytes: BTH, one path MTU
 * of payload, ICRC) from the benchmark thread to a second channel drained by a thread of its own
 * (two ends, as the two devices are), at most {@value #WINDOW} in flight; one op is 1 MiB of
 * payload ({@value #DATAGRAMS_PER_MIB} datagrams).</li>
 * <li>{@link #write8}: 8-byte RC WRITEs, {@value #SMALL_DEPTH} posted, every
 * {@value #SMALL_SIGNAL}-th signalled (message rate).</li>
 * </ul>
 * {@link #main} runs the three and prints WRITE 1 MiB against the blast with the {@value #TARGET}
 * target, and the 8-byte message rate.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
public class RxeWriteBench {
    /** The 1 MiB message. */
    public static final int MIB = 1 << 20;
    /** Path MTU payload per packet on {@code lo}. */
    public static final int PAYLOAD = 4096;
    /** UDP payload of a middle WRITE packet: BTH (12) + payload + ICRC (4). */
    public static final int DATAGRAM = 12 + PAYLOAD + 4;
    /** Datagrams carrying 1 MiB of payload. */
    public static final int DATAGRAMS_PER_MIB = MIB / PAYLOAD;
    /** Datagrams in flight in the blast (fits the receive buffer). */
    public static final int WINDOW = 64;
    /** 1 MiB WRITEs posted at a time. */
    public static final int BIG_DEPTH = 8;
    /** 8-byte WRITEs posted at a time (perftest's default TX depth). */
    public static final int SMALL_DEPTH = 128;
    /** Every this many 8-byte WRITEs one is signalled. */
    public static final int SMALL_SIGNAL = 32;
    /** WRITE 1 MiB throughput over the datagram blast's, as the issue asks. */
    public static final double TARGET = 0.7;

    /** A connected writer of 1 MiB WRITEs. */
    @State(Scope.Thread)
    public static class Big {
        RxeWriter writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = new RxeWriter(MIB, BIG_DEPTH, 1);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            finish(writer);
        }
    }

    /** A connected writer of 8-byte WRITEs. */
    @State(Scope.Thread)
    public static class Small {
        RxeWriter writer;

        @Setup(Level.Trial)
        public void setUp() {
            writer = new RxeWriter(8, SMALL_DEPTH, SMALL_SIGNAL);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            finish(writer);
        }
    }

    /**
     * Two datagram channels on 127.0.0.1, the sender connected to the receiver, and a receiving
     * thread: like the two rxe devices, the two ends run on threads of their own, so the baseline
     * pays what any two-endpoint exchange on this host pays (a wake-up when the receiver has
     * drained its socket, cache lines crossing cores) and nothing more.
     */
    @State(Scope.Thread)
    public static class Blast {
        DatagramChannel tx;
        DatagramChannel rx;
        final ByteBuffer out = ByteBuffer.allocateDirect(DATAGRAM);
        final AtomicLong received = new AtomicLong();
        final AtomicLong receivedBytes = new AtomicLong();
        long sent;
        Thread receiver;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            rx = DatagramChannel.open(StandardProtocolFamily.INET);
            rx.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            rx.bind(new InetSocketAddress("127.0.0.1", 0));
            tx = DatagramChannel.open(StandardProtocolFamily.INET);
            tx.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            tx.bind(new InetSocketAddress("127.0.0.1", 0));
            tx.connect(rx.getLocalAddress());
            rx.connect(tx.getLocalAddress());
            for (int i = 0; i < DATAGRAM; i++) {
                out.put(i, (byte) (i * 31 + 7));
            }
            receiver = new Thread(this::receive, "blast-receiver");
            receiver.setDaemon(true);
            receiver.start();
        }

        private void receive() {
            ByteBuffer in = ByteBuffer.allocateDirect(DATAGRAM + 64);
            try {
                while (true) {
                    in.clear();
                    int n = rx.read(in);
                    receivedBytes.addAndGet(n);
                    received.incrementAndGet();
                }
            } catch (IOException closed) {
                // tear-down
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException, InterruptedException {
            tx.close();
            rx.close();
            receiver.join(10_000);
            if (receivedBytes.get() != received.get() * DATAGRAM) {
                throw new IllegalStateException("short datagrams: " + receivedBytes.get() + " bytes in "
                        + received.get());
            }
        }
    }

    static void finish(RxeWriter w) {
        try {
            w.drain();
            w.verify();
        } finally {
            w.close();
        }
    }

    @Benchmark
    public void write1m(Big s) {
        s.writer.next();
    }

    @Benchmark
    public void write8(Small s) {
        s.writer.next();
    }

    /**
     * 1 MiB of payload as {@value #DATAGRAMS_PER_MIB} datagrams from one channel to the other, at
     * most {@value #WINDOW} unreceived at a time (no datagram is lost to a full receive buffer).
     */
    @Benchmark
    public long blast1m(Blast b) throws IOException {
        for (int i = 0; i < DATAGRAMS_PER_MIB; i++) {
            while (b.sent - b.received.get() >= WINDOW) {
                Thread.yield();
            }
            b.out.clear();
            if (b.tx.write(b.out) != DATAGRAM) {
                throw new IllegalStateException("short datagram");
            }
            b.sent++;
        }
        return b.sent;
    }

    /** Runs the three (JMH options on the command line win) and prints the ratio and the message rate. */
    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        OptionsBuilder b = Bench.defaults(cli, 3);
        b.include(RxeWriteBench.class.getName() + ".");
        Collection<RunResult> results = new Runner(b.parent(cli).build()).run();
        Map<String, Double> ops = new HashMap<>();
        for (RunResult r : results) {
            String label = r.getParams().getBenchmark();
            ops.put(label.substring(label.lastIndexOf('.') + 1), r.getPrimaryResult().getScore());
        }
        double write = ops.getOrDefault("write1m", Double.NaN);
        double blast = ops.getOrDefault("blast1m", Double.NaN);
        double ratio = write / blast;
        System.out.println();
        System.out.println("rxe on lo (two devices in one JVM, UDP over 127.0.0.1), path MTU " + PAYLOAD);
        String fmt = "%-70s %14s%n";
        System.out.printf(Locale.ROOT, fmt, "RC RDMA WRITE 1 MiB, depth " + BIG_DEPTH + " (MiB/s)",
                String.format(Locale.ROOT, "%.1f", write));
        System.out.printf(Locale.ROOT, fmt, "raw DatagramChannel blast, " + DATAGRAM + "-byte datagrams (MiB/s of payload)",
                String.format(Locale.ROOT, "%.1f", blast));
        System.out.printf(Locale.ROOT, fmt, "ratio (target >= " + TARGET + ")",
                String.format(Locale.ROOT, "%.2f %s", ratio, ratio >= TARGET ? "met" : "NOT met"));
        System.out.printf(Locale.ROOT, fmt, "RC RDMA WRITE 8 B message rate, depth " + SMALL_DEPTH + " (msg/s)",
                String.format(Locale.ROOT, "%.0f", ops.getOrDefault("write8", Double.NaN)));
    }
}
