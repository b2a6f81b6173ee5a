package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.Grh;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.Vcrc;
import org.rdma.rvt.testkit.Peers;

/**
 * Captures: pcap files of LINKTYPE_ERF with ERF type 21 records for InfiniBand links (as ibdump
 * writes them) and LINKTYPE_ETHERNET for RoCE; the CRCs of every captured frame are verified here
 * (tshark shows but never checks them), and tshark decodes the files without a malformed packet.
 */
class CaptureTest {
    static final Path DIR = Path.of("target", "captures");

    /** One pcap record: the ERF header fields (for ERF files) and the frame. */
    record Rec(int type, int flags, int rlen, int wlen, byte[] frame) {
    }

    @BeforeAll
    static void dir() throws IOException {
        Files.createDirectories(DIR);
    }

    static List<Rec> read(Path file, int expectLinkType) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xA1B2C3D4, b.getInt());
        assertEquals(2, b.getShort());
        assertEquals(4, b.getShort());
        b.getInt();
        b.getInt();
        assertEquals(65535, b.getInt());
        assertEquals(expectLinkType, b.getInt());
        List<Rec> out = new ArrayList<>();
        while (b.hasRemaining()) {
            b.getInt();
            b.getInt();
            int incl = b.getInt();
            assertEquals(incl, b.getInt());
            byte[] rec = new byte[incl];
            b.get(rec);
            if (expectLinkType == 197) {
                ByteBuffer e = ByteBuffer.wrap(rec);
                e.getLong();
                int type = e.get() & 0xFF;
                int flags = e.get() & 0xFF;
                int rlen = e.getShort() & 0xFFFF;
                e.getShort();
                int wlen = e.getShort() & 0xFFFF;
                out.add(new Rec(type, flags, rlen, wlen, java.util.Arrays.copyOfRange(rec, 16, rec.length)));
            } else {
                out.add(new Rec(-1, 0, incl, incl, rec));
            }
        }
        return out;
    }

    /** InfiniBand capture of H1's cable: UD data (LNH local), UD with a GRH (LNH global), a DR SMP and its answer. */
    static Path captureIb(String name) throws IOException {
        VirtualClock clock = new VirtualClock();
        clock.advance(1_700_000_000L, TimeUnit.SECONDS);
        Fabric f = Nets.threeSwitches(clock, 1);
        try {
            FabricPort h1 = Nets.port(f, Nets.H1, 1);
            FabricPort h3 = Nets.port(f, Nets.H3, 1);
            h1.setSink(p -> { });
            h3.setSink(p -> { });
            Path file = DIR.resolve(name);
            try (Capture cap = h1.link().capture(file)) {
                ByteBuffer mr = ByteBuffer.allocate(64);
                for (int i = 0; i < 64; i++) {
                    mr.put(i, (byte) i);
                }
                h1.transmit(Pkts.ud(h1, 0, 0, 12, 10, 0x2A, 100, mr, 0, 61));
                clock.advance(1, TimeUnit.MICROSECONDS);
                h3.transmit(Pkts.ud(h3, 0, 0, 10, 12, 0x2B, 200, mr, 0, 64));
                clock.advance(1, TimeUnit.MICROSECONDS);
                h1.transmit(withGrh(h1, mr));
                clock.advance(1, TimeUnit.MICROSECONDS);
                Pkts.sendDr(h1, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0x77, 1));
                assertEquals(5, cap.packets());
            }
            return file;
        } finally {
            f.close();
        }
    }

    /** A UD packet with a GRH: LRH (LNH global), GRH, BTH, DETH. */
    private static Packet withGrh(FabricPort from, ByteBuffer mr) {
        Packet p = Pkts.ud(from, 0, 0, 12, 10, 0x2C, 300, mr, 0, 16);
        byte[] old = java.util.Arrays.copyOf(p.header, 28);
        Lrh lrh = new Lrh().unpack(old, 0);
        lrh.lnh = Lrh.LNH_IBA_GLOBAL;
        lrh.packetLength += 10;
        lrh.pack(p.header, 0);
        Grh grh = new Grh();
        grh.ipVersion = 6;
        grh.payloadLength = 12 + 8 + 16 + 4;
        grh.nextHeader = Grh.NEXT_HEADER_IBA;
        grh.hopLimit = 1;
        grh.sgid = org.rdma.verbs.Gid.linkLocal(from.portGuid()).bytes();
        grh.dgid = org.rdma.verbs.Gid.linkLocal(0x2c90300a1b3c1L).bytes();
        grh.pack(p.header, 8);
        System.arraycopy(old, 8, p.header, 48, 20);
        p.headerLength = 68;
        return p;
    }

    /** Ethernet capture of host A's cable: ARP request and reply, NS/NA, RoCEv2 over IPv4 and IPv6. */
    static Path captureRoce(String name) throws Exception {
        VirtualClock clock = new VirtualClock();
        clock.advance(1_700_000_000L, TimeUnit.SECONDS);
        Topology t = Topology.parse("Ca 1 \"hostA\"\n[1] \"seg\"[1]\n\nCa 1 \"hostB\"\n[1] \"seg\"[2]\n\n"
                + "Ethernet 2 \"seg\"\n[1] \"hostA\"[1]\n[2] \"hostB\"[1]\n");
        Fabric f = Fabrics.create("roce", t, clock, 1);
        try {
            EthernetPort a = (EthernetPort) f.attach("hostA").port(1);
            EthernetPort b = (EthernetPort) f.attach("hostB").port(1);
            a.setSink(p -> { });
            b.setSink(p -> { });
            InetAddress ipA = InetAddress.getByName("10.0.0.1");
            InetAddress ipB = InetAddress.getByName("10.0.0.2");
            InetAddress ip6B = InetAddress.getByName("fd00::2");
            a.addIpAddress(ipA);
            a.addIpAddress(a.macAddress().linkLocalIpv6());
            b.addIpAddress(ipB);
            b.addIpAddress(ip6B);
            Path file = DIR.resolve(name);
            try (Capture cap = a.link().capture(file)) {
                MacAddress macB = a.resolve(ipB).toCompletableFuture().get();
                assertEquals(macB, a.resolve(ip6B).toCompletableFuture().get());
                ByteBuffer mr = ByteBuffer.wrap("RoCEv2 payload, 29 bytes....".getBytes(StandardCharsets.US_ASCII));
                a.transmit(Pkts.roce(a, macB, ipA, ipB, 0x11, 5, mr, 0, mr.capacity()));
                a.transmit(Pkts.roce(a, macB, a.macAddress().linkLocalIpv6(), ip6B, 0x12, 6, mr, 0, 3));
                assertEquals(6, cap.packets());
            }
            return file;
        } finally {
            f.close();
        }
    }

    @Test
    void infinibandCaptureIsErfType21WithValidCrcs() throws IOException {
        List<Rec> recs = read(captureIb("ib.pcap"), 197);
        assertEquals(5, recs.size());
        int[] ifaces = new int[5];
        for (int i = 0; i < recs.size(); i++) {
            Rec r = recs.get(i);
            assertEquals(21, r.type(), "ERF_TYPE_INFINIBAND");
            assertEquals(0x04, r.flags() & ~3, "varying length, no error flags");
            ifaces[i] = r.flags() & 3;
            assertEquals(r.frame().length, r.wlen());
            assertEquals(16 + r.wlen(), r.rlen());
            byte[] fr = r.frame();
            assertTrue(Vcrc.verify(fr, 0, fr.length), "VCRC of record " + i);
            assertTrue(Icrc.verifyIb(fr, 0, fr.length - 2), "ICRC of record " + i);
            int pktLen = ((fr[4] & 7) << 8 | fr[5] & 0xFF) * 4;
            assertEquals(fr.length - 2, pktLen, "LRH:PktLen covers LRH..ICRC");
        }
        // The ERF capture interface is the direction: 0 for what end A sent, 1 for end B. The
        // topology names S1 first for this cable, so S1 is end A and H1's own packets are interface 1.
        assertEquals(List.of(1, 0, 1, 1, 0), java.util.stream.IntStream.of(ifaces).boxed().toList());
        assertEquals(Lrh.LNH_IBA_GLOBAL, recs.get(2).frame()[1] & 3);
        assertEquals(15, (recs.get(3).frame()[0] >>> 4) & 0xF, "the SMP on VL15");
        assertEquals(Bth.OPCODE_UD_SEND_ONLY, recs.get(0).frame()[8] & 0xFF);
    }

    @Test
    void roceCaptureIsEthernetWithValidIcrc() throws Exception {
        List<Rec> recs = read(captureRoce("roce.pcap"), 1);
        assertEquals(6, recs.size());
        int roce = 0;
        for (Rec r : recs) {
            byte[] fr = r.frame();
            assertTrue(fr.length >= 60, "padded to ETH_ZLEN");
            int type = (fr[12] & 0xFF) << 8 | fr[13] & 0xFF;
            if (type == 0x0800 && fr[23] == 17) {
                int ipLen = (fr[16] & 0xFF) << 8 | fr[17] & 0xFF;
                assertTrue(Icrc.verifyRoceV2(fr, 14, ipLen), "IPv4 RoCEv2 ICRC");
                roce++;
            } else if (type == 0x86DD && fr[20] == 17) {
                int ipLen = 40 + ((fr[18] & 0xFF) << 8 | fr[19] & 0xFF);
                assertTrue(Icrc.verifyRoceV2(fr, 14, ipLen), "IPv6 RoCEv2 ICRC");
                roce++;
            }
        }
        assertEquals(2, roce);
    }

    // ------------------------------------------------------------------ tshark

    static String tshark(Path file, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString()));
        cmd.addAll(List.of(args));
        // stderr (tshark's "running as root" notice) is not part of the decode.
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void tsharkDecodesInfinibandCapture() throws Exception {
        Peers.requireTshark();
        Path file = captureIb("ib-tshark.pcap");
        String full = tshark(file, "-V");
        assertFalse(full.contains("Malformed"), full);
        String fields = tshark(file, "-T", "fields", "-E", "separator=,", "-e", "erf.types.type", "-e",
                "infiniband.lrh.dlid", "-e", "infiniband.lrh.slid", "-e", "infiniband.bth.opcode", "-e",
                "infiniband.bth.destqp", "-e", "infiniband.bth.psn");
        System.out.println("tshark fields (IB):\n" + fields);
        List<String> lines = fields.lines().toList();
        assertEquals(5, lines.size(), fields);
        assertEquals("21,12,10,100,0x00002a,100", lines.get(0));
        assertEquals("21,10,12,100,0x00002b,200", lines.get(1));
        assertEquals("21,12,10,100,0x00002c,300", lines.get(2));
        assertEquals("21,65535,65535,100,0x000000,0", lines.get(3));
        assertEquals("21,65535,1,100,0x000000,0", lines.get(4));
        String smp = tshark(file, "-Y", "infiniband.smpdirected", "-T", "fields", "-E", "separator=,", "-e",
                "infiniband.mad.method", "-e", "infiniband.mad.attributeid", "-e", "infiniband.smpdirected.hopcount",
                "-e", "infiniband.nodeinfo.nodeguid", "-e", "infiniband.nodeinfo.localportnum");
        System.out.println("tshark fields (SMP):\n" + smp);
        assertEquals(List.of("0x01,0x0011,0x01,0x0000000000000000,0x00", "0x81,0x0011,0x01,0x0002c90300f0e0d0,0x01"),
                smp.lines().toList());
    }

    @Test
    void tsharkDecodesRoceCapture() throws Exception {
        Peers.requireTshark();
        Path file = captureRoce("roce-tshark.pcap");
        String full = tshark(file, "-V");
        assertFalse(full.contains("Malformed"), full);
        String fields = tshark(file, "-T", "fields", "-E", "separator=,", "-e", "frame.protocols", "-e",
                "arp.opcode", "-e", "icmpv6.type", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.destqp");
        System.out.println("tshark fields (RoCE):\n" + fields);
        List<String> lines = fields.lines().toList();
        assertEquals(6, lines.size(), fields);
        assertTrue(lines.get(0).startsWith("eth:ethertype:arp,1,"), lines.get(0));
        assertTrue(lines.get(1).startsWith("eth:ethertype:arp,2,"), lines.get(1));
        assertTrue(lines.get(2).contains(",135,"), lines.get(2));
        assertTrue(lines.get(3).contains(",136,"), lines.get(3));
        assertTrue(lines.get(4).endsWith(",100,0x000011"), lines.get(4));
        assertTrue(lines.get(4).contains("udp:infiniband"), lines.get(4));
        assertTrue(lines.get(5).endsWith(",100,0x000012"), lines.get(5));
    }
}
