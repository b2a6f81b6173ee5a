package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.fabric.ibsim.IbsimAttachment;
import org.rdma.fabric.ibsim.IbsimAttachments;
import org.rdma.fabric.ibsim.IbsimClient;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.rvt.testkit.Peers;

/**
 * Acceptance 6: a Java HCA port attached to a real ibsim fabric is brought up by a real OpenSM
 * and gets a PathRecord from OpenSM's SA through the Java SA client.
 *
 * <p>The subnet is ibsim's: a switch, the CA "java" (the Java HCA, same GUIDs) and the CA "osm"
 * that OpenSM runs on under umad2sim. Needs Debian's ibsim-utils (with libumad2sim0) and opensm;
 * skipped without them. Everything listens on 127.0.0.1 (ibsim itself binds its UDP ports on all
 * addresses; nothing is sent off the host).
 */
class OpenSmIbsimTest {
    static final long SWITCH_GUID = 0x0002c90200001000L;
    static final long JAVA_GUID = 0x0002c90300002000L;
    static final long OSM_GUID = 0x0002c90300003000L;
    static final String TOPOLOGY = String.format(""
            + "switchguid=0x%016x\n"
            + "Switch 8 \"sw\"\n"
            + "[1] \"java\"[1]\n"
            + "[2] \"osm\"[1]\n"
            + "\n"
            + "caguid=0x%016x\n"
            + "Ca 1 \"java\"\n"
            + "[1] \"sw\"[1]\n"
            + "\n"
            + "caguid=0x%016x\n"
            + "Ca 1 \"osm\"\n"
            + "[1] \"sw\"[2]\n", SWITCH_GUID, JAVA_GUID, OSM_GUID);

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void javaPortGetsAPathRecordFromOpenSmThroughIbsim(@TempDir Path dir) throws Exception {
        String missing = NativeSubnet.missing();
        Peers.require(missing == null, "ibsim/OpenSM not installed: " + missing);
        try (NativeSubnet nat = new NativeSubnet(dir); JavaHost host = new JavaHost("java", JAVA_GUID)) {
            InetSocketAddress server = nat.startIbsim(TOPOLOGY);
            // a bystander on the switch takes client slot 0: the Java port becomes client 1, so
            // ibsim's rewrite of TID bits 63..48 (0 in the MAD layer's TIDs) really changes them
            try (IbsimClient bystander = awaitIbsim(nat, server);
                 IbsimAttachment att = IbsimAttachments.attach(host.port(),
                         new IbsimAttachments.Options(server, "java", true, 50, 1000))) {
                assertEquals(0, bystander.clientId());
                assertEquals(1, att.clientId());
                nat.startOpenSm("osm");
                PortAttr pa = host.awaitActive(() -> "OpenSM did not configure the ibsim node\n" + nat.diagnostics());
                PortInfo ibsim = att.ibsimPortInfo();
                assertEquals(ibsim.lid, pa.lid, "the HCA's LID is the one OpenSM gave ibsim's node");
                assertNotEquals(0, pa.lid);
                assertNotEquals(0, pa.smLid, "MasterSMLID mirrored");
                assertEquals(ibsim.masterSmLid, pa.smLid);

                // SubnAdmGet(PathRecord) to OpenSM's port through the Java SA client, answered by OpenSM's SA
                Gid osm = Gid.of(pa.subnetPrefix, OSM_GUID + 1);
                PathRecord p = host.pathRecGet(osm, 2000).get(JavaHost.WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(host.dev.queryGid(1, 0), p.sgid);
                assertEquals(osm, p.dgid);
                assertEquals(pa.lid, p.slid);
                assertEquals(pa.smLid, p.dlid, "OpenSM runs on the osm node, so its port LID is the SM LID");
                assertEquals(0xFFFF, p.pkey);
                assertEquals(0, p.sl);
                assertTrue(p.reversible != 0, "reversible path");
                // ibsim's default links: MTUCap 2048 on every port, 4X SDR
                assertEquals(PortInfo.MTU_2048, ibsim.neighborMtu);
                assertEquals(PortInfo.LINK_WIDTH_4X, ibsim.linkWidthActive);
                assertEquals(PortInfo.LINK_SPEED_SDR, ibsim.linkSpeedActive);
                assertEquals(PortInfo.MTU_2048, p.mtu, "path MTU: " + p);
                assertEquals(3, p.rate, "4X SDR is 10 Gb/s, rate code 3 (IBTA 15.2.5.16): " + p);
                assertTrue(att.stats().tidsRestored() > 0, "ibsim's TID rewrite undone: " + att.stats());
                assertEquals(0, att.stats().bounced(), "nothing came back undelivered");

                // an SMP: ibsim's model of the switch answers a directed-route SubnGet(NodeInfo)
                Smp r = host.smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0, 1))
                        .get(JavaHost.WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(0, r.statusCode());
                NodeInfo sw = new NodeInfo().unpack(r.data, 0);
                assertEquals(NodeInfo.NODE_TYPE_SWITCH, sw.nodeType);
                assertEquals(SWITCH_GUID, sw.nodeGuid);
            }
        }
    }

    /** Connects a client as soon as ibsim listens (it binds its sockets after parsing the topology). */
    private static IbsimClient awaitIbsim(NativeSubnet nat, InetSocketAddress server) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return IbsimClient.connect(server, "sw", false, 500);
            } catch (RdmaException e) {
                boolean notYet = e.errno() == Errno.ECONNREFUSED || e.errno() == Errno.ETIMEDOUT;
                if (!notYet || !nat.ibsimAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("ibsim does not answer: " + e.getMessage() + "\n" + nat.ibsimLog(), e);
                }
                Thread.sleep(50);
            }
        }
    }
}
