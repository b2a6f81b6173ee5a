package org.rdma.shell.internal.perf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.rvt.RvtDevice;
import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.SystemClock;

/**
 * Real devices without OSGi for the perf tests: the core's {@link CoreDevice} around the
 * software transport's {@link RvtDevice}, one InfiniBand port each, joined by an in-memory
 * network that delivers every packet synchronously by DLID (or DGID with a GRH), copying the
 * payload. A tiny {@link IbCore} hands the devices out by name with real reference counts.
 */
final class LoopbackNet implements IbCore, AutoCloseable {
    private record Port(RvtDevice dev, int lid, Gid gid) {
    }

    /** The network's own clock, closed with it. */
    private final SystemClock clock;
    private final List<CoreDevice> devices = new ArrayList<>();
    private final Map<Integer, Port> byLid = new ConcurrentHashMap<>();
    /** Packets delivered. */
    volatile long delivered;
    private final List<IbClient> clients = new ArrayList<>();
    /** What the last {@link #unregisterDevice} found left for the core to destroy, by type. */
    volatile Map<String, Integer> leftForCore = Map.of();

    private LoopbackNet(SystemClock clock) {
        this.clock = clock;
    }

    /** The perf tests' network: {@code mlx4_0} at LID 1 and {@code mlx4_1} at LID 2, on a clock of its own. */
    static LoopbackNet twoHcas(String clockName) {
        LoopbackNet net = new LoopbackNet(new SystemClock(clockName));
        net.add("mlx4_0", 1);
        net.add("mlx4_1", 2);
        return net;
    }

    /** Adds device {@code name} with one IB port at {@code lid}. */
    CoreDevice add(String name, int lid) {
        Gid gid = Gid.linkLocal(0x0002_c903_0000_0000L | lid);
        int[] self = {lid};
        RvtDevice[] holder = new RvtDevice[1];
        RvtDriver driver = new RvtDriver() {
            @Override
            public PortAttr queryPort(int port) {
                PortAttr a = new PortAttr();
                a.state = PortState.ACTIVE;
                a.physState = PhysPortState.LINK_UP;
                a.lid = self[0];
                a.smLid = 1;
                a.maxMtu = Mtu.MTU_4096;
                a.activeMtu = Mtu.MTU_4096;
                a.gidTblLen = 1;
                a.pkeyTblLen = 1;
                a.linkLayer = LinkLayer.INFINIBAND;
                return a;
            }

            @Override
            public GidEntry queryGid(int port, int index) {
                return index == 0 ? new GidEntry(gid, GidType.IB, null) : null;
            }

            @Override
            public int queryPkey(int port, int index) {
                return index == 0 ? 0xffff : 0;
            }

            @Override
            public int transmit(int port, RvtPacket pkt) {
                return send(self[0], gid, pkt);
            }
        };
        DeviceInfo info = new DeviceInfo();
        info.nameTemplate = name;
        info.driverId = "loopback";
        info.nodeGuid = 0x0002_c903_0000_0000L | lid;
        info.physPortCnt = 1;
        RvtDevice dev = new RvtDevice(info, RvtDevice.defaultAttr(), driver, clock);
        holder[0] = dev;
        byLid.put(lid, new Port(dev, lid, gid));
        CoreDevice core = CoreDevice.register(dev, name, devices.size(),
                DeviceServices.standalone(ForkJoinPool.commonPool()));
        devices.add(core);
        return core;
    }

