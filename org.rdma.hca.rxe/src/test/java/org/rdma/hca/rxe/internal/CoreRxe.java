package org.rdma.hca.rxe.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.rvt.RvtDevice;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.time.SystemClock;

/**
 * One rxe device on {@code lo} as a process sees it, without OSGi: the driver ({@link RxeDevice},
 * receiving on its own UDP port and sending to the peer's, bound to 127.0.0.1 and ::1), wrapped in
 * the core's {@link CoreDevice} as the registry would, and a minimal {@link IbCore} handing that
 * one device out by name with real reference counts, so the shell's tool commands run on it.
 * {@link #close} unregisters as the registry does (waits for references, destroys what users
 * left), then closes the driver.
 */
final class CoreRxe implements IbCore, AutoCloseable {
    /** The device name both processes use. */
    static final String NAME = "rxe0";

    final SystemClock clock;
    final RxeDevice rxe;
    final CoreDevice dev;

    CoreRxe(int udpPort, int remoteUdpPort, double dropProbability, long dropSeed) {
        this(loopback(udpPort, remoteUdpPort, dropProbability, dropSeed));
    }

    /** A device from {@code p} (its clock is made here and closed with the device). */
    CoreRxe(RxeParams p) {
        clock = new SystemClock("rxe-core-clock-" + p.netdev + "-" + p.udpPort);
        p.clock = clock;
        try {
            rxe = new RxeDevice(p);
        } catch (RuntimeException e) {
            clock.close();
            throw e;
        }
        RvtDevice provider = rxe.provider();
        dev = CoreDevice.register(provider, NAME, 0, DeviceServices.standalone(ForkJoinPool.commonPool()));
    }

    private static RxeParams loopback(int udpPort, int remoteUdpPort, double dropProbability, long dropSeed) {
        RxeParams p = new RxeParams();
        p.netdev = "lo";
        p.udpPort = udpPort;
        p.remoteUdpPort = remoteUdpPort;
        p.bindAddresses.add("127.0.0.1");
        p.bindAddresses.add("::1");
        p.pollMs = 1000;
        p.rxDropProbability = dropProbability;
        p.rxDropSeed = dropSeed;
        return p;
    }

    /** The index of {@code ip}'s GID in the port's table, -1 if absent. */
    int gidIndex(String ip) {
        Gid want = Gid.parse(ip);
        for (int i = 0; i < RxeGids.TABLE_LEN; i++) {
            try {
                if (want.equals(dev.queryGid(1, i))) {
                    return i;
                }
            } catch (RuntimeException empty) {
                // no GID at this index
            }
        }
        return -1;
    }

    /** Objects the device's users left (the resource tracker's non-zero counts). */
    Map<String, Integer> leftovers() {
        Map<String, Integer> m = new java.util.TreeMap<>(dev.restrack().counts());
        m.values().removeIf(v -> v == 0);
        return m;
    }

    @Override
    public IbDevice getByName(String name, String driverId) {
        return NAME.equals(name) && dev.tryGet() ? dev : null;
    }

    @Override
    public IbDevice getByNetdev(String netdev, String driverId) {
        return null;
    }

    @Override
    public List<IbDevice> devices() {
        return List.of(dev);
    }

    @Override
    public void unregisterDevice(IbDevice device) {
        throw new UnsupportedOperationException();
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

    @Override
    public void close() {
        try {
            dev.setState(CoreDevice.State.UNREGISTERING);
            dev.put();
            dev.awaitUnreferenced();
            dev.destroyLeftovers();
            dev.setState(CoreDevice.State.UNREGISTERED);
            rxe.provider().detach();
        } finally {
            rxe.close();
            clock.close();
        }
    }
}
