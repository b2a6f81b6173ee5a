package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmIdDTO;
import org.rdma.cm.ib.IbCmState;
import org.rdma.sm.testkit.Verbs;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** Connection set-up, RC traffic on the QPs the CM configured, and teardown through timewait, on IB and RoCE. */
class ConnectTest {
    private CmNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    private static String text(byte[] pd, int len) {
        return new String(pd, 0, len, StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "roce={0}")
    @ValueSource(booleans = {false, true})
    void connectTransferAndDisconnect(boolean roce) {
        cn = roce ? CmNet.roce() : CmNet.ib();
        Peer a = new Peer(cn, cn.a);
        Peer b = new Peer(cn, cn.b);
        Gid[] sgidSeen = new Gid[1];
        b.ret = (id, ev) -> {
            if (ev.event() == IbCmEventType.REQ_RECEIVED && ev.reqRcvd().ppathSgidAttr != null) {
                sgidSeen[0] = ev.reqRcvd().ppathSgidAttr.gid();
            }
            return 0;
        };
        IbCmId listen = b.listen();
        b.repData = "accept".getBytes(StandardCharsets.US_ASCII);
        IbCmId ca = a.connect(cn.b, Peer.SID, "hello".getBytes(StandardCharsets.US_ASCII));
        assertEquals(IbCmState.REQ_SENT, ca.state());
        cn.advance(10);

        Peer.Rec req = b.only(IbCmEventType.REQ_RECEIVED);
        IbCmId cb = req.id();
        assertEquals("hello", text(req.ev().privateData(), 5));
        assertEquals(92, req.ev().privateData().length, "the whole REQ private data area");
        assertSame(listen, req.ev().reqRcvd().listenId);
        assertEquals(a.qps.get(ca).qp.qpNum(), req.ev().reqRcvd().remoteQpn);
        assertEquals(0x111, req.ev().reqRcvd().startingPsn);
        assertEquals(cn.dev(cn.a).nodeGuid(), req.ev().reqRcvd().remoteCaGuid);
        assertEquals(cn.gid(cn.a), req.ev().reqRcvd().primaryPath.dgid, "the path seen from the passive side");
        assertEquals(cn.gid(cn.b), req.ev().reqRcvd().primaryPath.sgid);
        assertEquals(Peer.SID, cb.serviceId());
        if (roce) {
            assertEquals(cn.gid(cn.b), sgidSeen[0], "the GID entry the passive side sends from");
        }
        assertEquals("accept", text(a.only(IbCmEventType.REP_RECEIVED).ev().privateData(), 6));
        assertEquals(b.qps.get(cb).qp.qpNum(), a.only(IbCmEventType.REP_RECEIVED).ev().repRcvd().remoteQpn);
        assertEquals("rtu", text(b.only(IbCmEventType.RTU_RECEIVED).ev().privateData(), 3));
        assertEquals(IbCmState.ESTABLISHED, ca.state());
        assertEquals(IbCmState.ESTABLISHED, cb.state());
        assertEquals(ca.localId(), cb.remoteId());
        assertEquals(cb.localId(), ca.remoteId());
        assertEquals(3, cn.cm.cmIds().size(), "listen and both ends");
        IbCmIdDTO dto = cn.cm.cmIds().stream().filter(d -> d.localId == ca.localId()).findFirst().orElseThrow();
        assertEquals(IbCmState.ESTABLISHED, dto.state);
        assertEquals(1, dto.port);
        assertEquals(a.qps.get(ca).qp.qpNum(), dto.localQpn);
        assertEquals(b.qps.get(cb).qp.qpNum(), dto.remoteQpn);

        Verbs va = a.qps.get(ca);
        Verbs vb = b.qps.get(cb);
        QpAttr qa = new QpAttr();
        va.qp.query(qa, QpAttrMask.STATE, new QpInitAttr());
        assertEquals(QpState.RTS, qa.qpState);
        rcTraffic(va, vb);

        cn.cm.sendCmDreq(ca, "bye".getBytes(StandardCharsets.US_ASCII));
        assertEquals(IbCmState.DREQ_SENT, ca.state());
        cn.advance(10);
        assertEquals("bye", text(b.only(IbCmEventType.DREQ_RECEIVED).ev().privateData(), 3));
        assertEquals("drep", text(a.only(IbCmEventType.DREP_RECEIVED).ev().privateData(), 4));
        assertEquals(IbCmState.TIMEWAIT, ca.state());
        assertEquals(IbCmState.TIMEWAIT, cb.state());
        assertEquals(0, cn.cm.remoteTableEntries(), "peers leave the tables on timewait");
        cn.advance(60_000);
        a.only(IbCmEventType.TIMEWAIT_EXIT);
        b.only(IbCmEventType.TIMEWAIT_EXIT);
        assertEquals(IbCmState.IDLE, ca.state());
        assertEquals(IbCmState.IDLE, cb.state());

        cn.cm.destroyCmId(ca);
        cn.cm.destroyCmId(cb);
        cn.cm.destroyCmId(listen);
        assertEquals(0, cn.cm.cmIds().size());
        assertEquals(0, cn.cm.localIdsInUse());
        a.closeQps();
        b.closeQps();
    }

    /** A SEND each way and an RDMA WRITE into a registered region, all checked byte for byte. */
    private void rcTraffic(Verbs va, Verbs vb) {
        for (int i = 0; i < 3000; i++) {
            va.buf.put(i, (byte) (i * 7 + 1));
            vb.buf.put(4096 + i, (byte) (i * 13 + 5));
        }
        vb.postRecv(0, 4096);
        va.postRecv(0, 4096);
        va.postSend(0, 3000, new SendWr());
        vb.postSend(4096, 1000, new SendWr());
        cn.advance(20);
        va.poll();
        vb.poll();
        assertEquals(WcStatus.SUCCESS, va.sent.get(0).status);
        assertEquals(3000, vb.received.get(0).byteLen);
        assertEquals(1000, va.received.get(0).byteLen);
        for (int i = 0; i < 3000; i++) {
            assertEquals((byte) (i * 7 + 1), vb.buf.get(i), "SEND byte " + i);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals((byte) (i * 13 + 5), va.buf.get(i), "SEND back, byte " + i);
        }

        IbMr mr = vb.pd.regMr(vb.buf, 0x10_0000L, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        byte[] pattern = new byte[2000];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i ^ 0x5A);
            va.buf.put(i, pattern[i]);
        }
        SendWr w = new SendWr();
        w.opcode = WrOpcode.RDMA_WRITE;
        w.remoteAddr = 0x10_0000L + 6000;
        w.rkey = mr.rkey();
        va.postSend(0, pattern.length, w);
        cn.advance(20);
        va.poll();
        assertEquals(WcStatus.SUCCESS, va.sent.get(1).status, "RDMA WRITE completed");
        byte[] got = new byte[pattern.length];
        vb.buf.get(6000, got);
        assertArrayEquals(pattern, got, "RDMA WRITE landed");
        assertTrue(Arrays.equals(pattern, got));
        mr.dereg();
    }
}
