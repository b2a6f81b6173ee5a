package org.rdma.itest.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.spi.GidEntry;

/**
 * What a {@link TestProvider} reports about itself: name template, driver id, node GUID, ports
 * with their link layer, and per port a GID table and a P_Key table. Fluent setters; each call
 * of {@link #ports} or {@link #linkLayer} rebuilds the default tables, so set tables last.
 */
public final class DeviceConfig {
    /** GID table length per port. */
    public static final int GID_TABLE_LEN = 8;
    /** P_Key table length per port. */
    public static final int PKEY_TABLE_LEN = 8;

    private static final AtomicLong NEXT_GUID = new AtomicLong(0x0002_c903_0000_1000L);

    String nameTemplate;
    String driverId;
    long nodeGuid = nextGuid();
    int ports = 1;
    LinkLayer linkLayer = LinkLayer.INFINIBAND;
    int numCompVectors = 4;
    List<GidEntry[]> gids = new ArrayList<>();
    List<int[]> pkeys = new ArrayList<>();

    private DeviceConfig(String nameTemplate, String driverId) {
        this.nameTemplate = nameTemplate;
        this.driverId = driverId;
        defaultTables();
    }

    /** A one-port InfiniBand device with a fresh node GUID. */
    public static DeviceConfig of(String nameTemplate, String driverId) {
        return new DeviceConfig(nameTemplate, driverId);
    }

    /** A node GUID no other configuration of this run uses. */
    public static long nextGuid() {
        return NEXT_GUID.getAndAdd(0x100);
    }

    /** The port GUID of {@code port}: the node GUID plus the port number. */
    public long portGuid(int port) {
        return nodeGuid + port;
    }

    public DeviceConfig nodeGuid(long guid) {
        this.nodeGuid = guid;
        defaultTables();
        return this;
    }

    public DeviceConfig ports(int n) {
        this.ports = n;
        defaultTables();
        return this;
    }

    public DeviceConfig linkLayer(LinkLayer ll) {
        this.linkLayer = ll;
        defaultTables();
        return this;
    }

    public DeviceConfig numCompVectors(int n) {
        this.numCompVectors = n;
        return this;
    }

    /** Replaces the GID table of {@code port} (padded with empty slots to {@link #GID_TABLE_LEN}). */
    public DeviceConfig gids(int port, GidEntry... entries) {
        GidEntry[] t = new GidEntry[GID_TABLE_LEN];
        System.arraycopy(entries, 0, t, 0, entries.length);
        gids.set(port - 1, t);
        return this;
    }

    /** Replaces the P_Key table of {@code port} (padded with 0 to {@link #PKEY_TABLE_LEN}). */
    public DeviceConfig pkeys(int port, int... table) {
        int[] t = new int[PKEY_TABLE_LEN];
        System.arraycopy(table, 0, t, 0, table.length);
        pkeys.set(port - 1, t);
        return this;
    }

    public String nameTemplate() {
        return nameTemplate;
    }

    public String driverId() {
        return driverId;
    }

    public long nodeGuid() {
        return nodeGuid;
    }

    public int ports() {
        return ports;
    }

    public LinkLayer linkLayer() {
        return linkLayer;
    }

    /** The netdev name of an Ethernet port's GIDs. */
    public String netdevOf(int port) {
        return String.format("tst%x_%d", nodeGuid & 0xffff, port);
    }

    private void defaultTables() {
        gids = new ArrayList<>();
        pkeys = new ArrayList<>();
        for (int p = 1; p <= ports; p++) {
            GidEntry[] t = new GidEntry[GID_TABLE_LEN];
            if (linkLayer == LinkLayer.ETHERNET) {
                t[0] = new GidEntry(Gid.linkLocal(portGuid(p)), GidType.ROCE_UDP_ENCAP, netdevOf(p));
            } else {
                t[0] = new GidEntry(Gid.linkLocal(portGuid(p)), GidType.IB, null);
            }
            gids.add(t);
            int[] k = new int[PKEY_TABLE_LEN];
            k[0] = 0xffff;
            pkeys.add(k);
        }
    }
}
