package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;

/** Id options reaching the path and the QP, rdma_init_qp_attr(), rdma_notify() and rdma_establish(). */
class OptionsTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    @Test
    void typeOfServiceAndAckTimeoutShapeTheRoceRoute() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        ep.autoConnect = false;
        RdmaCmId id = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.setServiceType(id, 0x68);
        cn.cm.setOption(id, RdmaOption.ID_ACK_TIMEOUT, 14);
        cn.cm.resolveAddr(id, cn.addr(cn.a, 0), cn.addr(cn.b, 1), 2000);
        cn.advance(10);
        ep.only(RdmaCmEventType.ROUTE_RESOLVED);
        RdmaRoute r = id.route();
        assertEquals(0x68, r.pathRec[0].trafficClass, "the type of service is the traffic class");
        assertEquals(13, r.pathRec[0].packetLifeTime, "half the ACK timeout (IBTA 12.7.34)");
        assertEquals(0xFFFF, r.pathRec[0].pkey);
        assertEquals(64, r.pathRec[0].hopLimit);
        assertEquals(cn.dev(cn.a).queryPort(1).activeMtu.value, r.pathRec[0].mtu);
        int sport = ((java.net.InetSocketAddress) id.srcAddr()).getPort();
        assertEquals((sport * 31 + 1) & 0xFFFFF, r.pathRec[0].flowLabel, "RoCE v2 flow label from the ports");

        Res res = new Res(cn.cm, id);
        QpAttr a = new QpAttr();
        a.qpState = QpState.INIT;
        int mask = cn.cm.initQpAttr(id, a);
        assertEquals(QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS, mask);
        assertEquals(1, a.portNum);
        assertEquals(0, a.qpAccessFlags, "no remote access before the peer is known");
        assertEquals(QpState.INIT, RdmaConnectTest.state(res), "rdma_create_qp() leaves a connected QP in INIT");
        res.close();
        cn.cm.destroyId(id);
        cn.assertNoLeaks();
    }

    @Test
    void udQpsComeUpReadyToSend() {
        cn = CmaNet.ib();
        Ep ep = new Ep(cn);
        RdmaCmId id = ep.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.bindAddr(id, IbSocketAddress.of(cn.gid(cn.a), RdmaPortSpace.UDP, 0));
        Res res = new Res(cn.cm, id);
        QpAttr a = new QpAttr();
        res.qp.query(a, QpAttrMask.STATE | QpAttrMask.QKEY, new org.rdma.verbs.QpInitAttr());
        assertEquals(QpState.RTS, a.qpState);
        assertEquals(RdmaCm.UDP_QKEY, a.qkey);
        res.close();
        cn.cm.destroyId(id);
        cn.assertNoLeaks();
    }

    @Test
    void notifyEstablishesBeforeTheRtu() {
        cn = CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        server.ret = (id, ev) -> {
            if (ev.event() == RdmaCmEventType.CONNECT_REQUEST) {
                // as a ULP does when data arrives on its QP before the RTU (IB_EVENT_COMM_EST)
                cn.cm.notify(id, IbEventType.COMM_EST);
            }
            return 0;
        };
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7650));
        cn.cm.listen(listen, 0);
        RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c, cn.addr(cn.a, 0), cn.addr(cn.b, 7650), 2000);
        cn.advance(20);
        assertEquals(List.of(RdmaCmEventType.CONNECT_REQUEST, RdmaCmEventType.ESTABLISHED), server.types(),
                "one ESTABLISHED, from the notification; the RTU then changes nothing");
        client.only(RdmaCmEventType.ESTABLISHED);
        client.destroyAll();
        server.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @Test
    void withoutACmQpTheConsumerEstablishes() {
        cn = CmaNet.roce();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        client.autoConnect = false;
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7651));
        cn.cm.listen(listen, 0);
        RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c, cn.addr(cn.a, 0), cn.addr(cn.b, 7651), 2000);
        cn.advance(10);
        RdmaConnParam p = new RdmaConnParam();
        p.qpNum = 0x4242;
        p.responderResources = 1;
        p.initiatorDepth = 1;
        cn.cm.connect(c, p);
        cn.advance(10);
        RdmaCmEvent resp = client.only(RdmaCmEventType.CONNECT_RESPONSE).ev();
        assertTrue(resp.conn().qpNum != 0, "the REP names the server's QP");
        assertEquals(0x4242, server.only(RdmaCmEventType.CONNECT_REQUEST).ev().conn().qpNum,
                "the REQ carried the consumer's QP number");
        assertTrue(server.events(RdmaCmEventType.ESTABLISHED).isEmpty(), "no RTU yet");
        cn.cm.establish(c);
        cn.advance(10);
        server.only(RdmaCmEventType.ESTABLISHED);
        client.destroyAll();
        cn.cm.destroyId(c);
        server.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }
}
