package org.rdma.rvt.harness;

import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.spi.GidEntry;

/** A one-port InfiniBand driver on a {@link Wire}. */
public final class TestDriver implements RvtDriver {
    final Wire wire;
    Wire.Endpoint ep;
    final int lid;
    final Gid gid;
    /** The port's active MTU. */
    public volatile Mtu mtu = Mtu.MTU_4096;
    /** The P_Key table. */
    public volatile int[] pkeys = {0xffff, 0x8001, 0x0002};
    /** Transmit calls to answer with -EAGAIN. */
    public volatile int eagain;
    /** The port's state as queryPort reports it (the device reads it when its port is refreshed). */
    public volatile PortState state = PortState.ACTIVE;
    /** The longest train transmit takes (the device reads it when its port is refreshed). */
    public volatile int maxSegments = 1;
    /** Every mcastAdd and mcastDel, in order, as "add MGID" / "del MGID". */
    public final java.util.List<String> mcastCalls = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The errno the next mcastAdd fails with, or null. */
    public volatile org.rdma.verbs.Errno mcastAddFails;

    TestDriver(Wire wire, int lid, Gid gid) {
        this.wire = wire;
        this.lid = lid;
        this.gid = gid;
    }

    @Override
    public PortAttr queryPort(int port) {
        PortAttr a = new PortAttr();
        a.state = state;
        a.physState = PhysPortState.LINK_UP;
        a.lid = lid;
        a.maxMtu = Mtu.MTU_4096;
        a.activeMtu = mtu;
        a.gidTblLen = 1;
        a.pkeyTblLen = pkeys.length;
        a.linkLayer = LinkLayer.INFINIBAND;
        return a;
    }

    @Override
    public GidEntry queryGid(int port, int index) {
        return index == 0 ? new GidEntry(gid, GidType.IB, null) : null;
    }

    @Override
    public int queryPkey(int port, int index) {
        int[] p = pkeys;
        return index < p.length ? p[index] : 0;
    }

    @Override
    public int transmit(int port, RvtPacket pkt) {
        if (eagain > 0) {
            eagain--;
            return -11;
        }
        return wire.send(ep, pkt);
    }

    @Override
    public void mcastAdd(int port, Gid mgid) {
        org.rdma.verbs.Errno e = mcastAddFails;
        if (e != null) {
            mcastAddFails = null;
            throw new org.rdma.verbs.RdmaException(e, "test: cannot join " + mgid);
        }
        mcastCalls.add("add " + mgid);
    }

    @Override
    public void mcastDel(int port, Gid mgid) {
        mcastCalls.add("del " + mgid);
    }

    @Override
    public int maxSegments(int port) {
        return maxSegments;
    }
}
