package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.verbs.Errno;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;

/** librdmacm's event channels: read, acknowledge, migrate, and the rules for destroying. */
class EventChannelTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    private RdmaCmEvent next(RdmaEventChannel ch, RdmaCmEventType expected) throws InterruptedException {
        RdmaCmEvent ev = cn.cm.getCmEvent(ch, 0);
        assertEquals(expected, ev.event(), "" + ev);
        return ev;
    }

    private static RdmaConnParam param() {
        RdmaConnParam p = new RdmaConnParam();
        p.responderResources = 1;
        p.initiatorDepth = 1;
        return p;
    }

    @Test
    void aConnectionDrivenThroughChannels() throws Exception {
        cn = CmaNet.roce();
        RdmaCmService cm = cn.cm;
        RdmaEventChannel sch = cm.createEventChannel();
        RdmaEventChannel cch = cm.createEventChannel();
        RdmaCmId listen = cm.createId(sch, "L", RdmaPortSpace.TCP, QpType.RC);
        assertSame(sch, listen.channel());
        assertNull(listen.handler());
        cm.bindAddr(listen, cn.addr(cn.b, 7900));
        cm.listen(listen, 0);
        RdmaCmId c = cm.createId(cch, "C", RdmaPortSpace.TCP, QpType.RC);
        cm.resolveAddr(c, cn.addr(cn.a, 0), cn.addr(cn.b, 7900), 2000);
        cn.settle();
        RdmaCmEvent ev = next(cch, RdmaCmEventType.ADDR_RESOLVED);
        assertSame(c, ev.id());
        assertEquals("C", ev.id().context());
        cm.ackCmEvent(ev);
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> cm.ackCmEvent(ev)).errno(),
                "acknowledged already");
        cm.resolveRoute(c, 2000);
        cn.settle();
        cm.ackCmEvent(next(cch, RdmaCmEventType.ROUTE_RESOLVED));
        Res rc = new Res(cm, c);
        cm.connect(c, param());
        cn.settle();

        RdmaCmEvent req = next(sch, RdmaCmEventType.CONNECT_REQUEST);
        assertSame(listen, req.listenId());
        RdmaCmId s = req.id();
        assertEquals("L", s.context());
        assertSame(sch, s.channel(), "the new id reports to its listener's channel");
        assertEquals(Errno.EBUSY, assertThrows(RdmaException.class, () -> cm.destroyId(listen)).errno(),
                "its connect request is read and not acknowledged");
        Res rs = new Res(cm, s);
        cm.accept(s, param());
        cm.ackCmEvent(req);
        cn.settle();
        cm.ackCmEvent(next(cch, RdmaCmEventType.ESTABLISHED));
        cm.ackCmEvent(next(sch, RdmaCmEventType.ESTABLISHED));
        assertEquals(Errno.EAGAIN, assertThrows(RdmaException.class, () -> cm.getCmEvent(cch, 0)).errno());
        assertEquals(Errno.EBUSY, assertThrows(RdmaException.class, () -> cm.destroyEventChannel(cch)).errno(),
                "an id still reports to it");

        RdmaEventChannel mch = cm.createEventChannel();
        cm.disconnect(s);
        cn.settle();
        assertEquals(1, cch.pending());
        cm.migrateId(c, mch);
        assertEquals(0, cch.pending(), "the unread event moved with the id");
        assertSame(mch, c.channel());
        cm.ackCmEvent(next(mch, RdmaCmEventType.DISCONNECTED));
        assertEquals(0, sch.pending(), "the server waits for the DREP");
        cm.disconnect(c);
        cn.settle();
        cm.ackCmEvent(next(sch, RdmaCmEventType.DISCONNECTED));

        CompletableFuture<RdmaCmEvent> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return cm.getCmEvent(mch, 10_000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        cn.advance(60_000);
        RdmaCmEvent tw = waiter.get(10, TimeUnit.SECONDS);
        assertEquals(RdmaCmEventType.TIMEWAIT_EXIT, tw.event(), "a reader blocked on another thread gets it");
        assertSame(c, tw.id());
        cm.ackCmEvent(tw);
        cm.ackCmEvent(next(sch, RdmaCmEventType.TIMEWAIT_EXIT));

        rc.close();
        rs.close();
        cm.destroyId(c);
        cm.destroyId(s);
        cm.destroyId(listen);
        cm.destroyEventChannel(cch);
        cm.destroyEventChannel(mch);
        cm.destroyEventChannel(sch);
        cn.assertNoLeaks();
    }

    @Test
    void aListenerGoingTakesItsUnreadRequestsAlong() {
        cn = CmaNet.ib();
        RdmaEventChannel ch = cn.cm.createEventChannel();
        RdmaCmId listen = cn.cm.createId(ch, null, RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7901));
        cn.cm.listen(listen, 0);
        Ep client = new Ep(cn);
        RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c, cn.addr(cn.a, 0), cn.addr(cn.b, 7901), 2000);
        cn.advance(20);
        assertEquals(1, ch.pending());
        assertEquals(3, cn.cm.idsInUse(), "listener, client and the unread request's id");
        cn.cm.destroyId(listen);
        assertEquals(0, ch.pending());
        cn.advance(20);
        assertEquals(IbCmRejReason.CONSUMER_DEFINED.value, client.only(RdmaCmEventType.REJECTED).ev().status(),
                "the request's id went, so did its REQ");
        client.destroyAll();
        cn.cm.destroyEventChannel(ch);
        cn.assertNoLeaks();
    }
}
