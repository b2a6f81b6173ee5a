package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.SendWr;

/**
 * A device going away under connected traffic: every id bound to it hears DEVICE_REMOVAL, the CM
 * takes back what it holds there (IB CM ids, QPs, listens), the peers are disconnected, and
 * nothing of the CM is left on the device.
 */
class DeviceRemovalTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void everyIdOfTheDeviceHearsOfItAndNothingLeaks(boolean roce) {
        cn = roce ? CmaNet.roce() : CmaNet.ib();
        CoreDevice gone = cn.dev(cn.b);
        int before = CmaNet.tracked(gone);
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        RdmaCmId listenAny = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listenAny, cn.any(7700));
        cn.cm.listen(listenAny, 0);
        RdmaCmId listenB = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listenB, cn.addr(cn.b, 7701));
        cn.cm.listen(listenB, 0);
        RdmaCmId c1 = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c1, cn.addr(cn.a, 0), cn.addr(cn.b, 7700), 2000);
        RdmaCmId c2 = client.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.resolveAddr(c2, cn.addr(cn.a, 0), cn.addr(cn.b, 7701), 2000);
        cn.advance(50);
        List<Ep.Rec> reqs = server.events(RdmaCmEventType.CONNECT_REQUEST);
        assertEquals(2, reqs.size());
        RdmaCmId s1 = reqs.get(0).id();
        RdmaCmId s2 = reqs.get(1).id();
        assertEquals(2, client.events(RdmaCmEventType.ESTABLISHED).size());

        // traffic in flight both ways, nothing polled
        for (Res r : List.of(client.res.get(c1), client.res.get(c2), server.res.get(s1), server.res.get(s2))) {
            r.postSend(4096, 512, new SendWr());
        }
        // s2's consumer frees everything and has the CM destroy the id; s1's leaves its QP to the CM
        server.ret = (id, ev) -> {
            if (ev.event() == RdmaCmEventType.DEVICE_REMOVAL && id == s2) {
                server.res.remove(id).close();
                return 1;
            }
            return 0;
        };

        cn.cm.remove(gone, null);
        List<RdmaCmEventType> connected = List.of(RdmaCmEventType.CONNECT_REQUEST, RdmaCmEventType.ESTABLISHED,
                RdmaCmEventType.DEVICE_REMOVAL);
        assertEquals(connected, server.types(s1));
        assertEquals(connected, server.types(s2));
        assertEquals(List.of(RdmaCmEventType.DEVICE_REMOVAL), server.types(listenB));
        assertTrue(server.types(listenAny).isEmpty(), "the wildcard listener is on no one device");
        assertEquals(RdmaCmState.DEVICE_REMOVAL, s1.state());
        assertEquals(RdmaCmState.DESTROYING, s2.state(), "its handler asked to destroy it");
        assertEquals(RdmaCmState.DEVICE_REMOVAL, listenB.state());
        assertNull(s1.device());
        assertNull(s1.qp(), "the CM destroyed the QP the consumer left (its WRs flushed)");
        server.res.remove(s1).close();
        assertEquals(RdmaCmState.LISTEN, listenAny.state(), "it keeps listening on the other device");
        List<RdmaCmIdDTO> internal = cn.cm.ids().stream().filter(d -> d.internal).toList();
        assertEquals(1, internal.size());
        assertEquals(cn.dev(cn.a).name(), internal.get(0).device);

        cn.advance(20);
        assertEquals(0, gone.restrack().counts().get("cm_id"));
        assertEquals(before, CmaNet.tracked(gone), "the CM left nothing on the device: "
                + gone.restrack().dtos(null).stream().map(d -> d.type + "/" + d.owner).toList());
        assertEquals(2, client.events(RdmaCmEventType.DISCONNECTED).size(),
                "the peers were sent DREQs: " + client.types());

        cn.net.removeDevice(cn.b);
        cn.cm.destroyId(s1);
        cn.cm.destroyId(listenB);
        cn.cm.destroyId(listenAny);
        client.destroyAll();
        cn.assertNoLeaks();
    }
}
