package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.RvtDevice;
import org.rdma.verbs.HwStats;

/**
 * rxe's counters as {@code rdma statistic show link rxe0/1} shows them: Linux rxe's, then this
 * driver's extensions; a datagram with a bad ICRC, which Linux rxe drops without a trace, is
 * counted as {@code icrc_err}.
 */
class RxeHwStatsTest {
    static final List<String> NAMES = List.of("sent_pkts", "rcvd_pkts", "duplicate_request",
            "out_of_seq_request", "rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
            "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err", "send_err", "link_downed",
            "rdma_sends", "rdma_recvs", "icrc_err", "rcvd_dropped", "send_dropped");

    static long stat(RvtDevice d, String name) {
        HwStats st = d.allocHwPortStats(1);
        d.getHwStats(st, 1, st.numCounters());
        return st.value[st.indexOf(name)];
    }

    @Test
    void aBadIcrcIsCountedAsIcrcErr() throws Exception {
        try (Pair pair = new Pair()) {
            RvtDevice d = pair.da.provider();
            HwStats st = d.allocHwPortStats(1);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < st.numCounters(); i++) {
                names.add(st.name(i));
            }
            assertEquals(NAMES, names);
            assertEquals(0, stat(d, "icrc_err"));

            // A SEND ONLY BTH to QP 1 and four bytes that are not its ICRC.
            byte[] dgram = {0x04, 0, (byte) 0xff, (byte) 0xff, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3, 4};
            try (DatagramSocket s = new DatagramSocket()) {
                s.send(new DatagramPacket(dgram, dgram.length, InetAddress.getByName("127.0.0.1"), pair.portA));
            }
            Pair.await(() -> stat(d, "icrc_err") == 1, 5000, "the bad datagram counted as icrc_err");
            assertEquals(1, pair.da.rxCrcErrors());
            assertEquals(0, stat(d, "rcvd_pkts"), "nothing reached the transport");
        }
    }
}
