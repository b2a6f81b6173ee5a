package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.cm.ib.IbCmSidrStatus;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.WcStatus;

/** UD ids: service ID resolution through SIDR, and multicast groups on InfiniBand (SA) and RoCE. */
class UdTest {
    /** The GRH area in front of every UD receive. */
    private static final int GRH = 40;
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    private SocketAddress udAddr(String host, int port) {
        if (cn.isRoce()) {
            return new InetSocketAddress(cn.ip4(host), port);
        }
        return IbSocketAddress.of(cn.gid(host), RdmaPortSpace.UDP, port);
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void sidrResolvesTheServiceAndDatagramsFlow(boolean roce) {
        cn = roce ? CmaNet.roce() : CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        client.connectData = "sidr please".getBytes(StandardCharsets.US_ASCII);
        RdmaCmId listen = server.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.bindAddr(listen, udAddr(cn.b, 7500));
        cn.cm.listen(listen, 0);
        RdmaCmId c = client.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.resolveAddr(c, udAddr(cn.a, 0), udAddr(cn.b, 7500), 2000);
        cn.advance(50);

        Ep.Rec req = server.only(RdmaCmEventType.CONNECT_REQUEST);
        assertEquals(QpType.UD, req.id().qpType());
        assertEquals("sidr please", new String(req.ev().ud().privateData, 0, 11, StandardCharsets.US_ASCII));
        assertEquals(roce ? RdmaCm.SIDR_REQ_PRIVATE_DATA_SIZE : 216, req.ev().ud().privateData.length);
        assertEquals(List.of(RdmaCmEventType.ADDR_RESOLVED, RdmaCmEventType.ROUTE_RESOLVED,
                RdmaCmEventType.ESTABLISHED), client.types());
        RdmaUdParam ud = client.only(RdmaCmEventType.ESTABLISHED).ev().ud();
        Res rs = server.res.get(req.id());
        Res rc = client.res.get(c);
        assertEquals(rs.qp.qpNum(), ud.qpNum, "the SIDR_REP names the server's QP");
        assertEquals(RdmaCm.UDP_QKEY, ud.qkey);
        assertTrue(ud.ahAttr.hasGrh() || !roce);

        byte[] msg = "a datagram".getBytes(StandardCharsets.US_ASCII);
        rc.buf.put(4096, msg);
        IbAh ah = rc.pd.createAh(ud.ahAttr, 0);
        SendWr w = new SendWr();
        w.ah = ah;
        w.remoteQpn = ud.qpNum;
        w.remoteQkey = ud.qkey;
        rc.postSend(4096, msg.length, w);
        cn.advance(20);
        rc.poll();
        rs.poll();
        assertEquals(WcStatus.SUCCESS, rc.sent.get(0).status);
        assertEquals(1, rs.received.size(), "the server's QP got the datagram");
        assertEquals(GRH + msg.length, rs.received.get(0).byteLen);
        byte[] got = new byte[msg.length];
        rs.buf.get(GRH, got);
        assertArrayEquals(msg, got);
        ah.destroy();

        client.destroyAll();
        server.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @Test
    void sidrRejectIsUnreachable() {
        cn = CmaNet.roce();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        server.rejectData = "no".getBytes(StandardCharsets.US_ASCII);
        server.ret = (id, ev) -> ev.event() == RdmaCmEventType.CONNECT_REQUEST ? 1 : 0;
        RdmaCmId listen = server.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.bindAddr(listen, udAddr(cn.b, 7501));
        cn.cm.listen(listen, 0);
        RdmaCmId c = client.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.resolveAddr(c, udAddr(cn.a, 0), udAddr(cn.b, 7501), 2000);
        cn.advance(50);
        Ep.Rec u = client.only(RdmaCmEventType.UNREACHABLE);
        assertEquals(IbCmSidrStatus.REJECT.value(), u.ev().status());
        assertEquals("no", new String(u.ev().ud().privateData, 0, 2, StandardCharsets.US_ASCII));
        client.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void multicastJoinSendAndLeave(boolean roce) {
        cn = roce ? CmaNet.roce() : CmaNet.ib();
        Ep ep = new Ep(cn);
        RdmaCmId a = ep.create(RdmaPortSpace.UDP, QpType.UD);
        RdmaCmId b = ep.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.bindAddr(a, udAddr(cn.a, 0));
        cn.cm.bindAddr(b, udAddr(cn.b, 0));
        Res ra = new Res(cn.cm, a);
        Res rb = new Res(cn.cm, b);
        rb.postRecv(0, 2048);
        InetSocketAddress group = new InetSocketAddress(CmaNet.inet("224.1.2.3"), 0);
        cn.cm.joinMulticast(a, group, McMemberRecord.FULLMEMBER_JOIN, "group@a");
        cn.cm.joinMulticast(b, group, McMemberRecord.FULLMEMBER_JOIN, "group@b");
        RdmaException dup = assertThrows(RdmaException.class,
                () -> cn.cm.joinMulticast(b, group, McMemberRecord.FULLMEMBER_JOIN, null));
        assertEquals(Errno.EADDRINUSE, dup.errno());
        cn.advance(50);

        List<Ep.Rec> joins = ep.events(RdmaCmEventType.MULTICAST_JOIN);
        assertEquals(2, joins.size(), "both joined: " + ep.types());
        RdmaUdParam ud = joins.stream().filter(r -> r.id() == a).findFirst().orElseThrow().ev().ud();
        assertEquals("group@a", ud.context);
        assertEquals(RdmaCm.MULTICAST_QPN, ud.qpNum);
        assertEquals(RdmaCm.UDP_QKEY, ud.qkey);
        Gid mgid = ud.ahAttr.grh.dgid;
        if (roce) {
            assertEquals(Gid.parse("::ffff:224.1.2.3"), mgid, "RoCE v2: the IPv4-mapped group address");
        } else {
            assertEquals(Gid.parse("ff12:4001:ffff:0000:0000:0000:e001:0203"), mgid,
                    "IPoIB's mapping with the RDMA CM's UDP signature");
            assertTrue(ud.ahAttr.dlid >= 0xC000, "a multicast LID from the SA: " + ud.ahAttr.dlid);
            assertNotNull(cn.net.sa.getMcmemberRec(cn.dev(cn.b), 1, mgid), "the SA membership is cached");
        }

        byte[] msg = "to the group".getBytes(StandardCharsets.US_ASCII);
        ra.buf.put(4096, msg);
        IbAh ah = ra.pd.createAh(ud.ahAttr, 0);
        SendWr w = new SendWr();
        w.ah = ah;
        w.remoteQpn = ud.qpNum;
        w.remoteQkey = ud.qkey;
        ra.postSend(4096, msg.length, w);
        cn.advance(20);
        ra.poll();
        rb.poll();
        assertEquals(WcStatus.SUCCESS, ra.sent.get(0).status);
        assertEquals(1, rb.received.size(), "the member on b got the multicast datagram");
        byte[] got = new byte[msg.length];
        rb.buf.get(GRH, got);
        assertArrayEquals(msg, got);
        ah.destroy();

        cn.cm.leaveMulticast(b, group);
        assertEquals(1, cn.cm.groupsJoined());
        assertThrows(RdmaException.class, () -> cn.cm.leaveMulticast(b, group), "left already");
        cn.settle();
        if (!roce) {
            assertThrows(RdmaException.class, () -> cn.net.sa.getMcmemberRec(cn.dev(cn.b), 1, mgid),
                    "b's port left the group");
        }
        if (roce) {
            RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.joinMulticast(b,
                    new InetSocketAddress(CmaNet.inet("ff0e::1:2"), 0), McMemberRecord.FULLMEMBER_JOIN, null));
            assertEquals(Errno.EOPNOTSUPP, e.errno(), "IPv6 groups on RoCE v2, as the kernel");
        }
        ra.close();
        rb.close();
        cn.cm.destroyId(a);
        cn.cm.destroyId(b);
        cn.assertNoLeaks();
    }

    @Test
    void joinNeedsABoundUdId() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        RdmaCmId rc = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(rc, cn.addr(cn.a, 0));
        InetSocketAddress group = new InetSocketAddress(CmaNet.inet("224.1.2.3"), 0);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.joinMulticast(rc, group, McMemberRecord.FULLMEMBER_JOIN, null)).errno());
        RdmaCmId unbound = ep.create(RdmaPortSpace.UDP, QpType.UD);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> cn.cm.joinMulticast(unbound, group, McMemberRecord.FULLMEMBER_JOIN, null)).errno());
        cn.cm.destroyId(rc);
        cn.cm.destroyId(unbound);
        cn.assertNoLeaks();
    }
}
