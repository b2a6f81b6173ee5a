package org.rdma.sm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.sm.testkit.SmNet;
import org.rdma.sm.testkit.Verbs;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.PortInfo;

/** RC traffic over SA paths across switch hops, and across a cable pull the SM repairs. */
class FabricTrafficTest {
    SmNet net;
    final SaClient client = new SaClient();

    @AfterEach
    void tearDown() {
        if (net != null) {
            net.close();
        }
    }

    private int hops(CoreDevice a, CoreDevice b) {
        Subnet s = net.sm.subnet();
        Routing.Route r = Routing.trace(s, s.byLid.get(a.queryPort(1).lid), s.byLid.get(b.queryPort(1).lid));
        assertNotNull(r, "a route");
        return r.hops();
    }

    private static void fill(Verbs v, int len, int seed) {
        for (int i = 0; i < len; i++) {
            v.buf.put(i, (byte) (i * 31 + seed));
        }
    }

    private static void assertArrived(Verbs from, Verbs to, int len, int at) {
        for (int i = 0; i < len; i++) {
            assertEquals(from.buf.get(i), to.buf.get(at + i), "byte " + i);
        }
    }

    @Test
    void rcCrossesSwitchesAndResumesAfterACablePullThroughTheResweep() {
        net = new SmNet(SmNet.ring(3, 2), 0).up();
        net.sa.registerClient(client);
        CoreDevice a = net.dev("h1"); // on S0
        CoreDevice b = net.dev("h2"); // on S1
        assertEquals(2, hops(a, b), "S0 -> S1");
        PathRecord ab = SubnetManagerTest.path(net, client, a, b);
        PathRecord ba = SubnetManagerTest.path(net, client, b, a);
        AhAttr toB = new AhAttr();
        net.sa.initAhAttrFromPath(a, 1, ab, toB);
        AhAttr toA = new AhAttr();
        net.sa.initAhAttrFromPath(b, 1, ba, toA);
        Verbs va = new Verbs(a, QpType.RC);
        Verbs vb = new Verbs(b, QpType.RC);
        va.toRts(toB, vb.qp.qpNum(), 0);
        vb.toRts(toA, va.qp.qpNum(), 0);

        fill(va, 3000, 1);
        vb.postRecv(0, 4096);
        va.postSend(0, 3000, new SendWr());
        net.advance(50);
        va.poll();
        vb.poll();
        assertEquals(1, va.sent.size());
        assertEquals(WcStatus.SUCCESS, va.sent.get(0).status);
        assertEquals(3000, vb.received.get(0).byteLen);
        assertArrived(va, vb, 3000, 0);

        // pull the S0 - S1 cable with a message in flight
        long traps = net.sm.trapsReceived();
        int sweeps = net.sm.sweeps();
        net.link("S0", "S1").cablePull();
        fill(va, 2000, 7);
        vb.postRecv(4096, 4096);
        va.postSend(0, 2000, new SendWr());
        net.settle();
        assertTrue(net.sm.trapsReceived() > traps, "Trap 128 reached the SM");
        assertTrue(net.sm.sweeps() > sweeps, "and it re-swept");
        assertEquals(3, hops(a, b), "now S0 -> S2 -> S1");
        net.advance(3000);
        va.poll();
        vb.poll();
        assertEquals(2, va.sent.size(), "the send completed through retries");
        assertEquals(WcStatus.SUCCESS, va.sent.get(1).status);
        assertEquals(2000, vb.received.get(1).byteLen);
        assertArrived(va, vb, 2000, 4096);
        assertEquals(Routing.PACKET_LIFE_BASE + 2, SubnetManagerTest.path(net, client, a, b).packetLifeTime,
                "lifetime grows with the switches crossed");

        // the cable comes back: its ports are brought to ACTIVE and routes go back to min-hop
        net.link("S0", "S1").cableRestore();
        net.advance(100);
        net.settle();
        assertEquals(2, hops(a, b));
        for (Subnet.Node sw : net.sm.subnet().switches()) {
            for (int p = 1; p <= sw.info.numPorts; p++) {
                assertEquals(PortInfo.PORT_STATE_ACTIVE, sw.ports[p].portState, sw + " port " + p);
            }
        }
        for (CoreDevice d : net.devs.values()) {
            assertEquals(PortState.ACTIVE, d.queryPort(1).state);
        }
        va.close();
        vb.close();
    }
}