    private int send(int srcLid, Gid srcGid, RvtPacket pkt) {
        AhAttr av = pkt.av;
        Port dst = null;
        if (av.hasGrh()) {
            for (Port p : byLid.values()) {
                if (p.gid.equals(av.grh.dgid)) {
                    dst = p;
                }
            }
        } else {
            dst = byLid.get(av.dlid);
        }
        if (dst == null) {
            return 0; // nobody there: lost on the wire, RC recovers or times out
        }
        RvtPacket p = new RvtPacket();
        System.arraycopy(pkt.hdr, 0, p.hdr, 0, pkt.hdrLen);
        p.hdrLen = pkt.hdrLen;
        p.padCount = pkt.padCount;
        p.payloadLength = pkt.payloadLength;
        if (pkt.payloadLength > 0) {
            ByteBuffer copy = ByteBuffer.allocate(pkt.payloadLength);
            copy.put(0, pkt.payload, pkt.payloadOffset, pkt.payloadLength);
            p.payload = copy;
        }
        p.payloadOffset = 0;
        p.payloadStable = true;
        p.slid = srcLid | av.srcPathBits;
        p.dlid = av.dlid;
        p.sl = av.sl;
        p.vl15 = pkt.vl15;
        if (av.hasGrh()) {
            p.hasGrh = true;
            byte[] g = p.grh;
            g[0] = (byte) (0x60 | (av.grh.trafficClass >>> 4));
            g[1] = (byte) ((av.grh.trafficClass << 4) | ((av.grh.flowLabel >>> 16) & 0xf));
            g[2] = (byte) (av.grh.flowLabel >>> 8);
            g[3] = (byte) av.grh.flowLabel;
            int len = pkt.hdrLen + pkt.payloadLength + pkt.padCount + 4;
            g[4] = (byte) (len >>> 8);
            g[5] = (byte) len;
            g[6] = 0x1b;
            g[7] = (byte) av.grh.hopLimit;
            srcGid.writeTo(g, 8);
            av.grh.dgid.writeTo(g, 24);
            p.sgidHi = srcGid.subnetPrefix();
            p.sgidLo = srcGid.interfaceId();
            p.dgidHi = av.grh.dgid.subnetPrefix();
            p.dgidLo = av.grh.dgid.interfaceId();
        }
        delivered++;
        dst.dev.receive(1, p);
        return 0;
    }

    @Override
    public IbDevice getByName(String name, String driverId) {
        for (CoreDevice d : devices) {
            if (d.name().equals(name) && d.tryGet()) {
                return d;
            }
        }
        return null;
    }

    @Override
    public IbDevice getByNetdev(String netdev, String driverId) {
        return null;
    }

    @Override
    public List<IbDevice> devices() {
        return List.copyOf(devices);
    }

    /** Makes {@code c} a client whose {@code remove} the devices' unregistration runs (added to none). */
    void addClient(IbClient c) {
        clients.add(c);
    }

    /**
     * What the registry's unregistration does to a device's objects: removes it from the
     * clients, newest first, waits for the references ({@code get_by_name}) to go, then flushes
     * and destroys what its users left (counted in {@link #leftForCore}).
     */
    @Override
    public void unregisterDevice(IbDevice device) {
        CoreDevice d = (CoreDevice) device;
        d.setState(CoreDevice.State.UNREGISTERING);
        for (int i = clients.size() - 1; i >= 0; i--) {
            clients.get(i).remove(d, null);
        }
        d.put();
        d.awaitUnreferenced();
        Map<String, Integer> left = new TreeMap<>(d.restrack().counts());
        left.values().removeIf(v -> v == 0);
        leftForCore = left;
        d.destroyLeftovers();
        d.setState(CoreDevice.State.UNREGISTERED);
    }

    @Override
    public void unregisterDeviceAndPut(IbDevice device) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void unregisterDeviceQueued(IbDevice device) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void unregisterDriver(String driverId) {
        throw new UnsupportedOperationException();
    }

    /** References still held on {@code name} beyond its registration. */
    int extraRefs(String name) {
        for (CoreDevice d : devices) {
            if (d.name().equals(name)) {
                return d.refCount() - 1;
            }
        }
        return -1;
    }

    /** The resource tracker's counts of {@code name}. */
    Map<String, Integer> getByNameCounts(String name) {
        for (CoreDevice d : devices) {
            if (d.name().equals(name)) {
                return d.restrack().counts();
            }
        }
        return Map.of();
    }

    @Override
    public void close() {
        for (CoreDevice d : devices) {
            d.provider().detach();
        }
        clock.close();
    }
}
