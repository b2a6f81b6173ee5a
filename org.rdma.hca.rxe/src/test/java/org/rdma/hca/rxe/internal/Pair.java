package org.rdma.hca.rxe.internal;

import org.rdma.rvt.testkit.Host;
import org.rdma.rvt.testkit.Ops;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.SystemClock;

/**
 * Two rxe devices on {@code lo} in one JVM, each receiving on its own UDP port and sending to the
 * other's ({@code remote_udp_port}), both bound to 127.0.0.1 and ::1.
 */
final class Pair implements AutoCloseable {
    final SystemClock clock = new SystemClock("rxe-test-clock");
    final int portA;
    final int portB;
    final RxeDevice da;
    final RxeDevice db;
    final Host ha;
    final Host hb;

    final int sendQueue;

    Pair() throws IOException {
        this(1024);
    }

    Pair(int sendQueue) throws IOException {
        this.sendQueue = sendQueue;
        portA = freePort();
        int b;
        do {
            b = freePort();
        } while (b == portA);
        portB = b;
        da = device(portA, portB);
        RxeDevice d;
        try {
            d = device(portB, portA);
        } catch (RuntimeException e) {
            da.close();
            throw e;
        }
        db = d;
        ha = new Host(da.provider());
        hb = new Host(db.provider());
    }

    RxeDevice device(int port, int remote) {
        RxeParams p = new RxeParams();
        p.netdev = "lo";
        p.udpPort = port;
        p.remoteUdpPort = remote;
        p.bindAddresses.add("127.0.0.1");
        p.bindAddresses.add("::1");
        p.pollMs = 200;
        p.sendQueue = sendQueue;
        p.clock = clock;
        return new RxeDevice(p);
    }

    /** A UDP port free on both 127.0.0.1 and ::1. */
    static int freePort() throws IOException {
        for (int i = 0; i < 50; i++) {
            int port;
            try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET)) {
                c.bind(new InetSocketAddress("127.0.0.1", 0));
                port = ((InetSocketAddress) c.getLocalAddress()).getPort();
            }
            try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET6)) {
                c.bind(new InetSocketAddress("::1", port));
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no UDP port free on 127.0.0.1 and ::1");
    }

    /** An address vector from {@code from} to the IP {@code ip} (the GID of the same family as source). */
    static AhAttr av(Host from, String ip) {
        Gid d;
        try {
            d = Gid.fromIp(InetAddress.getByName(ip));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
        int sgid = sgidIndex(from, d);
        AhAttr a = new AhAttr();
        a.portNum = 1;
        a.setGrh(d, 0, sgid, 64, 0, null);
        return a;
    }

    /** The GID index of {@code from}'s address of the same family as {@code d} (not link-local). */
    static int sgidIndex(Host from, Gid d) {
        for (int i = 0; i < RxeGids.TABLE_LEN; i++) {
            GidEntry e = from.p.queryGid(1, i);
            if (e != null && e.gid.isV4Mapped() == d.isV4Mapped() && !e.gid.isLinkLocal()) {
                return i;
            }
        }
        throw new AssertionError("no source GID for " + d);
    }

    /** Waits (bounded, real time) for {@code cond}. */
    static void await(BooleanSupplier cond, long ms, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + ms + " ms waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    Ops ops(String ipB, String ipA) {
        return new Ops(ha, hb, Ops.realTime(), () -> av(ha, ipB), () -> av(hb, ipA), org.rdma.verbs.Mtu.MTU_1024);
    }

    @Override
    public void close() {
        da.close();
        db.close();
        clock.close();
    }
}
