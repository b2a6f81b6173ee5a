package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** Connect, transfer and disconnect through the RDMA CM: InfiniBand by GID, RoCE by IPv4 and by IPv6. */
class RdmaConnectTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    private static String text(byte[] b, int len) {
        return new String(b, 0, len, StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ib,false", "roce-ipv4,false", "roce-ipv6,true"})
    void connectTransferAndDisconnect(String fabric, boolean v6) {
        cn = fabric.equals("ib") ? CmaNet.ib() : CmaNet.roce();
        RdmaCmService cm = cn.cm;
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        server.acceptData = "welcome".getBytes(StandardCharsets.US_ASCII);
        client.connectData = "hello".getBytes(StandardCharsets.US_ASCII);

        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        SocketAddress serverAddr = cn.addr(cn.b, 7471, v6);
        cm.bindAddr(listen, serverAddr);
        assertEquals(RdmaCmState.ADDR_BOUND, listen.state());
        assertSame(cn.dev(cn.b), listen.device(), "a specific address binds the device");
        cm.listen(listen, 8);
        assertEquals(RdmaCmState.LISTEN, listen.state());

        RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
        // both hosts' devices serve this one CM, so the source names the client's device
        cm.resolveAddr(c, cn.addr(cn.a, 0, v6), serverAddr, 2000);
        assertEquals(RdmaCmState.ADDR_QUERY, c.state());
        cn.advance(50);

        assertEquals(List.of(RdmaCmEventType.ADDR_RESOLVED, RdmaCmEventType.ROUTE_RESOLVED,
                RdmaCmEventType.ESTABLISHED), client.types());
        assertEquals(List.of(RdmaCmEventType.CONNECT_REQUEST, RdmaCmEventType.ESTABLISHED), server.types());
        assertSame(cn.dev(cn.a), c.device());
        assertEquals(1, c.portNum());
        assertEquals(RdmaCmState.CONNECT, c.state());
        RdmaRoute route = c.route();
        assertEquals(1, route.numPaths());
        assertEquals(!cn.isRoce(), !route.pathRec[0].roce);

        Ep.Rec req = server.only(RdmaCmEventType.CONNECT_REQUEST);
        RdmaCmId s = req.id();
        assertSame(listen, req.ev().listenId());
        assertSame("ctx", s.context(), "the new id starts with the listener's context");
        assertEquals("hello", text(req.ev().conn().privateData, 5));
        assertEquals(cn.isRoce() ? RdmaCm.REQ_PRIVATE_DATA_SIZE : 92, req.ev().conn().privateData.length,
                "the REQ's private data after the IP CM header");
        assertEquals(c.qp().qpNum(), req.ev().conn().qpNum);
        assertEquals(1, req.ev().conn().responderResources);
        assertEquals(7, req.ev().conn().rnrRetryCount);
        Ep.Rec est = client.only(RdmaCmEventType.ESTABLISHED);
        assertEquals("welcome", text(est.ev().conn().privateData, 7));
        assertEquals(s.qp().qpNum(), est.ev().conn().qpNum);

        if (cn.isRoce()) {
            InetSocketAddress cs = (InetSocketAddress) c.srcAddr();
            assertEquals(v6 ? cn.ip6(cn.a) : cn.ip4(cn.a), cs.getAddress(), "the source the route chose");
            assertTrue(cs.getPort() >= 32768 && cs.getPort() <= 60999, "an ephemeral port: " + cs);
            assertEquals(serverAddr, s.srcAddr(), "the passive side's source is the address asked for");
            assertEquals(cs, s.dstAddr(), "the passive side learns the requester from the IP CM header");
            assertEquals(serverAddr, c.dstAddr());
        } else {
            assertEquals(cn.gid(cn.a), ((IbSocketAddress) c.srcAddr()).gid());
            assertEquals(cn.gid(cn.b), ((IbSocketAddress) s.srcAddr()).gid());
            assertEquals(cn.gid(cn.a), ((IbSocketAddress) s.dstAddr()).gid());
            assertEquals(RdmaCm.IB_IP_PS_TCP | 7471, ((IbSocketAddress) s.srcAddr()).sid());
        }
        assertEquals(RdmaCm.IB_IP_PS_TCP | 7471, cm.getServiceId(c, serverAddr));

        List<RdmaCmIdDTO> dtos = cm.ids();
        assertEquals(3, dtos.size(), "listener and both ends: " + dtos);
        RdmaCmIdDTO cd = dtos.stream().filter(d -> d.lqpn == c.qp().qpNum() && d.device.equals(c.device().name()))
                .findFirst().orElseThrow();
        assertEquals(RdmaCmState.CONNECT, cd.state);
        assertEquals(RdmaPortSpace.TCP, cd.ps);
        assertEquals("RC", cd.qpType);
        assertNotNull(cd.owner);
        assertEquals(1, cn.dev(cn.a).restrack().counts().get("cm_id"));
        assertEquals(2, cn.dev(cn.b).restrack().counts().get("cm_id"), "listener and the new id are tracked");

        Res rc = client.res.get(c);
        Res rs = server.res.get(s);
        assertEquals(QpState.RTS, state(rc), "the CM moved the active QP to RTS");
        assertEquals(QpState.RTS, state(rs), "the CM moved the passive QP to RTS");
        traffic(rc, rs);

        cm.disconnect(c);
        cn.advance(20);
        assertEquals(RdmaCmEventType.DISCONNECTED, client.log.get(client.log.size() - 1).ev().event());
        server.only(RdmaCmEventType.DISCONNECTED);
        assertEquals(RdmaCmState.DISCONNECT, c.state());
        assertEquals(RdmaCmState.DISCONNECT, s.state());
        assertEquals(QpState.ERR, state(rc), "disconnect moves the QP to ERR");
        cn.advance(60_000);
        client.only(RdmaCmEventType.TIMEWAIT_EXIT);
        server.only(RdmaCmEventType.TIMEWAIT_EXIT);

        client.destroyAll();
        server.destroyAll();
        cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    static QpState state(Res r) {
        QpAttr a = new QpAttr();
        r.qp.query(a, QpAttrMask.STATE, new QpInitAttr());
        return a.qpState;
    }

    /** A SEND each way and an RDMA WRITE, all checked byte for byte. */
    private void traffic(Res a, Res b) {
        for (int i = 0; i < 1500; i++) {
            a.buf.put(4096 + i, (byte) (i * 7 + 1));
            b.buf.put(4096 + i, (byte) (i * 13 + 5));
        }
        a.postSend(4096, 1500, new SendWr());
        b.postSend(4096, 1000, new SendWr());
        cn.advance(20);
        a.poll();
        b.poll();
        assertEquals(WcStatus.SUCCESS, a.sent.get(0).status);
        assertEquals(WcOpcode.RECV, b.received.get(0).opcode);
        assertEquals(1500, b.received.get(0).byteLen);
        assertEquals(1000, a.received.get(0).byteLen);
        for (int i = 0; i < 1500; i++) {
            assertEquals((byte) (i * 7 + 1), b.buf.get(i), "SEND byte " + i);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals((byte) (i * 13 + 5), a.buf.get(i), "SEND back, byte " + i);
        }
        IbMr mr = b.pd.regMr(b.buf, 0x20_0000L, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        byte[] pattern = new byte[2000];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i ^ 0x5A);
            a.buf.put(i, pattern[i]);
        }
        SendWr w = new SendWr();
        w.opcode = WrOpcode.RDMA_WRITE;
        w.remoteAddr = 0x20_0000L + 6000;
        w.rkey = mr.rkey();
        a.postSend(0, pattern.length, w);
        cn.advance(20);
        a.poll();
        assertEquals(WcStatus.SUCCESS, a.sent.get(1).status, "RDMA WRITE completed");
        byte[] got = new byte[pattern.length];
        b.buf.get(6000, got);
        assertArrayEquals(pattern, got, "RDMA WRITE landed");
        mr.dereg();
    }
}
