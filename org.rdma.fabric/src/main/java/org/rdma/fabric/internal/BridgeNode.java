package org.rdma.fabric.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.fabric.Capture;
import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.EthernetSegment;
import org.rdma.fabric.FabricLink;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.MacAddress;
import org.rdma.fabric.Packet;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.NodeType;

/**
 * An Ethernet segment: a transparent learning bridge (IEEE 802.1D; the Linux bridge's
 * {@code br_handle_frame()}, {@code br_fdb_update()}, {@code br_flood()}). Each received frame
 * teaches the bridge where its source address lives; a frame to a learned unicast address goes
 * out of that port only (or nowhere if that is where it came from); unknown unicast, broadcast
 * and multicast are flooded to every other port whose link is up.
 *
 * <p>The forwarding database is an open-addressing table from MAC to port number, replaced
 * copy-on-write when an address is learned or moves, so the datapath reads it without locks
 * or allocation.
 */
final class BridgeNode extends NodeImpl implements EthernetSegment {
    private final List<EthHostPort> hosts = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile MacTable table = MacTable.EMPTY;
    private volatile CaptureImpl capture;

    /** An immutable MAC to port map (linear probing). */
    static final class MacTable {
        static final MacTable EMPTY = new MacTable(new long[16], new int[16], 0);
        final long[] keys;
        final int[] ports;
        final int size;

        MacTable(long[] keys, int[] ports, int size) {
            this.keys = keys;
            this.ports = ports;
            this.size = size;
        }

        /** @return the port, or -1; keys are stored +1 so that 0 marks an empty slot */
        int get(long mac) {
            long k = mac + 1;
            int mask = keys.length - 1;
            for (int i = hash(mac) & mask; ; i = (i + 1) & mask) {
                long key = keys[i];
                if (key == k) {
                    return ports[i];
                }
                if (key == 0) {
                    return -1;
                }
            }
        }

        MacTable with(long mac, int port) {
            int cap = keys.length;
            if ((size + 1) * 2 > cap) {
                cap *= 2;
            }
            long[] nk = new long[cap];
            int[] np = new int[cap];
            MacTable t = new MacTable(nk, np, 0);
            int n = 0;
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != 0 && keys[i] != mac + 1) {
                    t.put(keys[i] - 1, ports[i]);
                    n++;
                }
            }
            t.put(mac, port);
            return new MacTable(nk, np, n + 1);
        }

        private void put(long mac, int port) {
            int mask = keys.length - 1;
            int i = hash(mac) & mask;
            while (keys[i] != 0) {
                i = (i + 1) & mask;
            }
            keys[i] = mac + 1;
            ports[i] = port;
        }

        private static int hash(long mac) {
            long h = mac * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }
    }

    BridgeNode(FabricImpl fabric, String name, int numPorts) {
        super(fabric, name, NodeType.UNSPECIFIED, 0, 0, 0, 0, name);
        PortImpl[] ps = new PortImpl[numPorts + 1];
        for (int i = 1; i <= numPorts; i++) {
            ps[i] = new PortImpl(fabric, this, i, 0, LinkLayer.ETHERNET);
        }
        this.ports = ps;
    }

    // ------------------------------------------------------------------ datapath

    @Override
    void receive(PortImpl in, Packet p, int bytes, boolean mc) {
        CaptureImpl c = capture;
        if (c != null) {
            c.record(0, p);
            p.clearMaterialized();
        }
        long src = p.srcMac();
        if ((src & 0x0100_0000_0000L) == 0 && src != 0) {
            MacTable t = table;
            if (t.get(src) != in.portNum) {
                learn(src, in.portNum);
            }
        }
        long dst = p.destMac();
        if ((dst & 0x0100_0000_0000L) == 0) {
            int out = table.get(dst);
            if (out >= 0) {
                if (out == in.portNum) {
                    p.release();
                } else {
                    ports[out].send(p, bytes, mc);
                }
                return;
            }
        }
        flood(in, p);
    }

    private synchronized void learn(long mac, int port) {
        table = table.with(mac, port);
    }

    private void flood(PortImpl in, Packet p) {
        PortImpl[] ps = ports;
        int last = -1;
        for (int i = ps.length - 1; i >= 1; i--) {
            if (i != in.portNum && ps[i].link != null && ps[i].link.up) {
                last = i;
                break;
            }
        }
        if (last < 0) {
            p.release();
            return;
        }
        for (int i = 1; i < last; i++) {
            PortImpl out = ps[i];
            if (i != in.portNum && out.link != null && out.link.up) {
                out.send(out.pool.alloc().copyFrom(p));
            }
        }
        ps[last].send(p);
    }

    // ------------------------------------------------------------------ EthernetSegment

    @Override
    public FabricLink connect(EthernetPort hostPort) {
        return fabric.connectEthernet(this, (EthHostPort) hostPort, 0);
    }

    /** A bridge port without a cable, added if all are taken (fabric lock held). */
    PortImpl freePort(int wanted) {
        PortImpl[] ps = ports;
        if (wanted > 0) {
            return portImpl(wanted);
        }
        for (int i = 1; i < ps.length; i++) {
            if (ps[i].link == null) {
                return ps[i];
            }
        }
        PortImpl[] grown = java.util.Arrays.copyOf(ps, ps.length + 1);
        grown[ps.length] = new PortImpl(fabric, this, ps.length, 0, LinkLayer.ETHERNET);
        ports = grown;
        return grown[ps.length];
    }

    void hostAdded(EthHostPort host) {
        hosts.add(host);
    }

    void hostRemoved(EthHostPort host) {
        hosts.remove(host);
    }

    @Override
    public List<EthernetPort> hostPorts() {
        return Collections.unmodifiableList(new ArrayList<>(hosts));
    }

    @Override
    public Map<MacAddress, FabricPort> macTable() {
        MacTable t = table;
        Map<MacAddress, FabricPort> m = new LinkedHashMap<>();
        for (int i = 0; i < t.keys.length; i++) {
            if (t.keys[i] != 0) {
                m.put(MacAddress.of(t.keys[i] - 1), ports[t.ports[i]]);
            }
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public synchronized void flushMacTable() {
        table = MacTable.EMPTY;
    }

    @Override
    public Capture capture(Path file) throws IOException {
        CaptureImpl c = new CaptureImpl(file, false, fabric.clock(), this::captureClosed);
        CaptureImpl old;
        synchronized (this) {
            old = capture;
            capture = c;
        }
        if (old != null) {
            old.close();
        }
        return c;
    }

    private synchronized void captureClosed(CaptureImpl c) {
        if (capture == c) {
            capture = null;
        }
    }

    void closeCapture() {
        CaptureImpl c = capture;
        if (c != null) {
            c.close();
        }
    }
}
