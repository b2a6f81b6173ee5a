package org.rdma.diags.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.rdma.fabric.FabricNode;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.wire.MadHdr;

/**
 * The commands on three switches and six hosts with the SM up: every port ACTIVE with its own
 * LID, a path between every pair of hosts, nodes reached alike by LID and by directed route,
 * and every error path with its errno.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FabricDiagsTest {
    static final int HOSTS = 6;
    DiagNet d;
    final Map<String, Integer> lids = new HashMap<>();
    final Map<String, Integer> switchLids = new HashMap<>();

    @BeforeAll
    void up() {
        d = new DiagNet(SmNet.ring(3, 2));
        for (int i = 0; i < HOSTS; i++) {
            lids.put("h" + i, d.net.dev("h" + i).queryPort(1).lid);
        }
        for (FabricNode n : d.net.fabric.nodes()) {
            if (n.nodeType() == NodeType.SWITCH) {
                switchLids.put(n.name(), n.port(0).lid());
            }
        }
    }

    @AfterAll
    void down() {
        d.close();
    }

    /** The value of a {@code Name:....value} or {@code \t\tname.....value} line. */
    static String value(List<String> lines, String name) {
        for (String l : lines) {
            String t = l.strip();
            if (t.startsWith(name + ":") || t.startsWith(name + ".")) {
                return t.substring(name.length()).replaceFirst("^:?\\.*", "").strip();
            }
        }
        throw new AssertionError("no " + name + " in " + lines);
    }

    @Test
    void everyPortIsActiveWithItsOwnLid() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < HOSTS; i++) {
            List<String> port = DiagNet.lines(d.ibstat, "mlx4_" + i, "1");
            assertEquals("CA: 'mlx4_" + i + "'", port.get(0));
            assertEquals("Active", value(port, "State"));
            assertEquals("LinkUp", value(port, "Physical state"));
            assertEquals("40", value(port, "Rate"));
            int lid = Integer.parseInt(value(port, "Base lid"));
            assertEquals(lids.get("h" + i), lid);
            assertTrue(seen.add(lid), "unique LID " + lid);
        }
        for (Map.Entry<String, Integer> sw : switchLids.entrySet()) {
            assertTrue(seen.add(sw.getValue()), "unique switch LID " + sw);
            for (int p = 1; p <= 4; p++) {
                List<String> pi = DiagNet.lines(d.smpquery, "portinfo", sw.getValue().toString(), Integer.toString(p));
                assertEquals("# Port info: Lid " + sw.getValue() + " port " + p, pi.get(0));
                assertEquals("Active", value(pi, "LinkState"), sw.getKey() + " port " + p);
                assertEquals("10.0 Gbps", value(pi, "LinkSpeedActive"));
            }
        }
        assertEquals(9, seen.size());
    }

    @Test
    void saqueryFindsAPathBetweenEveryPairOfHosts() {
        int pairs = 0;
        for (int i = 0; i < HOSTS; i++) {
            for (int j = 0; j < HOSTS; j++) {
                if (i == j) {
                    continue;
                }
                int s = lids.get("h" + i);
                int t = lids.get("h" + j);
                List<String> pr = DiagNet.lines(d.saquery, "-C", "mlx4_" + i, "--src-to-dst", s + ":" + t);
                assertEquals("PathRecord dump:", pr.get(0), "h" + i + " -> h" + j);
                assertEquals(1, pr.stream().filter("PathRecord dump:"::equals).count());
                assertEquals(Integer.toString(s), value(pr, "slid"));
                assertEquals(Integer.toString(t), value(pr, "dlid"));
                assertEquals("fe80::10:" + Long.toHexString(d.net.dev("h" + j).queryGid(1, 0).interfaceId() & 0xffff),
                        value(pr, "dgid"));
                assertEquals("0xFFFF", value(pr, "pkey"));
                pairs++;
            }
        }
        assertEquals(30, pairs);
        // the same path by LIDs and by GIDs
        String sgid = DiagText.inet6(d.net.dev("h0").queryGid(1, 0));
        String dgid = DiagText.inet6(d.net.dev("h5").queryGid(1, 0));
        List<String> byGid = DiagNet.lines(d.saquery, "--sgid-to-dgid", sgid + "-" + dgid);
        List<String> byLid = DiagNet.lines(d.saquery, "-p", "--slid", lids.get("h0").toString(), "--dlid",
                lids.get("h5").toString());
        assertEquals(byLid, byGid);
        assertEquals(sgid, value(byGid, "sgid"));
    }

    @Test
    void smpqueryReachesANodeAlikeByLidByDirectedRouteAndByGuid() {
        String s1 = switchLids.get("S1").toString();
        // h0's port 1 goes to S0 port 3; S0's port 1 to S1
        List<String> byLid = DiagNet.lines(d.smpquery, "nodeinfo", s1);
        List<String> byDr = DiagNet.lines(d.smpquery, "-C", "mlx4_0", "-D", "nodeinfo", "0,1,1");
        assertEquals("# Node info: Lid " + s1, byLid.get(0));
        assertEquals("# Node info: DR path slid 65535; dlid 65535; 0,1,1", byDr.get(0));
        assertEquals("Switch", value(byLid, "NodeType"));
        assertEquals("0x0000000000200001", value(byLid, "Guid"));
        // LocalPort is the port the SMP came in on, which differs; the rest is the node
        assertEquals(byLid.subList(1, 11), byDr.subList(1, 11));
        assertEquals(List.of("Node Description:..............................S1"),
                DiagNet.lines(d.smpquery, "-D", "nodedesc", "0,1,1"));
        List<String> swByDr = DiagNet.lines(d.smpquery, "-D", "switchinfo", "0,1,1");
        assertEquals(DiagNet.lines(d.smpquery, "SI", s1).subList(1, swByDr.size()), swByDr.subList(1, swByDr.size()));
        // a host three hops away: its PortInfo has its LID
        List<String> h2 = DiagNet.lines(d.smpquery, "-C", "mlx4_0", "-D", "portinfo", "0,1,1,3", "1");
        assertEquals(lids.get("h2").toString(), value(h2, "Lid"));
        assertEquals("Active", value(h2, "LinkState"));
        // by port GUID, resolved through the SA
        List<String> byGuid = DiagNet.lines(d.smpquery, "-G", "nodeinfo", "0x100005");
        assertEquals("# Node info: Lid " + lids.get("h2"), byGuid.get(0));
        assertEquals("0x0000000000100005", value(byGuid, "PortGuid"));
        List<String> pk = DiagNet.lines(d.smpquery, "PKeys", lids.get("h3").toString(), "1");
        assertEquals("   0: 0xffff 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000", pk.get(0));
        assertEquals(List.of(" 120: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000",
                "128 pkeys capacity for this port"), pk.subList(pk.size() - 2, pk.size()));
    }

    @Test
    void saqueryShowsTheSasClassPortInfo() {
        List<String> cpi = DiagNet.lines(d.saquery, "-c");
        assertEquals(List.of("SA ClassPortInfo:", "\t\tBase version.............1", "\t\tClass version............2",
                "\t\tCapability mask..........0x2200", "\t\tCapability mask 2........0x00000000",
                "\t\tResponse time value......0x10", "\t\tRedirect GID.............::"), cpi.subList(0, 7));
        assertEquals("\t\tTrap LID.................0", cpi.get(14));
        assertEquals(18, cpi.size());
    }

    @Test
    void saqueryDumpsNodeAndPortInfoRecordsAndNamesNodes() {
        List<String> all = DiagNet.lines(d.saquery);
        assertEquals(9, all.stream().filter("NodeRecord dump:"::equals).count());
        assertEquals(all, DiagNet.lines(d.saquery, "-N"));
        String h3 = lids.get("h3").toString();
        List<String> one = DiagNet.lines(d.saquery, "NR", h3);
        assertEquals(16, one.size());
        assertEquals(h3, value(one, "lid"));
        assertEquals("h3 mlx4_3", value(one, "NodeDescription"));
        assertEquals(one, DiagNet.lines(d.saquery, h3), "a LID alone asks for its NodeRecord");
        assertEquals(List.of(h3), DiagNet.lines(d.saquery, "-L", "h3 mlx4_3"));
        assertEquals(List.of(h3), DiagNet.lines(d.saquery, "-l", "h3 mlx4_3"));
        assertEquals(List.of("0x0000000000100007"), DiagNet.lines(d.saquery, "-G", "h3 mlx4_3"));
        assertEquals(List.of("h3 mlx4_3"), DiagNet.lines(d.saquery, "-O", h3));
        assertEquals(List.of("h3 mlx4_3"), DiagNet.lines(d.saquery, "-U", "0x100007"));
        List<String> cas = DiagNet.lines(d.saquery, "-D");
        assertEquals(List.of("   LID \"name\"", "================"), cas.subList(0, 2));
        assertEquals(String.format("%6d  \"h3 mlx4_3\"", lids.get("h3")), cas.get(2 + 3));
        List<String> pir = DiagNet.lines(d.saquery, "PIR", h3 + "/1");
        assertEquals(List.of("PortInfoRecord dump:", "\tRID", "\t\tEndPortLid.............." + h3,
                "\t\tPortNum.................1", "\t\tOptions.................0x0", "\tPortInfo dump:",
                "\t\tMkey:............................<not displayed>"), pir.subList(0, 7));
        assertEquals("Active", value(pir, "LinkState"));
        List<String> sm = DiagNet.lines(d.saquery, "-s");
        assertEquals("IsSM ports", sm.get(0));
        int smLid = d.net.dev("h0").queryPort(1).smLid;
        assertEquals(List.of("IsSMdisabled ports"), sm.subList(sm.indexOf("") + 1, sm.size()), "no port has IsSMdisabled");
        assertEquals(1, sm.stream().filter(l -> l.contains("EndPortLid")).count(), "one port has IsSM: " + sm);
        assertEquals(String.valueOf(smLid), value(sm, "EndPortLid"));
    }

    @Test
    void theSaMatchesPortCapabilitiesExactlyOrBitwiseAndAnEmptyTableHasNoStride() {
        int smLid = d.net.dev("h0").queryPort(1).smLid;
        try (MadRpc rpc = MadRpc.open(d.umad, null, 0, 1000, 0)) {
            PortInfoRecord q = new PortInfoRecord();
            q.portInfo.capabilityMask = PortCapFlags.SM;
            byte[] t = new byte[PortInfoRecord.BYTES];
            q.pack(t, 0);
            MadRpc.SaResult bitwise = rpc.sa(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PORT_INFO_REC,
                    PortInfoRecord.ENHANCED_COMP_MASK, PortInfoRecord.CAPABILITY_MASK, 0, t);
            assertEquals(1, bitwise.records().size(), "the SM's port alone has IsSM");
            PortInfoRecord smPort = new PortInfoRecord().unpack(bitwise.mad(), bitwise.records().get(0));
            assertEquals(smLid, smPort.lid);
            assertEquals(PortInfoRecord.BYTES / 8 + 1, bitwise.attrOffset(), "68-byte records padded to 72");

            MadRpc.SaResult exact = rpc.sa(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PORT_INFO_REC, 0,
                    PortInfoRecord.CAPABILITY_MASK, 0, t);
            assertEquals(0, exact.status());
            assertEquals(List.of(), exact.records(), "no port's mask is IsSM alone");
            assertEquals(0, exact.attrOffset(), "no record, no stride (as OpenSM answers)");

            smPort.pack(t, 0);
            MadRpc.SaResult same = rpc.sa(MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PORT_INFO_REC, 0,
                    PortInfoRecord.CAPABILITY_MASK | PortInfoRecord.LID, 0, t);
            assertEquals(1, same.records().size(), "its own mask matches exactly");
        }
    }

    @Test
    void errorsNameTheErrno() {
        assertEquals(Errno.ETIMEDOUT, DiagNet.errno(d.smpquery, "nodeinfo", "77"));
        assertEquals(Errno.ETIMEDOUT, DiagNet.errno(d.smpquery, "-D", "nodeinfo", "0,1,3,1"),
                "a route into a host's port, nothing answers beyond");
        assertEquals(Errno.ETIMEDOUT, DiagNet.errno(d.perfquery, "77", "1"));
        assertTrue(DiagNet.fails(d.smpquery, "nodeinfo", "77").getMessage()
                .startsWith("ETIMEDOUT: operation nodeinfo (node info query failed (_do_madrpc failed; dport (Lid 77)))"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.smpquery, "-C", "mlx4_9", "nodeinfo", "1"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.perfquery, "-C", "mlx4_9"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.saquery, "-C", "mlx4_9"));
        assertEquals(Errno.ENODEV, DiagNet.errno(d.ibstat, "mlx4_9"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.ibstat, "mlx4_0", "3"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.ibstat, "mlx4_0", "1", "2"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "nodeinfo"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "frobnicate", "1"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "nodeinfo", "0"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "nodeinfo", "65535"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "-D", "nodeinfo", "0,x"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "portinfo", "1", "300"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "nodeinfo", "1", "2"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "-t", "abc", "nodeinfo", "1"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.smpquery, "--bogus", "nodeinfo", "1"));
        assertEquals(Errno.EIO, DiagNet.errno(d.smpquery, "-D", "switchinfo", "0"), "a CA has no SwitchInfo");
        assertEquals(Errno.EINVAL, DiagNet.errno(d.perfquery, "1", "5-3"));
        assertEquals(Errno.EOPNOTSUPP, DiagNet.errno(d.perfquery, lids.get("h1").toString(), "255"),
                "the HCA's agent has no AllPortSelect");
        assertEquals(Errno.EINVAL, DiagNet.errno(d.perfquery, "-D", "0,1"), "-D is not a perfquery option");
        assertEquals(Errno.EOPNOTSUPP, DiagNet.errno(d.saquery, "LR"));
        assertEquals(Errno.ENOENT, DiagNet.errno(d.saquery, "--src-to-dst", "nosuchhost:1"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.saquery, "--src-to-dst", "1"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.saquery, "-L"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.saquery, "-O", "0"));
        assertEquals(Errno.EINVAL, DiagNet.errno(d.saquery, "--sgid", "zz", "-p"));
    }

    @Test
    void helpPrintsTheUsage() {
        List<String> h = DiagNet.lines(d.smpquery, "-h");
        assertTrue(h.contains("Usage: smpquery [options] <op> <dest dr_path|lid|guid> [op params]"));
        assertTrue(h.stream().anyMatch(l -> l.startsWith("  --Ca, -C <ca>")));
        assertFalse(DiagNet.lines(d.saquery, "-h").isEmpty());
        List<String> names = new ArrayList<>();
        for (String l : DiagNet.lines(d.ibstat, "-l")) {
            names.add(l);
        }
        assertEquals(List.of("mlx4_0", "mlx4_1", "mlx4_2", "mlx4_3", "mlx4_4", "mlx4_5"), names);
    }
}
