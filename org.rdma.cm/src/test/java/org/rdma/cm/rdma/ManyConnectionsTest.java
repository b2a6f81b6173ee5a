package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.verbs.QpType;

/** 10,000 connections established and torn down, 500 at a time: nothing of them is left. */
class ManyConnectionsTest {
    private static final int ROUNDS = 20;
    /** Fewer than QP1's receive queue holds, so no REQ of a burst waits for a retry. */
    private static final int PER_ROUND = 500;
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void tenThousandConnectionsLeaveNothingBehind(boolean roce) {
        cn = roce ? CmaNet.roce() : CmaNet.ib();
        Ep server = new Ep(cn);
        Ep client = new Ep(cn);
        server.recvs = 1;
        client.recvs = 1;
        RdmaCmId listen = server.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7800));
        cn.cm.listen(listen, 0);
        int established = 0;
        for (int round = 0; round < ROUNDS; round++) {
            List<RdmaCmId> ids = new ArrayList<>();
            for (int i = 0; i < PER_ROUND; i++) {
                RdmaCmId c = client.create(RdmaPortSpace.TCP, QpType.RC);
                cn.cm.resolveAddr(c, cn.addr(cn.a, 0), cn.addr(cn.b, 7800), 2000);
                ids.add(c);
            }
            cn.advance(50);
            assertEquals(PER_ROUND, client.events(RdmaCmEventType.ESTABLISHED).size(), "round " + round);
            assertEquals(PER_ROUND, server.events(RdmaCmEventType.ESTABLISHED).size(), "round " + round);
            assertEquals(2 * PER_ROUND + 1, cn.cm.idsInUse());
            established += PER_ROUND;
            for (RdmaCmId c : ids) {
                cn.cm.disconnect(c);
            }
            cn.advance(50);
            assertEquals(PER_ROUND, client.events(RdmaCmEventType.DISCONNECTED).size(), "round " + round);
            assertEquals(PER_ROUND, server.events(RdmaCmEventType.DISCONNECTED).size(), "round " + round);
            client.destroyAll();
            server.destroyAll();
            assertEquals(1, cn.cm.idsInUse(), "only the listener is left after round " + round);
            client.log.clear();
            server.log.clear();
        }
        assertEquals(ROUNDS * PER_ROUND, established);
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }
}
