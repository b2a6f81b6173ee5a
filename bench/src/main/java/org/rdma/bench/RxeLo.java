package org.rdma.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.hca.rxe.internal.RxeDevice;
import org.rdma.hca.rxe.internal.RxeParams;
import org.rdma.verbs.Gid;
import org.rdma.verbs.time.SystemClock;

/**
 * Two rxe devices on {@code lo} in this JVM, each receiving on its own UDP port of 127.0.0.1 and
 * sending to the other's ({@code remote_udp_port}), each wrapped in the core's {@link CoreDevice}
 * as the registry would: real UDP datagrams through the kernel's loopback between them.
 */
final class RxeLo implements AutoCloseable {
    final SystemClock clock = new SystemClock("rxe-bench-clock");
    final RxeDevice rxeA;
    final RxeDevice rxeB;
    final CoreDevice devA;
    final CoreDevice devB;

    RxeLo() {
        int portA = freePort(0);
        int portB = freePort(portA);
        rxeA = rxe(portA, portB);
        rxeB = rxe(portB, portA);
        devA = Bench.register(rxeA.provider(), "rxe0", 0);
        devB = Bench.register(rxeB.provider(), "rxe1", 1);
    }

    private RxeDevice rxe(int port, int remote) {
        RxeParams p = new RxeParams();
        p.netdev = "lo";
        p.udpPort = port;
        p.remoteUdpPort = remote;
        p.bindAddresses.add("127.0.0.1");
        p.clock = clock;
        return new RxeDevice(p);
    }

    /** The GID index of {@code ip} on port 1 of {@code d}. */
    static int gidIndex(CoreDevice d, String ip) {
        Gid want = Gid.parse(ip);
        for (int i = 0; i < 16; i++) {
            try {
                if (want.equals(d.queryGid(1, i))) {
                    return i;
                }
            } catch (RuntimeException empty) {
                // no GID here
            }
        }
        throw new IllegalStateException(ip + " is not in " + d.name() + "'s GID table");
    }

    /** A UDP port on 127.0.0.1 other than {@code not}. */
    static int freePort(int not) {
        for (int i = 0; i < 50; i++) {
            try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET)) {
                c.bind(new InetSocketAddress("127.0.0.1", 0));
                int port = ((InetSocketAddress) c.getLocalAddress()).getPort();
                if (port != not) {
                    return port;
                }
            } catch (IOException e) {
                throw new IllegalStateException("no UDP socket on 127.0.0.1", e);
            }
        }
        throw new IllegalStateException("no free UDP port");
    }

    @Override
    public void close() {
        for (CoreDevice d : new CoreDevice[] {devB, devA}) {
            d.setState(CoreDevice.State.UNREGISTERING);
            d.destroyLeftovers();
            d.setState(CoreDevice.State.UNREGISTERED);
            d.provider().detach();
        }
        rxeB.close();
        rxeA.close();
        clock.close();
    }
}
