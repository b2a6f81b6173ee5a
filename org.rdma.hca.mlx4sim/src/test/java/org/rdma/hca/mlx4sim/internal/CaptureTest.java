package org.rdma.hca.mlx4sim.internal;

import org.rdma.rvt.testkit.Ops;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.fabric.Capture;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Vcrc;
import org.rdma.rvt.testkit.Peers;

/** Captures of IB (SMPs and RC data) and RoCEv2 traffic, checked by our CRC code and by tshark. */
class CaptureTest {
    @TempDir
    Path dir;

    /** The frames of a pcap file (LINKTYPE_ERF: the ERF header stripped). */
    static List<byte[]> frames(Path f) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        if (magic != 0xa1b2c3d4) {
            b.order(ByteOrder.BIG_ENDIAN);
        }
        int linkType = b.getInt(20);
        List<byte[]> out = new ArrayList<>();
        int at = 24;
        while (at + 16 <= b.limit()) {
            int incl = b.getInt(at + 8);
            byte[] rec = new byte[incl];
            b.get(at + 16, rec);
            at += 16 + incl;
            if (linkType == 197) {
                int erfType = rec[8] & 0x7F;
                assertEquals(21, erfType, "ERF type InfiniBand");
                byte[] ib = new byte[rec.length - 16];
                System.arraycopy(rec, 16, ib, 0, ib.length);
                out.add(ib);
            } else {
                out.add(rec);
            }
        }
        return out;
    }

    static int tsharkMalformed(Path f) throws Exception {
        Process p = new ProcessBuilder("tshark", "-n", "-r", f.toString(), "-Y", "_ws.malformed || _ws.expert.severity >= error")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.isBlank() ? 0 : out.split("\n").length;
    }

    static int tsharkCount(Path f, String filter) throws Exception {
        Process p = new ProcessBuilder("tshark", "-n", "-r", f.toString(), "-Y", filter).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return out.isBlank() ? 0 : out.split("\n").length;
    }

    @Test
    void ibCaptureOfSmpsAndRcDataHasGoodCrcsAndDecodes() throws Exception {
        IbSubnetTest t = new IbSubnetTest();
        t.setUp();
        Path f = dir.resolve("ib.pcap");
        try (Capture c = t.db.fabricPort(1).link().capture(f)) {
            t.bringUp();
            new Ops(t.ha, t.hb, Ops.virtualTime(t.clock), () -> IbSubnetTest.ib(IbSubnetTest.LID_B),
                    () -> IbSubnetTest.ib(IbSubnetTest.LID_A), Mtu.MTU_2048).rc(false);
        } finally {
            t.tearDown();
        }
        List<byte[]> fs = frames(f);
        assertTrue(fs.size() > 20, "captured " + fs.size());
        int vl15 = 0;
        for (byte[] fr : fs) {
            assertTrue(Vcrc.verify(fr, 0, fr.length), "VCRC");
            if ((fr[1] & 2) != 0) {
                assertTrue(Icrc.verifyIb(fr, 0, fr.length - Vcrc.VCRC_BYTES), "ICRC");
            }
            if ((fr[0] & 0xF0) == 0xF0) {
                vl15++;
            }
        }
        assertTrue(vl15 >= 8, "SMPs on VL15: " + vl15);
        Peers.requireTshark();
        assertEquals(0, tsharkMalformed(f), "malformed in " + f);
        Files.copy(f, Path.of("target", f.getFileName().toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(tsharkCount(f, "infiniband.bth.opcode == 100") >= 8, "UD SEND_ONLY SMPs decoded");
        assertTrue(tsharkCount(f, "infiniband.bth.opcode == 0 || infiniband.bth.opcode == 4") >= 1, "RC sends decoded");
    }

    @Test
    void roceCaptureHasGoodIcrcsAndDecodes() throws Exception {
        RoceTest t = new RoceTest();
        t.start(-1);
        Path f = dir.resolve("roce.pcap");
        try (Capture c = t.da.fabricPort(1).link().capture(f)) {
            Ops ops = new Ops(t.ha, t.hb, Ops.virtualTime(t.clock), () -> RoceTest.roceAv(t.ha, "192.168.7.2"),
                    () -> RoceTest.roceAv(t.hb, "192.168.7.1"), Mtu.MTU_1024);
            ops.rc(false);
            ops.ud();
        } finally {
            t.tearDown();
        }
        int roce = 0;
        for (byte[] fr : frames(f)) {
            int type = (fr[12] & 0xFF) << 8 | fr[13] & 0xFF;
            if (type == 0x0800 && fr[23] == 17 && ((fr[36] & 0xFF) << 8 | fr[37] & 0xFF) == 4791) {
                int ipLen = (fr[16] & 0xFF) << 8 | fr[17] & 0xFF;
                assertTrue(Icrc.verifyRoceV2(fr, 14, ipLen), "RoCEv2 ICRC");
                roce++;
            }
        }
        assertTrue(roce >= 10, "RoCE frames " + roce);
        Peers.requireTshark();
        assertEquals(0, tsharkMalformed(f), "malformed in " + f);
        Files.copy(f, Path.of("target", f.getFileName().toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(tsharkCount(f, "infiniband.bth") >= 10);
        assertTrue(tsharkCount(f, "arp") >= 2, "ARP request and reply");
    }
}
