package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FaultProfile;
import org.rdma.mad.MadService;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.Gid;
import org.rdma.verbs.LinkLayer;

/**
 * The CM on a test network: two hosts on an InfiniBand subnet (switch S0, CAs h0 and h1, the SM
 * on h0) or on a RoCE segment (ha 192.168.7.1, hb 192.168.7.2), with the IB CM as a client of
 * every device, all in virtual time.
 */
final class CmNet implements AutoCloseable {
    final SmNet net;
    final IbCmComponent cm;
    final SaClient saClient = new SaClient();
    final String a;
    final String b;

    private CmNet(SmNet net, String a, String b, UnaryOperator<MadService> madOfCm) {
        this.net = net;
        this.a = a;
        this.b = b;
        net.sa.registerClient(saClient);
        cm = new IbCmComponent(net.clock, net.pump, madOfCm.apply(net.mad), net.sa);
        net.addClient(cm);
    }

    /** Two CAs on one switch, subnet up. */
    static CmNet ib() {
        return ib(UnaryOperator.identity());
    }

    /** {@link #ib()} with the CM using the MAD layer through {@code madOfCm} (to watch its MADs). */
    static CmNet ib(UnaryOperator<MadService> madOfCm) {
        return new CmNet(new SmNet(SmNet.ring(1, 2), 0).up(), "h0", "h1", madOfCm);
    }

    /** Two RoCE HCAs on one Ethernet segment. */
    static CmNet roce() {
        return roce(UnaryOperator.identity());
    }

    /** {@link #roce()} with the CM using the MAD layer through {@code madOfCm}. */
    static CmNet roce(UnaryOperator<MadService> madOfCm) {
        return new CmNet(SmNet.roce("ha", "hb"), "ha", "hb", madOfCm);
    }

    CoreDevice dev(String host) {
        return net.dev(host);
    }

    boolean isRoce() {
        return dev(a).getLinkLayer(1) == LinkLayer.ETHERNET;
    }

    /** The GID of the host's port 1: the port GID on IB, the IPv4-mapped GID on RoCE. */
    Gid gid(String host) {
        if (!isRoce()) {
            return dev(host).queryGid(1, 0);
        }
        try {
            return Gid.fromIp(InetAddress.getByName(net.ip(host)));
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code ib_sa_path_rec_get()} from {@code from} to {@code to}: from the SA on IB, built locally on RoCE. */
    PathRecord path(String from, String to) {
        PathRecord q = new PathRecord();
        q.sgid = gid(from);
        q.dgid = gid(to);
        q.numbPath = 1;
        List<Object[]> got = new ArrayList<>();
        net.sa.pathRecGet(saClient, dev(from), 1, q, PathRecord.SGID | PathRecord.DGID | PathRecord.NUMB_PATH, 1000,
                (st, r) -> got.add(new Object[] {st, r}));
        net.settle();
        assertEquals(1, got.size(), "path query answered");
        assertEquals(0, got.get(0)[0], "path query status");
        PathRecord p = (PathRecord) got.get(0)[1];
        assertNotNull(p);
        return p;
    }

    /** The fabric port of the host's HCA port 1. */
    FabricPort port(String host) {
        int i = new ArrayList<>(net.devs.keySet()).indexOf(host);
        return net.hcas.get(i).fabricPort(1);
    }

    /** Loses every packet the host sends ({@code on}), or none. */
    void drop(String fromHost, boolean on) {
        faults(fromHost, on ? FaultProfile.NONE.withDropRate(1.0) : FaultProfile.NONE);
    }

    /** Applies {@code f} to what {@code fromHost} sends on its cable. */
    void faults(String fromHost, FaultProfile f) {
        FabricPort p = port(fromHost);
        p.link().setFaults(p, f);
    }

    long counter(String host, IbCmCounterGroup group, int attrId) {
        return cm.counter(dev(host), 1, group, attrId);
    }

    void settle() {
        net.settle();
    }

    void advance(long ms) {
        net.advance(ms);
    }

    @Override
    public void close() {
        net.close();
    }
}
