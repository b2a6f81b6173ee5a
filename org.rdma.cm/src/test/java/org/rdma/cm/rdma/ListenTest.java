package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.verbs.Errno;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/** Listening: wildcard and specific addresses, loopback, port sharing rules, rejects, the backlog. */
class ListenTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void wildcardListenTakesRequestsOnEveryDevice(boolean roce) {
        cn = roce ? CmaNet.roce() : CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.any(7000));
        cn.cm.listen(listen, 0);
        assertNull(listen.device(), "a wildcard listen is on no one device");
        List<RdmaCmIdDTO> internal = cn.cm.ids().stream().filter(d -> d.internal).toList();
        assertEquals(2, internal.size(), "one listener per device: " + internal);
        assertTrue(internal.stream().allMatch(d -> d.state == RdmaCmState.LISTEN));

        RdmaCmId toB = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(toB, cn.addr(cn.a, 0), cn.addr(cn.b, 7000), 2000);
        RdmaCmId toA = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(toA, cn.addr(cn.b, 0), cn.addr(cn.a, 7000), 2000);
        cn.advance(50);
        List<Ep.Rec> reqs = server.events(RdmaCmEventType.CONNECT_REQUEST);
        assertEquals(2, reqs.size(), "a request through each device: " + server.types());
        for (Ep.Rec r : reqs) {
            assertSame(listen, r.ev().listenId(), "reported against the consumer's listener");
        }
        assertEquals(cn.dev(cn.b), reqs.get(0).id().device());
        assertEquals(cn.dev(cn.a), reqs.get(1).id().device());
        assertEquals(2, client.events(RdmaCmEventType.ESTABLISHED).size(), "" + client.types());

        client.destroyAll();
        server.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void loopbackOnOneDevice(boolean roce) {
        cn = roce ? CmaNet.roce() : CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7001));
        cn.cm.listen(listen, 0);
        RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c, null, cn.addr(cn.b, 7001), 2000);
        cn.advance(50);
        assertSame(cn.dev(cn.b), c.device(), "the destination is a local address: the route is its own device");
        assertEquals(c.route().sgid, c.route().dgid);
        client.only(RdmaCmEventType.ESTABLISHED);
        server.only(RdmaCmEventType.ESTABLISHED);
        cn.cm.disconnect(c);
        cn.advance(100);
        client.only(RdmaCmEventType.DISCONNECTED);
        server.only(RdmaCmEventType.DISCONNECTED);
        client.destroyAll();
        server.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @Test
    void specificAddressListensOnlyForItsAddress() {
        cn = CmaNet.roce();
        cn.net.hcas.get(1).addIpAddress(1, "192.168.7.12");
        cn.settle();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        InetSocketAddress second = new InetSocketAddress(CmaNet.inet("192.168.7.12"), 7002);
        cn.cm.bindAddr(listen, second);
        cn.cm.listen(listen, 0);

        RdmaCmId wrong = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(wrong, cn.addr(cn.a, 0), cn.addr(cn.b, 7002), 2000);
        RdmaCmId right = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(right, cn.addr(cn.a, 0), second, 2000);
        cn.advance(50);
        assertEquals(List.of(RdmaCmEventType.ADDR_RESOLVED, RdmaCmEventType.ROUTE_RESOLVED,
                RdmaCmEventType.REJECTED), client.types(wrong), "no listener for 192.168.7.2:7002");
        Ep.Rec rej = client.events(RdmaCmEventType.REJECTED).get(0);
        assertEquals(IbCmRejReason.CONSUMER_DEFINED.value, rej.ev().status());
        assertEquals(List.of(RdmaCmEventType.ADDR_RESOLVED, RdmaCmEventType.ROUTE_RESOLVED,
                RdmaCmEventType.ESTABLISHED), client.types(right));
        assertEquals(second, server.only(RdmaCmEventType.CONNECT_REQUEST).id().srcAddr());
        client.destroyAll();
        cn.cm.destroyId(wrong);
        server.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @Test
    void portSharingFollowsTheKernelsRules() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        RdmaCmId any = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(any, cn.any(7100));
        RdmaCmId specific = ep.create(RdmaPortSpace.TCP, QpType.RC);
        RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.bindAddr(specific, cn.addr(cn.b, 7100)));
        assertEquals(Errno.EADDRNOTAVAIL, e.errno(), "a wildcard holds the port for every address");
        assertEquals(RdmaCmState.IDLE, specific.state(), "a failed bind leaves the id idle");
        cn.cm.bindAddr(specific, cn.addr(cn.b, 7101));
        RdmaCmId same = ep.create(RdmaPortSpace.TCP, QpType.RC);
        e = assertThrows(RdmaException.class, () -> cn.cm.bindAddr(same, cn.addr(cn.b, 7101)));
        assertEquals(Errno.EADDRINUSE, e.errno());
        cn.cm.bindAddr(same, cn.addr(cn.a, 7101));
        RdmaCmId otherSpace = ep.create(RdmaPortSpace.UDP, QpType.UD);
        cn.cm.bindAddr(otherSpace, cn.addr(cn.b, 7101));

        RdmaCmId r1 = ep.create(RdmaPortSpace.TCP, QpType.RC);
        RdmaCmId r2 = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.setOption(r1, RdmaOption.ID_REUSEADDR, 1);
        cn.cm.setOption(r2, RdmaOption.ID_REUSEADDR, 1);
        cn.cm.bindAddr(r1, cn.addr(cn.b, 7102));
        cn.cm.bindAddr(r2, cn.addr(cn.b, 7102));
        e = assertThrows(RdmaException.class, () -> cn.cm.listen(r1, 0));
        assertEquals(Errno.EADDRINUSE, e.errno(), "a listener must be alone on its address, reuse or not");
        assertEquals(RdmaCmState.ADDR_BOUND, r1.state());
        cn.cm.destroyId(r2);
        cn.cm.listen(r1, 0);
        assertEquals(RdmaCmState.LISTEN, r1.state());
        RdmaCmId r3 = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.setOption(r3, RdmaOption.ID_REUSEADDR, 1);
        e = assertThrows(RdmaException.class, () -> cn.cm.bindAddr(r3, cn.addr(cn.b, 7102)));
        assertEquals(Errno.EADDRINUSE, e.errno(), "a listener no longer shares its port");

        RdmaCmId foreign = ep.create(RdmaPortSpace.TCP, QpType.RC);
        e = assertThrows(RdmaException.class, () -> cn.cm.bindAddr(foreign,
                new InetSocketAddress(CmaNet.inet("10.1.1.1"), 1)));
        assertEquals(Errno.EADDRNOTAVAIL, e.errno(), "no port has 10.1.1.1");
        assertThrows(RdmaException.class, () -> cn.cm.bindAddr(any, cn.any(7200)), "bound already");
        for (RdmaCmIdDTO d : cn.cm.ids()) {
            assertTrue(d.state == RdmaCmState.ADDR_BOUND || d.state == RdmaCmState.LISTEN
                    || d.state == RdmaCmState.IDLE, d.toString());
        }
        for (RdmaCmId id : List.of(any, specific, same, otherSpace, r1, r3, foreign)) {
            cn.cm.destroyId(id);
        }
        cn.assertNoLeaks();
    }

    @Test
    void rejectCarriesReasonAndPrivateData() {
        cn = CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        server.rejectData = "go away".getBytes(StandardCharsets.US_ASCII);
        server.ret = (id, ev) -> ev.event() == RdmaCmEventType.CONNECT_REQUEST ? 1 : 0;
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7300));
        cn.cm.listen(listen, 0);
        RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c, cn.addr(cn.a, 0), cn.addr(cn.b, 7300), 2000);
        cn.advance(50);
        Ep.Rec rej = client.only(RdmaCmEventType.REJECTED);
        assertEquals(IbCmRejReason.CONSUMER_DEFINED.value, rej.ev().status());
        assertEquals("go away", new String(rej.ev().consumerRejectData(), 0, 7, StandardCharsets.US_ASCII));
        assertEquals(148, rej.ev().conn().privateData.length, "the REJ's private data area");
        assertEquals(1, cn.cm.ids().stream().filter(d -> d.device != null && d.device.equals(cn.dev(cn.b).name()))
                .count(), "the rejected id was destroyed by its handler's return value");

        RdmaCmId nobody = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(nobody, cn.addr(cn.a, 0), cn.addr(cn.b, 7399), 2000);
        cn.advance(50);
        assertEquals(IbCmRejReason.INVALID_SERVICE_ID.value, client.events(RdmaCmEventType.REJECTED).get(1).ev()
                .status(), "no one listens on port 7399: the IB CM rejects the service ID");
        assertNull(client.events(RdmaCmEventType.REJECTED).get(1).ev().consumerRejectData());
        client.destroyAll();
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }

    @Test
    void backlogDropsRequestsBeyondItUntilOneIsRead() throws InterruptedException {
        cn = CmaNet.roce();
        RdmaEventChannel ch = cn.cm.createEventChannel();
        RdmaCmId listen = cn.cm.createId(ch, "server", RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7400));
        cn.cm.listen(listen, 1);
        Ep client = new Ep(cn);
        RdmaCmId c1 = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c1, cn.addr(cn.a, 0), cn.addr(cn.b, 7400), 2000);
        cn.advance(20);
        RdmaCmId c2 = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c2, cn.addr(cn.a, 0), cn.addr(cn.b, 7400), 2000);
        cn.advance(20);
        assertEquals(1, ch.pending(), "the second request found the backlog full and was dropped");
        assertTrue(client.events(RdmaCmEventType.REJECTED).isEmpty(), "dropped, not rejected: the peer retries");

        RdmaCmEvent first = cn.cm.getCmEvent(ch, 0);
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, first.event());
        assertSame(listen, first.listenId());
        Res r = new Res(cn.cm, first.id());
        RdmaConnParam p = new RdmaConnParam();
        p.responderResources = 1;
        p.initiatorDepth = 1;
        cn.cm.accept(first.id(), p);
        cn.cm.ackCmEvent(first);
        cn.advance(6000);
        RdmaCmEvent est = cn.cm.getCmEvent(ch, 0);
        assertEquals(RdmaCmEventType.ESTABLISHED, est.event());
        cn.cm.ackCmEvent(est);
        RdmaCmEvent second = cn.cm.getCmEvent(ch, 0);
        assertEquals(RdmaCmEventType.CONNECT_REQUEST, second.event(), "the REQ came again after the CM timeout");
        cn.cm.reject(second.id(), null, IbCmRejReason.CONSUMER_DEFINED);
        cn.cm.ackCmEvent(second);
        cn.advance(20);
        client.only(RdmaCmEventType.REJECTED);
        assertEquals(List.of(RdmaCmEventType.ADDR_RESOLVED, RdmaCmEventType.ROUTE_RESOLVED,
                RdmaCmEventType.ESTABLISHED), client.types(c1));

        RdmaCmId server1 = first.id();
        r.close();
        cn.cm.destroyId(server1);
        cn.cm.destroyId(second.id());
        cn.cm.destroyId(listen);
        client.destroyAll();
        cn.cm.destroyId(c2);
        while (ch.pending() > 0) {
            cn.cm.ackCmEvent(cn.cm.getCmEvent(ch, 0));
        }
        cn.cm.destroyEventChannel(ch);
        cn.assertNoLeaks();
    }
}
