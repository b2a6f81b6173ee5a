package org.rdma.hca.rxe.internal;

import org.rdma.rvt.testkit.Host;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.SystemClock;
import org.rdma.rvt.testkit.Peers;

/**
 * {@code ip addr add/del} on the device's interface: the poll (200 ms here) notices, the GID table
 * follows, GID_CHANGE is dispatched and a receive socket is opened and closed. Needs root and
 * iproute2 (skipped otherwise); works on {@code lo} with a host address 127.0.0.77/32 that the test
 * removes again.
 */
class GidChangeTest {
    static final String EXTRA = "127.0.0.77";

    @Test
    void addressChangesAreSeenByThePollAndDispatchedAsGidChange() throws Exception {
        Peers.requireRoot("ip addr add");
        Peers.requireCommand("iproute2", "ip", "-V");
        Peers.require(CaptureTest.run(List.of("ip", "-4", "addr", "show", "dev", "lo", "to", EXTRA)).isBlank(),
                EXTRA + " is already on lo (left by an interrupted run? ip addr del " + EXTRA + "/32 dev lo)");
        try (SystemClock clock = new SystemClock("rxe-gid-test")) {
            RxeParams p = new RxeParams();
            p.netdev = "lo";
            p.udpPort = Pair.freePort();
            p.pollMs = 200;
            p.clock = clock;
            RxeDevice d = new RxeDevice(p);
            try {
                Host h = new Host(d.provider());
                Gid g = Gid.fromIp(InetAddress.getByName(EXTRA));
                assertFalse(has(d, g));
                Peers.require(CaptureTest.run(List.of("ip", "addr", "add", EXTRA + "/32", "dev", "lo")) != null,
                        "ip addr add is not permitted");
                try {
                    Pair.await(() -> h.count(IbEventType.GID_CHANGE, 1) == 1, 5000, "GID_CHANGE after ip addr add");
                    assertTrue(has(d, g), "the new address is a GID");
                    Pair.await(() -> d.boundAddresses().contains(addr()), 5000, "a receive socket on " + EXTRA);
                } finally {
                    CaptureTest.run(List.of("ip", "addr", "del", EXTRA + "/32", "dev", "lo"));
                }
                Pair.await(() -> h.count(IbEventType.GID_CHANGE, 1) == 2, 5000, "GID_CHANGE after ip addr del");
                assertFalse(has(d, g));
                Pair.await(() -> !d.boundAddresses().contains(addr()), 5000, "the socket on " + EXTRA + " closed");
            } finally {
                d.close();
            }
        }
    }

    static InetAddress addr() {
        try {
            return InetAddress.getByName(EXTRA);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean has(RxeDevice d, Gid g) {
        for (int i = 0; i < RxeGids.TABLE_LEN; i++) {
            GidEntry e = d.provider().queryGid(1, i);
            if (e != null && e.gid.equals(g)) {
                return true;
            }
        }
        return false;
    }
}
