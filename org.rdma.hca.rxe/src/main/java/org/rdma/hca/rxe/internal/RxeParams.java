package org.rdma.hca.rxe.internal;

import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.time.IbClock;

/** Everything an {@link RxeDevice} is built from (the configuration, typed). */
public final class RxeParams {
    /** The network interface. */
    public String netdev = "lo";
    /** The device name template. */
    public String nameTemplate = "rxe%d";
    /** The UDP port receive sockets bind. */
    public int udpPort = RxeWire.ROCE_V2_PORT;
    /** The UDP port packets go to; 0: {@link #udpPort}. */
    public int remoteUdpPort;
    /** Only these addresses get receive sockets; empty: all of the interface's. */
    public final List<String> bindAddresses = new ArrayList<>();
    /** Address/MTU/state poll period. */
    public long pollMs = 2000;
    /** Send queue depth. */
    public int sendQueue = 1024;
    /**
     * Fault injection: the probability that a received datagram is dropped before it is looked
     * at (0: never).
     */
    public double rxDropProbability;
    /** Seed of the drop decisions. */
    public long rxDropSeed = 1;
    /** The clock for the poll timer and the transport. */
    public IbClock clock;

    /** @return the destination UDP port */
    int destPort() {
        return remoteUdpPort > 0 ? remoteUdpPort : udpPort;
    }

    /** Parameters from a configuration. */
    static RxeParams of(RxeConfig c, IbClock clock) {
        RxeParams p = new RxeParams();
        p.netdev = c.netdev().trim();
        p.nameTemplate = c.name_template();
        p.udpPort = c.udp_port();
        p.remoteUdpPort = c.remote_udp_port();
        for (String a : c.bind_address()) {
            if (!a.isBlank()) {
                p.bindAddresses.add(a.trim());
            }
        }
        p.pollMs = c.poll_ms();
        p.sendQueue = c.send_queue();
        p.rxDropProbability = c.rx_drop_probability();
        p.rxDropSeed = c.rx_drop_seed();
        p.clock = clock;
        return p;
    }
}
