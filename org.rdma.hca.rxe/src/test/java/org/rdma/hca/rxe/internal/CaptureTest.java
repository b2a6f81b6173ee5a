package org.rdma.hca.rxe.internal;

import org.rdma.rvt.testkit.Ops;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.verbs.wire.Icrc;
import org.rdma.rvt.testkit.Peers;

/**
 * The test's own traffic captured on {@code lo} with tshark: every datagram decodes as RRoCE
 * (InfiniBand over UDP, "decode as" on the test ports) without malformed packets, the ICRC of every
 * IPv6 packet verifies against the headers the kernel really wrote, and the ICRC of every IPv4
 * packet verifies once its Identification is taken as 0 (the driver's documented convention).
 * Needs tshark and the right to capture on lo ({@link Peers}).
 */
class CaptureTest {
    @TempDir
    Path dir;

    @Test
    void trafficDecodesAsRroceAndIpv6IcrcsVerifyOnTheWire() throws Exception {
        Peers.requireTshark();
        try (Pair pair = new Pair()) {
            Path f = dir.resolve("rxe.pcap");
            String filter = "udp port " + pair.portA + " or udp port " + pair.portB;
            Process cap = new ProcessBuilder("tshark", "-n", "-i", "lo", "-f", filter, "-F", "pcap", "-w", f.toString())
                    .redirectErrorStream(true).start();
            CountDownLatch started = new CountDownLatch(1);
            StringBuilder log = new StringBuilder();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(cap.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        synchronized (log) {
                            log.append(line).append('\n');
                        }
                        if (line.contains("Capture started") || line.contains("File: ")) {
                            started.countDown();
                        }
                    }
                } catch (java.io.IOException ignored) {
                    // process gone
                }
                started.countDown();
            });
            reader.setDaemon(true);
            reader.start();
            try {
                boolean ok = started.await(20, TimeUnit.SECONDS) && cap.isAlive();
                Peers.require(ok, "tshark cannot capture on lo: " + log);
                Ops v4 = pair.ops("127.0.0.1", "127.0.0.1");
                assertEquals(8, v4.rc(false));
                assertEquals(1, v4.ud());
                Ops v6 = pair.ops("::1", "::1");
                assertEquals(8, v6.rc(false));
                assertEquals(1, v6.ud());
                long sent = pair.da.txPackets() + pair.db.txPackets();
                // bounded: until the capture file holds every datagram the devices sent
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (readPcapQuietly(f) < sent && System.nanoTime() - deadline < 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
                }
            } finally {
                stop(cap);
            }
            List<byte[]> frames = readPcap(f);
            int v4 = 0;
            int v6 = 0;
            int v4IdZero = 0;
            for (byte[] fr : frames) {
                int type = (fr[12] & 0xFF) << 8 | fr[13] & 0xFF;
                int l4 = 14 + (type == 0x86DD ? 40 : 20);
                int sport = (fr[l4] & 0xFF) << 8 | fr[l4 + 1] & 0xFF;
                assertTrue(sport >= 0xC000, "UDP source port 0xC000 | hash(QPN): " + sport);
                if (type == 0x86DD) {
                    int plen = (fr[18] & 0xFF) << 8 | fr[19] & 0xFF;
                    assertTrue(Icrc.verifyRoceV2(fr, 14, 40 + plen), "IPv6 ICRC verifies, frame " + v6);
                    v6++;
                } else if (type == 0x0800) {
                    int tot = (fr[16] & 0xFF) << 8 | fr[17] & 0xFF;
                    if (fr[18] == 0 && fr[19] == 0) {
                        v4IdZero++;
                    }
                    byte[] c = fr.clone();
                    c[18] = 0;
                    c[19] = 0;
                    assertTrue(Icrc.verifyRoceV2(c, 14, tot), "IPv4 ICRC verifies with Identification 0");
                    v4++;
                }
            }
            assertTrue(v4 > 0 && v6 > 0, "captured IPv4 " + v4 + " and IPv6 " + v6 + " datagrams; tshark said: " + log);
            System.out.printf("rxe capture: %d IPv4 (%d with Identification 0 on the wire), %d IPv6 datagrams%n",
                    v4, v4IdZero, v6);
            String decodeA = "udp.port==" + pair.portA + ",infiniband";
            String decodeB = "udp.port==" + pair.portB + ",infiniband";
            String bad = run(List.of("tshark", "-n", "-r", f.toString(), "-d", decodeA, "-d", decodeB,
                    "-Y", "_ws.malformed || _ws.expert.severity >= error"));
            assertEquals("", bad.trim(), "no malformed packets");
            String protos = run(List.of("tshark", "-n", "-r", f.toString(), "-d", decodeA, "-d", decodeB,
                    "-T", "fields", "-e", "_ws.col.Protocol"));
            String[] lines = protos.trim().split("\n");
            assertEquals(frames.size(), lines.length);
            for (String l : lines) {
                assertEquals("RRoCE", l.trim(), "every datagram decodes as RRoCE");
            }
        }
    }

    /** Stops tshark as Ctrl-C does (SIGINT to the process this test started), so it writes out its capture. */
    static void stop(Process cap) throws InterruptedException {
        if (cap.isAlive()) {
            run(List.of("kill", "-INT", Long.toString(cap.pid())));
        }
        if (!cap.waitFor(20, TimeUnit.SECONDS)) {
            cap.destroyForcibly();
            throw new AssertionError("tshark did not stop on SIGINT within 20 s");
        }
    }

    /** Frames in a capture file being written, 0 if not readable yet. */
    static int readPcapQuietly(Path f) {
        try {
            return Files.size(f) < 24 ? 0 : readPcap(f).size();
        } catch (java.io.IOException | RuntimeException | AssertionError e) {
            return 0;
        }
    }

    /** Frames of a classic pcap file (a truncated last record is ignored). */
    static List<byte[]> readPcap(Path f) throws java.io.IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f));
        int magic = b.getInt(0);
        b.order(magic == 0xa1b2c3d4 || magic == 0xa1b23c4d ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, b.getInt(20), "lo captures with LINKTYPE_ETHERNET");
        List<byte[]> out = new ArrayList<>();
        int at = 24;
        while (at + 16 <= b.limit()) {
            int incl = b.getInt(at + 8);
            if (at + 16 + incl > b.limit()) {
                break;
            }
            byte[] fr = new byte[incl];
            b.get(at + 16, fr);
            out.add(fr);
            at += 16 + incl;
        }
        return out;
    }

    /** Runs a command (bounded), returning stdout, or null if it cannot run. */
    static String run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (java.io.IOException | InterruptedException e) {
            return null;
        }
    }
}
