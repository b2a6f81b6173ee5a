package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.fabric.FaultProfile;
import org.rdma.verbs.Errno;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/** ADDR_ERROR, ROUTE_ERROR, UNREACHABLE and the calls a state does not allow, all in virtual time. */
class ErrorPathTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    @Test
    void anAddressNobodyOwnsTimesOut() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        ep.autoRoute = false;
        RdmaCmId id = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(id, cn.addr(cn.a, 0), new InetSocketAddress(CmaNet.inet("192.168.7.99"), 1), 2000);
        cn.advance(1500);
        assertTrue(ep.log.isEmpty(), "no answer yet, the neighbour is asked again: " + ep.types());
        assertEquals(RdmaCmState.ADDR_QUERY, id.state());
        cn.advance(600);
        RdmaCmEvent err = ep.only(RdmaCmEventType.ADDR_ERROR).ev();
        assertEquals(Errno.ETIMEDOUT.negative(), err.status());
        assertEquals(RdmaCmState.ADDR_BOUND, id.state(), "back to bound, ready for another try");

        cn.cm.resolveAddr(id, null, cn.addr(cn.b, 1), 2000);
        cn.advance(10);
        ep.only(RdmaCmEventType.ADDR_RESOLVED);
        assertEquals(RdmaCmState.ADDR_RESOLVED, id.state());
        cn.cm.destroyId(id);
        cn.assertNoLeaks();
    }

    @Test
    void ipAddressesNeedRoce() {
        cn = CmaNet.ib();
        Ep ep = new Ep(cn);
        RdmaCmId id = ep.create(RdmaPortSpace.TCP, QpType.RC);
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.resolveAddr(id, null,
                new InetSocketAddress(CmaNet.inet("10.0.0.2"), 7471), 2000));
        assertEquals(Errno.EADDRNOTAVAIL, e.errno());
        assertTrue(e.getMessage().contains("IPoIB"), e.getMessage());
        assertEquals(RdmaCmState.ADDR_BOUND, id.state());
        RdmaCmId bound = ep.create(RdmaPortSpace.TCP, QpType.RC);
        e = assertThrows(RdmaException.class,
                () -> cn.cm.bindAddr(bound, new InetSocketAddress(CmaNet.inet("10.0.0.1"), 1)));
        assertEquals(Errno.EADDRNOTAVAIL, e.errno());
        cn.cm.destroyId(id);
        cn.cm.destroyId(bound);
        cn.assertNoLeaks();
    }

    @Test
    void noRouteForAFamilyNoPortHas() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        RdmaCmId id = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(id, cn.any(0));
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.resolveAddr(id, null,
                new InetSocketAddress(CmaNet.inet("fd00::7:2"), 1), 2000));
        assertEquals(Errno.EINVAL, e.errno(), "an IPv4 id cannot reach an IPv6 address");
        cn.cm.destroyId(id);
        cn.assertNoLeaks();
    }

    @Test
    void anUnansweredPathQueryIsRouteError() {
        cn = CmaNet.ib();
        Ep ep = new Ep(cn);
        ep.autoRoute = false;
        ep.autoConnect = false;
        RdmaCmId id = ep.create(RdmaPortSpace.TCP, QpType.RC);
        // the SA runs on h0 (cn.a): ask it from h1 across the link that loses everything
        cn.cm.resolveAddr(id, cn.addr(cn.b, 0), cn.addr(cn.a, 1), 2000);
        cn.advance(10);
        ep.only(RdmaCmEventType.ADDR_RESOLVED);
        cn.net.link("S0", cn.b).setFaults(FaultProfile.NONE.withDropRate(1.0));
        cn.cm.resolveRoute(id, 500);
        assertEquals(RdmaCmState.ROUTE_QUERY, id.state());
        cn.advance(10_000);
        RdmaCmEvent err = ep.only(RdmaCmEventType.ROUTE_ERROR).ev();
        assertEquals(Errno.ETIMEDOUT.negative(), err.status(), "the SA never answered");
        assertEquals(RdmaCmState.ADDR_RESOLVED, id.state());

        cn.net.link("S0", cn.b).setFaults(FaultProfile.NONE);
        cn.cm.resolveRoute(id, 500);
        cn.advance(10);
        ep.only(RdmaCmEventType.ROUTE_RESOLVED);
        assertEquals(cn.gid(cn.a), id.route().pathRec[0].dgid);
        assertEquals(cn.gid(cn.b), id.route().pathRec[0].sgid);
        cn.cm.destroyId(id);
        cn.assertNoLeaks();
    }

    @Test
    void aLostServerIsUnreachableAfterTheCmRetries() {
        cn = CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        client.autoConnect = false;
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7600));
        cn.cm.listen(listen, 0);
        RdmaCmId id = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(id, cn.addr(cn.a, 0), cn.addr(cn.b, 7600), 2000);
        cn.advance(10);
        client.only(RdmaCmEventType.ROUTE_RESOLVED);
        Res r = new Res(cn.cm, id);
        cn.net.link("S0", cn.b).setFaults(FaultProfile.NONE.withDropRate(1.0));
        RdmaConnParam p = new RdmaConnParam();
        p.responderResources = 1;
        p.initiatorDepth = 1;
        cn.cm.connect(id, p);
        assertEquals(RdmaCmState.CONNECT, id.state());
        assertThrows(RdmaException.class, () -> cn.cm.connect(id, p), "connecting already");
        cn.advance(60_000);
        assertTrue(client.events(RdmaCmEventType.UNREACHABLE).isEmpty(), "still retrying: " + client.types());
        cn.advance(120_000);
        RdmaCmEvent u = client.only(RdmaCmEventType.UNREACHABLE).ev();
        assertEquals(Errno.ETIMEDOUT.negative(), u.status());
        assertEquals(RdmaCm.MAX_CM_RETRIES, cn.ibcm.counter(cn.dev(cn.a), 1, IbCmCounterGroup.XMIT_RETRIES,
                IbCm.REQ_ATTR_ID), "every retry of the REQ was sent");
        assertTrue(server.log.isEmpty(), "the server never heard: " + server.types());

        cn.net.link("S0", cn.b).setFaults(FaultProfile.NONE);
        r.close();
        cn.cm.destroyId(id);
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @Test
    void callsTheStateDoesNotAllow() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        RdmaCmId id = ep.create(RdmaPortSpace.TCP, QpType.RC);
        RdmaCmId ud = ep.create(RdmaPortSpace.UDP, QpType.UD);
        List<Runnable> wrong = List.of(
                () -> cn.cm.resolveRoute(id, 100),
                () -> cn.cm.connect(id, new RdmaConnParam()),
                () -> cn.cm.accept(id, new RdmaConnParam()),
                () -> cn.cm.disconnect(id),
                () -> cn.cm.reject(id, null, null),
                () -> cn.cm.establish(id),
                () -> cn.cm.destroyQp(id),
                () -> cn.cm.initQpAttr(id, new org.rdma.verbs.QpAttr()),
                () -> cn.cm.notify(id, org.rdma.verbs.IbEventType.COMM_EST),
                () -> cn.cm.createId((RdmaCmHandler) null, null, RdmaPortSpace.TCP, QpType.RC),
                () -> cn.cm.createId(ep, null, RdmaPortSpace.TCP, QpType.XRC_INI),
                () -> cn.cm.setOption(ud, RdmaOption.ID_ACK_TIMEOUT, 14));
        for (Runnable r : wrong) {
            assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, r::run).errno());
        }
        cn.cm.ids().forEach(d -> assertEquals(RdmaCmState.IDLE, d.state));
        ep.ret = (i, e) -> {
            assertThrows(RdmaException.class, () -> cn.cm.destroyId(i), "not from its own handler");
            return 0;
        };
        cn.cm.resolveAddr(id, cn.addr(cn.a, 0), cn.addr(cn.b, 1), 100);
        ep.autoRoute = false;
        cn.advance(10);
        ep.only(RdmaCmEventType.ADDR_RESOLVED);
        cn.cm.destroyId(id);
        assertEquals(RdmaCmState.DESTROYING, id.state());
        cn.cm.destroyId(ud);
        cn.assertNoLeaks();
    }
}
