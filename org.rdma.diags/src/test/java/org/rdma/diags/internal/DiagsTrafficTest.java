package org.rdma.diags.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.wire.MadHdr;

/**
 * The commands on a subnet that changes: counters that grow with traffic and reset, services
 * and multicast groups the SA learns, a device that goes away.
 */
class DiagsTrafficTest {
    DiagNet d;
    final SaClient client = new SaClient();

    @BeforeEach
    void up() {
        d = new DiagNet(SmNet.ring(3, 2));
        d.net.sa.registerClient(client);
    }

    @AfterEach
    void down() {
        d.close();
    }

    private long counter(String... args) {
        List<String> lines = DiagNet.lines(d.perfquery, args);
        return Long.parseLong(FabricDiagsTest.value(lines, "PortXmitPkts"));
    }

    @Test
    void perfqueryCountersGrowWithTrafficAndReset() {
        String h1 = Integer.toString(d.net.dev("h1").queryPort(1).lid);
        long before = counter(h1, "1");
        long rcvBefore = Long.parseLong(FabricDiagsTest.value(DiagNet.lines(d.perfquery, h1, "1"), "PortRcvPkts"));
        for (int i = 0; i < 10; i++) {
            DiagNet.lines(d.smpquery, "nodeinfo", h1);
        }
        long after = counter(h1, "1");
        // ten SMPs answered, and the two PerfMgt exchanges of the reads in between
        assertTrue(after >= before + 10, before + " -> " + after);
        long rcvAfter = Long.parseLong(FabricDiagsTest.value(DiagNet.lines(d.perfquery, h1, "1"), "PortRcvPkts"));
        assertTrue(rcvAfter >= rcvBefore + 10, rcvBefore + " -> " + rcvAfter);
        // extended counters count the same packets
        List<String> x = DiagNet.lines(d.perfquery, "-x", h1, "1");
        assertTrue(x.get(0).startsWith("# Port extended counters: Lid " + h1 + " port 1 (CapMask: 0x200 CapMask2: 0x0000000)"));
        assertTrue(Long.parseLong(FabricDiagsTest.value(x, "PortXmitPkts")) >= after);
        assertTrue(Long.parseLong(FabricDiagsTest.value(x, "PortUnicastXmitPkts")) > 0);
        // -r prints, then clears: the next read counts only what came after
        assertEquals(List.of(), DiagNet.lines(d.perfquery, "-R", h1, "1"), "-R prints nothing");
        long reset = counter(h1, "1");
        assertTrue(reset < 5, "after the reset only the read's own MADs: " + reset);
        List<String> readAndReset = DiagNet.lines(d.perfquery, "-r", h1, "1");
        assertTrue(Long.parseLong(FabricDiagsTest.value(readAndReset, "PortXmitPkts")) >= reset);
        assertTrue(counter(h1, "1") < 5);
        // the local port when no LID is given, and all ports summed with -a
        List<String> self = DiagNet.lines(d.perfquery, "-C", "mlx4_1");
        assertEquals("# Port counters: Lid " + h1 + " port 1 (CapMask: 0x200)", self.get(0));
        List<String> all = DiagNet.lines(d.perfquery, "-a", h1);
        assertEquals("# Port counters: Lid " + h1 + " port 255 (CapMask: 0x200)", all.get(0));
        assertEquals("255", FabricDiagsTest.value(all, "PortSelect"));
        List<String> loop = DiagNet.lines(d.perfquery, "-l", "-a", h1);
        assertEquals("# Port counters: Lid " + h1 + " port 1 (CapMask: 0x200)", loop.get(0));
        // a switch's PMA answers on its port 0, which the SM brings to ACTIVE like any end port
        String sw = Integer.toString(d.net.fabric.findNode("S0").orElseThrow().port(0).lid());
        List<String> swCounters = DiagNet.lines(d.perfquery, sw, "1");
        assertEquals("# Port counters: Lid " + sw + " port 1 (CapMask: 0x300)", swCounters.get(0), swCounters.toString());
        assertTrue(Long.parseLong(FabricDiagsTest.value(swCounters, "PortXmitPkts")) > 0, swCounters.toString());
    }

