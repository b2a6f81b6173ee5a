package org.rdma.hca.rxe.internal;

import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.wire.Icrc;

/** Two rxe devices on loopback: identity, GIDs, traffic over IPv4 and IPv6, ICRC, removal. */
class RxeTrafficTest {
    Pair pair;

    @BeforeEach
    void setUp() throws Exception {
        pair = new Pair();
    }

    @AfterEach
    void tearDown() {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void loopbackPortGidsAndIdentity() {
        RxeDevice d = pair.da;
        PortAttr pa = d.provider().queryPort(1);
        assertEquals(LinkLayer.ETHERNET, pa.linkLayer);
        assertEquals(PortState.ACTIVE, pa.state);
        assertEquals(Mtu.MTU_4096, pa.activeMtu, "lo's MTU 65536 gives the 4096 path MTU");
        assertTrue(pa.ipGids);
        byte[] mac = d.mac();
        assertEquals(0x02, mac[0], "lo has no MAC: a locally administered one is derived");
        assertEquals(RxeWire.eui64(mac), d.nodeGuid());
        assertTrue(d.nodeGuid() != pair.db.nodeGuid(), "two devices on lo differ by UDP port");
        assertEquals(RxeWire.eui64(RxeWire.syntheticMac("lo", pair.portA)), d.nodeGuid(), "stable across instances");
        GidEntry g0 = d.provider().queryGid(1, 0);
        assertEquals(Gid.linkLocal(d.nodeGuid()), g0.gid);
        boolean v4 = false;
        boolean v6 = false;
        for (int i = 0; i < RxeGids.TABLE_LEN; i++) {
            GidEntry e = d.provider().queryGid(1, i);
            if (e == null) {
                break;
            }
            assertEquals(GidType.ROCE_UDP_ENCAP, e.type);
            assertEquals("lo", e.netdev);
            v4 |= e.gid.equals(Gid.parse("::ffff:127.0.0.1"));
            v6 |= e.gid.equals(Gid.parse("::1"));
        }
        assertTrue(v4 && v6, "127.0.0.1 and ::1 are GIDs");
        assertEquals(0xFFFF, d.provider().queryPkey(1, 0));
        assertEquals(1, pair.ha.netdevs.get("lo"));
        assertEquals(1024, RxeWire.pathMtu(1500));
        assertEquals(256, RxeWire.pathMtu(300));
        int s = RxeWire.sourcePort(0x11);
        assertTrue(s >= 0xC000 && s <= 0xFFFF);
    }

    @Test
    void rcUcUdOverIpv4() {
        Ops ops = pair.ops("127.0.0.1", "127.0.0.1");
        assertEquals(11, ops.all(false));
        assertEquals(0, pair.da.rxCrcErrors() + pair.db.rxCrcErrors());
        assertEquals(0, pair.da.rxDropped() + pair.db.rxDropped());
    }

    @Test
    void rcWithSrqAndUdOverIpv6() {
        Ops ops = pair.ops("::1", "::1");
        assertEquals(8, ops.rc(true));
        assertEquals(1, ops.ud());
        assertEquals(0, pair.da.rxCrcErrors() + pair.db.rxCrcErrors());
    }

    @Test
    void fullSendQueueAnswersEagainAndRvtRetries() throws Exception {
        pair.close();
        pair = new Pair(16);
        Ops ops = new Ops(pair.ha, pair.hb, Ops.realTime(), () -> Pair.av(pair.ha, "::1"), () -> Pair.av(pair.hb, "::1"), Mtu.MTU_256);
        Host.Qp qa = pair.ha.createQp(ops.pa, org.rdma.verbs.QpType.RC, 1, null);
        Host.Qp qb = pair.hb.createQp(ops.pb, org.rdma.verbs.QpType.RC, 1, null);
        Ops.toRts(qa, org.rdma.verbs.QpType.RC, Pair.av(pair.ha, "::1"), qb.qpn(), Mtu.MTU_256, 1);
        Ops.toRts(qb, org.rdma.verbs.QpType.RC, Pair.av(pair.hb, "::1"), qa.qpn(), Mtu.MTU_256, 1);
        // loopback never fills a socket buffer: make every send find it full, so datagrams pile up
        // behind the send thread until all 16 buffers are taken and rvt gets -EAGAIN
        pair.da.simulateFullSocket(true);
        for (int i = 0; i < 4; i++) {
            org.rdma.verbs.SendWr w = Ops.wr(org.rdma.verbs.WrOpcode.RDMA_WRITE, i,
                    new org.rdma.verbs.Sge(Ops.IOVA + i * 16000, 16000, ops.ma.lkey()));
            w.remoteAddr = Ops.IOVA + i * 16000;
            w.rkey = ops.mb.rkey();
            assertEquals(0, qa.p().postSend(w, null));
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (pair.da.txBusy() == 0) {
            assertTrue(System.nanoTime() < deadline, "250 packets through a queue of 16 never met back-pressure");
            Thread.onSpinWait();
        }
        assertEquals(0, pair.da.txPackets(), "nothing left while the socket was full");
        pair.da.simulateFullSocket(false);
        java.util.List<org.rdma.verbs.Wc> wc = Ops.realTime().await(qa.scq(), 4);
        Ops.assertSuccess(wc);
        ops.same(0, 0, 64000);
    }

    @Test
    void corruptedDatagramIsDroppedAndCounted() throws Exception {
        RxeDevice b = pair.db;
        long before = b.rxPackets();
        for (boolean v6 : new boolean[] {false, true}) {
            InetAddress lo = InetAddress.getByName(v6 ? "::1" : "127.0.0.1");
            try (DatagramChannel ch = DatagramChannel.open(v6 ? java.net.StandardProtocolFamily.INET6
                    : java.net.StandardProtocolFamily.INET)) {
                ch.bind(new InetSocketAddress(lo, 0));
                int sport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
                // a UD SEND_ONLY to QP 0x77 with 32 bytes of payload and a correct ICRC
                int len = 12 + 8 + 32 + 4;
                byte[] h = new byte[48 + len];
                int ip = v6 ? 0 : 20;
                int at = v6 ? RxeWire.pseudo6(h, 0, lo.getAddress(), lo.getAddress(), sport, pair.portB, len)
                        : RxeWire.pseudo4(h, 20, lo.getAddress(), lo.getAddress(), sport, pair.portB, len);
                h[at] = 0x64;
                h[at + 2] = (byte) 0xFF;
                h[at + 3] = (byte) 0xFF;
                h[at + 7] = 0x77;
                Icrc.put(Icrc.computeRoceV2(h, ip, at - ip + len - 4), h, at + len - 4);
                ByteBuffer good = ByteBuffer.wrap(h, at, len);
                ch.send(good, new InetSocketAddress(lo, pair.portB));
                long crc = b.rxCrcErrors();
                h[at + 30] ^= 0x10;
                ch.send(ByteBuffer.wrap(h, at, len), new InetSocketAddress(lo, pair.portB));
                Pair.await(() -> b.rxCrcErrors() == crc + 1, 5000, "the corrupted datagram to be counted");
            }
        }
        Pair.await(() -> b.rxPackets() == before + 2, 5000, "the two good datagrams to reach the transport");
        assertEquals(2, b.rxCrcErrors());
    }

    @Test
    void removalClosesEverySocketAndEndsTheThreads() throws Exception {
        Ops ops = pair.ops("127.0.0.1", "127.0.0.1");
        assertEquals(1, ops.ud());
        RxeDevice a = pair.da;
        java.util.List<DatagramChannel> chans = a.channels();
        assertTrue(chans.size() >= 2, "receive and send sockets: " + chans);
        assertFalse(a.threadsEnded());
        a.close();
        for (DatagramChannel c : chans) {
            assertFalse(c.isOpen(), c + " closed");
        }
        assertTrue(a.threadsEnded(), "receive and send threads ended");
        // the port is free again
        try (DatagramChannel c = DatagramChannel.open(java.net.StandardProtocolFamily.INET)) {
            c.bind(new InetSocketAddress("127.0.0.1", pair.portA));
        }
    }
}
