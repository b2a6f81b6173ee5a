package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rdma.verbs.wire.Icrc;
import org.rdma.rvt.testkit.Peers;

/**
 * A tshark capture on {@code lo} (or another interface) into a pcap file, and the checks a capture of rxe traffic must
 * pass: every frame decodes as RRoCE (port 4791 natively, other ports through "decode as"), no
 * malformed packet, every IPv6 ICRC verifies against the headers the kernel wrote, every IPv4
 * ICRC with the Identification taken as 0 (the driver's convention). {@link #start} skips the
 * test when tshark is missing or may not capture; {@link #close} stops tshark in any case.
 */
final class LoCapture implements AutoCloseable {
    private final Process tshark;
    private final Path file;
    private final StringBuilder log = new StringBuilder();

    private LoCapture(Process tshark, Path file) {
        this.tshark = tshark;
        this.file = file;
    }

    /** Starts capturing {@code filter} on lo into {@code file}; returns once tshark says it captures. */
    static LoCapture start(Path file, String filter) throws IOException, InterruptedException {
        return start("lo", file, filter);
    }

    /** The same on the Ethernet interface {@code iface}. */
    static LoCapture start(String iface, Path file, String filter) throws IOException, InterruptedException {
        Peers.requireTshark();
        Process p = new ProcessBuilder("tshark", "-n", "-i", iface, "-f", filter, "-F", "pcap", "-w", file.toString())
                .redirectErrorStream(true).start();
        LoCapture c = new LoCapture(p, file);
        CountDownLatch started = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (c.log) {
                        c.log.append(line).append('\n');
                    }
                    if (line.contains("Capturing on") || line.contains("Capture started") || line.contains("File: ")) {
                        started.countDown();
                    }
                }
            } catch (IOException ignored) {
                // tshark is gone
            }
            started.countDown();
        }, "tshark-output");
        reader.setDaemon(true);
        reader.start();
        boolean ok = started.await(20, TimeUnit.SECONDS) && p.isAlive();
        if (!ok) {
            c.close();
        }
        Peers.require(ok, "tshark cannot capture on " + iface + ": " + c.log());
        return c;
    }

    String log() {
        synchronized (log) {
            return log.toString();
        }
    }

    /** Waits (bounded) until the file holds at least {@code frames} frames. */
    void awaitFrames(long frames, long ms) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (CaptureTest.readPcapQuietly(file) < frames && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(20_000_000);
        }
    }

    /** Stops tshark as Ctrl-C does and returns the captured frames. */
    List<byte[]> stop() throws IOException, InterruptedException {
        CaptureTest.stop(tshark);
        return CaptureTest.readPcap(file);
    }

    /**
     * Checks the capture (after {@link #stop}): each frame RRoCE, none malformed, ICRCs as
     * described above. {@code ports} are decoded as InfiniBand as well as 4791. Returns
     * {IPv4 frames, IPv6 frames}.
     */
    int[] verify(List<byte[]> frames, int... ports) {
        int v4 = 0;
        int v6 = 0;
        for (byte[] fr : frames) {
            int type = (fr[12] & 0xFF) << 8 | fr[13] & 0xFF;
            if (type == 0x86DD) {
                int plen = (fr[18] & 0xFF) << 8 | fr[19] & 0xFF;
                assertTrue(Icrc.verifyRoceV2(fr, 14, 40 + plen), "IPv6 ICRC verifies, frame " + (v4 + v6));
                v6++;
            } else {
                assertEquals(0x0800, type, "IPv4 or IPv6");
                int tot = (fr[16] & 0xFF) << 8 | fr[17] & 0xFF;
                byte[] c = fr.clone();
                c[18] = 0;
                c[19] = 0;
                assertTrue(Icrc.verifyRoceV2(c, 14, tot), "IPv4 ICRC verifies with Identification 0, frame " + (v4 + v6));
                v4++;
            }
        }
        verifyDecodes(frames, ports);
        return new int[] {v4, v6};
    }

    /** Checks the capture's decoding only: each frame RRoCE, none malformed; {@code ports} as in {@link #verify}. */
    void verifyDecodes(List<byte[]> frames, int... ports) {
        List<String> read = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString()));
        for (int port : ports) {
            if (port != RxeWire.ROCE_V2_PORT) {
                read.add("-d");
                read.add("udp.port==" + port + ",infiniband");
            }
        }
        List<String> malformed = new ArrayList<>(read);
        malformed.addAll(List.of("-Y", "_ws.malformed || _ws.expert.severity >= error"));
        assertEquals("", CaptureTest.run(malformed).trim(), "no malformed packets");
        List<String> protocols = new ArrayList<>(read);
        protocols.addAll(List.of("-T", "fields", "-e", "_ws.col.Protocol"));
        String protos = CaptureTest.run(protocols);
        List<String> lines = List.of(protos.trim().split("\n"));
        assertEquals(frames.size(), lines.size());
        for (String l : lines) {
            assertEquals("RRoCE", l.trim(), "every datagram decodes as RRoCE");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (tshark.isAlive()) {
            tshark.destroyForcibly();
            tshark.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