    @Test
    void saqueryShowsTheServicesAndGroupsTheSaKnows() {
        IbDevice h2 = d.net.dev("h2");
        ServiceRecord sr = new ServiceRecord();
        sr.id = 0x1122334455667788L;
        sr.gid = h2.queryGid(1, 0);
        sr.pkey = 0xffff;
        sr.lease = 0xffffffff;
        sr.key[15] = 0x42;
        sr.setName("srp.target");
        sr.data[0] = 7;
        sr.data[17] = 0x16;
        sr.data[35] = 0x32;
        sr.data[63] = 0x64;
        List<Integer> st = new ArrayList<>();
        d.net.sa.serviceRecQuery(client, h2, 1, MadHdr.IB_MGMT_METHOD_SET, sr, ServiceRecord.SERVICE_ID
                | ServiceRecord.SERVICE_GID | ServiceRecord.SERVICE_PKEY | ServiceRecord.SERVICE_LEASE
                | ServiceRecord.SERVICE_NAME, 1000, (s, r) -> st.add(s));
        d.net.settle();
        assertEquals(List.of(0), st);
        List<String> s = DiagNet.lines(d.saquery, "-S");
        assertEquals("ServiceRecord dump:", s.get(0));
        assertEquals("\t\tServiceID...............0x1122334455667788", s.get(1));
        assertEquals("\t\tServiceGID..............fe80::10:5", s.get(2));
        assertEquals("\t\tServiceP_Key............0xFFFF", s.get(3));
        assertEquals("\t\tServiceLease............0xFFFFFFFF", s.get(4));
        assertEquals("\t\tServiceKey..............<not displayed>", s.get(5));
        assertEquals("\t\tServiceName.............srp.target", s.get(6));
        assertEquals("\t\tServiceData8.1..........0x7", s.get(7));
        assertEquals("\t\tServiceData16.1.........0x16", s.get(23));
        assertEquals("\t\tServiceData32.1.........0x32", s.get(31));
        assertEquals("\t\tServiceData64.2.........0x0000000000000064", s.get(36));
        assertEquals(37, s.size());
        assertEquals(s, DiagNet.lines(d.saquery, "SR"));
        assertEquals("\t\tServiceKey..............0x00000000000000000000000000000042",
                DiagNet.lines(d.saquery, "-K", "-S").get(5));

        // two hosts join a group; the SA lists it and them
        Gid mgid = Gid.parse("ff12:601b:ffff:0000:0000:0000:0000:0001");
        for (String host : List.of("h3", "h4")) {
            McMemberRecord rec = new McMemberRecord();
            rec.mgid = mgid;
            rec.portGid = d.net.dev(host).queryGid(1, 0);
            rec.qkey = 0x11111111;
            rec.pkey = 0xffff;
            rec.joinState = McMemberRecord.FULLMEMBER_JOIN;
            d.net.sa.joinMulticast(client, d.net.dev(host), 1, rec, McMemberRecord.MGID | McMemberRecord.PORT_GID
                    | McMemberRecord.QKEY | McMemberRecord.PKEY | McMemberRecord.JOIN_STATE, (x, r) -> st.add(x), null);
            d.net.settle();
        }
        assertEquals(List.of(0, 0, 0), st);
        List<String> groups = DiagNet.lines(d.saquery, "-g");
        assertEquals(List.of("MCMemberRecord group dump:", "\t\tMGID....................ff12:601b:ffff::1",
                "\t\tMlid....................0xC000", "\t\tMtu.....................0x84", "\t\tpkey....................0xFFFF",
                "\t\tRate....................0x83", "\t\tSL......................0x0"), groups.subList(0, 7));
        List<String> members = DiagNet.lines(d.saquery, "-m");
        assertTrue(members.contains("\t\tPortGid.................fe80::10:7"));
        assertTrue(members.contains("\t\tNodeDescription.........h3 mlx4_3"));
        assertTrue(members.contains("\t\tNodeDescription.........h4 mlx4_4"));
        assertTrue(members.contains("\t\tScopeState..............0x21"));
        assertEquals(List.of("\t\tPortGid.................fe80::10:7 (h3 mlx4_3)",
                "\t\tPortGid.................fe80::10:9 (h4 mlx4_4)"), DiagNet.lines(d.saquery, "-m", "0xC000"));
        assertEquals(List.of(), DiagNet.lines(d.saquery, "-m", "0xC001"));
        List<String> mcmr = DiagNet.lines(d.saquery, "MCMR", "--mgid", "ff12:601b:ffff::1");
        assertEquals(2 * 16, mcmr.size());
        assertEquals("0x11111111", FabricDiagsTest.value(mcmr, "qkey"));
        assertEquals("0xc000", FabricDiagsTest.value(mcmr, "mlid"));
        assertEquals(List.of(), DiagNet.lines(d.saquery, "MCMR", "--mgid", "ff12:601b:ffff::2"),
                "an empty table prints nothing");
    }

    @Test
    void aDeviceThatGoesAwayIsGoneFromTheCommands() {
        assertTrue(DiagNet.lines(d.ibstat, "-l").contains("mlx4_5"));
        d.net.removeDevice("h5");
        assertFalse(DiagNet.lines(d.ibstat, "-l").contains("mlx4_5"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.ibstat, "mlx4_5"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.smpquery, "-C", "mlx4_5", "nodeinfo", "1"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.ibnetdiscover, "-C", "mlx4_5"));
    }
}
