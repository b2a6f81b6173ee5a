package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmIdDTO;
import org.rdma.cm.ib.IbCmState;
import org.rdma.sm.testkit.Verbs;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.WcStatus;

/** A device going away with connections on it: every id hears of it, everything is cleaned, nothing leaks. */
class DeviceRemovalTest {
    @Test
    void removingADeviceEndsEveryConnectionOnItBeforeRemoveReturns() {
        try (CmNet cn = CmNet.ib()) {
            Peer a = new Peer(cn, cn.a);
            Peer b = new Peer(cn, cn.b);
            IbCmId listenB = b.listen();
            a.listen();
            IbCmId c1 = a.connect(cn.b, Peer.SID, null);
            IbCmId c2 = a.connect(cn.b, Peer.SID, null);
            cn.advance(10);
            assertEquals(IbCmState.ESTABLISHED, c2.state());
            b.accept = false;
            a.accept = false;
            IbCmId pendingAtB = a.connect(cn.b, Peer.SID, null);
            IbCmId fromB = b.connect(cn.a, Peer.SID, null);
            cn.advance(10);
            assertEquals(IbCmState.REQ_SENT, fromB.state());
            assertEquals(IbCmState.REQ_SENT, pendingAtB.state());

            // the consumer on b releases its QP and its id when the CM tells it the connection is gone
            b.ret = (id, ev) -> {
                if (ev.sendStatus() == WcStatus.WR_FLUSH_ERR) {
                    Verbs v = b.qps.remove(id);
                    if (v != null) {
                        v.close();
                    }
                    return 1;
                }
                return 0;
            };
            IbDevice devB = cn.dev(cn.b);
            int left = cn.net.removeDevice(cn.b);
            assertEquals(2, b.events(IbCmEventType.DREQ_ERROR).size(), "both established connections: " + b.types());
            assertEquals(1, b.events(IbCmEventType.REP_ERROR).size(), "the REQ b had not answered");
            assertEquals(1, b.events(IbCmEventType.REQ_ERROR).size(), "b's own REQ, flushed");
            assertTrue(b.qps.isEmpty());
            assertEquals(0, left, "the CM and its consumer left nothing on the device");
            assertEquals(IbCmState.IDLE, listenB.state(), "the listen stopped");
            cn.cm.destroyCmId(listenB);
            List<IbCmIdDTO> ids = cn.cm.cmIds();
            assertTrue(ids.stream().allMatch(d -> d.device.equals(cn.dev(cn.a).name())), "only a's ids: " + ids);
            RdmaException e = assertThrows(RdmaException.class, () -> cn.cm.createCmId(devB, b, null));
            assertEquals(Errno.ENODEV, e.errno());

            // the surviving side finds out through its own timeouts
            cn.cm.sendCmDreq(c1, null);
            cn.advance(200_000);
            assertEquals(WcStatus.RESP_TIMEOUT_ERR, a.events(IbCmEventType.DREQ_ERROR).get(0).ev().sendStatus());
            assertEquals(WcStatus.RESP_TIMEOUT_ERR, a.only(IbCmEventType.REQ_ERROR).ev().sendStatus());
            assertEquals(IbCmState.IDLE, c1.state(), "through timewait");
            assertEquals(IbCmState.ESTABLISHED, c2.state(), "no traffic, no news");
            IbCmId servedByA = a.only(IbCmEventType.REQ_RECEIVED).id();
            assertEquals(IbCmState.REQ_RCVD, servedByA.state(), "b's REQ, never answered");
            for (IbCmId id : List.of(c1, c2, pendingAtB, servedByA)) {
                cn.cm.destroyCmId(id);
            }
            cn.advance(60_000);
            a.closeQps();
            assertEquals(1, cn.cm.cmIds().size(), "a's listen");
        }
    }
}
