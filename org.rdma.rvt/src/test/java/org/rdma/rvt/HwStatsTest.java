package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.HwStats;
import org.rdma.verbs.PortState;
import org.rdma.verbs.Sge;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** The transport's counters as {@code rdma statistic} shows them: rxe's names, in rxe's order, counting. */
class HwStatsTest {
    static final List<String> RXE_NAMES = List.of("sent_pkts", "rcvd_pkts", "duplicate_request",
            "out_of_seq_request", "rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
            "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err", "send_err", "link_downed",
            "rdma_sends", "rdma_recvs");

    static Map<String, Long> read(Node n) {
        HwStats st = n.dev.allocHwPortStats(1);
        assertEquals(st.numCounters(), n.dev.getHwStats(st, 1, st.numCounters()));
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < st.numCounters(); i++) {
            m.put(st.name(i), st.value[i]);
        }
        return m;
    }

    @Test
    void namesAreRxesInItsOrder() {
        Node n = new Rig().node(1);
        assertEquals(RXE_NAMES, new ArrayList<>(read(n).keySet()));
    }

    @Test
    void aSendCountsOnBothSides() {
        Rig rig = new Rig();
        Node na = rig.node(1);
        Node nb = rig.node(2);
        Rig.Opts o = new Rig.Opts();
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        Rig.Pair pair = rig.connect(na, nb, o);
        int access = AccessFlags.LOCAL_WRITE;
        FakeMr ma = na.regMr(o.pdA, ByteBuffer.allocate(4096), 0x1000, access);
        FakeMr mb = nb.regMr(o.pdB, ByteBuffer.allocate(4096), 0x1000, access);
        for (int i = 0; i < 3; i++) {
            assertEquals(0, pair.b.p.postRecv(Rig.recv(i, new Sge(0x1000, 4096, mb.lkey())), null));
            assertEquals(0, pair.a.p.postSend(Rig.send(WrOpcode.SEND, i, new Sge(0x1000, 100, ma.lkey())), null));
        }
        rig.settle();
        Rig.drain(pair.a.scq).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status));
        Rig.drain(pair.b.rcq).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status));
        Map<String, Long> a = read(na);
        Map<String, Long> b = read(nb);
        assertEquals(3L, a.get("rdma_sends"));
        assertEquals(3L, b.get("rdma_recvs"));
        assertEquals(3L, b.get("rcvd_pkts"), "three one-packet SENDs");
        assertEquals(a.get("sent_pkts"), b.get("rcvd_pkts"), "a lossless wire: what a sent, b received");
        assertEquals(b.get("sent_pkts"), a.get("rcvd_pkts"), "and the ACKs back");
        assertEquals(0L, a.get("completer_retry_err"));
        assertEquals(0L, b.get("duplicate_request"));
    }

    @Test
    void aPortLeavingActiveIsALinkDowned() {
        Node n = new Rig().node(1);
        assertEquals(0L, read(n).get("link_downed"));
        n.driver.state = PortState.DOWN;
        n.dev.refreshPort(1);
        n.dev.refreshPort(1);
        assertEquals(1L, read(n).get("link_downed"), "counted once, when the port left ACTIVE");
        n.driver.state = PortState.ACTIVE;
        n.dev.refreshPort(1);
        assertEquals(1L, read(n).get("link_downed"), "coming back is not a link down");
    }

    @Test
    void aDriverAddsItsOwnCountersAfterTheTransports() {
        Node n = new Rig().node(1);
        HwStats st = n.dev.allocHwPortStats(1);
        assertEquals(RXE_NAMES.size(), st.numCounters(), "the test driver adds none");
        assertEquals(2, n.dev.getHwStats(st, 1, 2), "a caller may ask for the first counters only");
    }
}
