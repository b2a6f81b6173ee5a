package org.rdma.core.internal.cache;

import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortIndex;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.spi.IbDeviceProvider;

/**
 * The GID and P_Key cache of one device ({@code drivers/infiniband/core/cache.c}): filled from
 * the driver at registration and refreshed per port on the events that change the tables
 * ({@code ib_cache_update()}). Readers see whole tables: each refresh publishes new arrays.
 */
public final class DeviceCache {
    private static final class PortTables {
        final GidAttrImpl[] gids;
        final int[] pkeys;

        PortTables(GidAttrImpl[] gids, int[] pkeys) {
            this.gids = gids;
            this.pkeys = pkeys;
        }
    }

    private final IbDevice device;
    private final IbDeviceProvider provider;
    private final int startPort;
    private final LinkLayer[] linkLayers;
    private final PortTables[] ports;

    /** A cache for ports {@code startPort..linkLayers.length-1+startPort}. */
    public DeviceCache(IbDevice device, IbDeviceProvider provider, int startPort, LinkLayer[] linkLayers) {
        this.device = device;
        this.provider = provider;
        this.startPort = startPort;
        this.linkLayers = linkLayers;
        this.ports = new PortTables[linkLayers.length];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = new PortTables(new GidAttrImpl[0], new int[0]);
        }
    }

    /** {@code ib_cache_update()}: re-reads the port's GID and P_Key tables from the driver. */
    public void refresh(int port) {
        PortAttr attr = provider.queryPort(port);
        GidAttrImpl[] gids = new GidAttrImpl[attr.gidTblLen];
        PortTables old;
        synchronized (this) {
            old = ports[slot(port)];
        }
        for (int i = 0; i < gids.length; i++) {
            GidEntry e = provider.queryGid(port, i);
            if (e == null || e.gid.isZero()) {
                continue;
            }
            GidType type = e.type != null ? e.type : GidType.IB;
            GidAttrImpl prev = i < old.gids.length ? old.gids[i] : null;
            boolean same = prev != null && prev.gid().equals(e.gid) && prev.gidType() == type
                    && java.util.Objects.equals(prev.netdev(), e.netdev);
            gids[i] = same ? prev : new GidAttrImpl(device, e.gid, type, i, port, e.netdev);
        }
        int[] pkeys = new int[attr.pkeyTblLen];
        for (int i = 0; i < pkeys.length; i++) {
            pkeys[i] = provider.queryPkey(port, i) & 0xffff;
        }
        synchronized (this) {
            ports[slot(port)] = new PortTables(gids, pkeys);
        }
        // The table's reference on entries that left it.
        for (int i = 0; i < old.gids.length; i++) {
            GidAttrImpl prev = old.gids[i];
            if (prev != null && (i >= gids.length || gids[i] != prev)) {
                prev.put();
            }
        }
    }

    /** Drops the table references (device removal); held entries stay valid. */
    public synchronized void clear() {
        for (int i = 0; i < ports.length; i++) {
            for (GidAttrImpl g : ports[i].gids) {
                if (g != null) {
                    g.put();
                }
            }
            ports[i] = new PortTables(new GidAttrImpl[0], new int[0]);
        }
    }

    private int slot(int port) {
        int s = port - startPort;
        if (s < 0 || s >= ports.length) {
            throw new RdmaException(Errno.EINVAL, device.name() + ": no port " + port);
        }
        return s;
    }

    private PortTables tables(int port) {
        int s = slot(port);
        synchronized (this) {
            return ports[s];
        }
    }

    private GidAttrImpl entry(int port, int index) {
        GidAttrImpl[] g = tables(port).gids;
        if (index < 0 || index >= g.length) {
            throw new RdmaException(Errno.EINVAL, device.name() + "/" + port + ": GID index " + index
                    + " outside the table of " + g.length);
        }
        if (g[index] == null) {
            throw RdmaException.miss(Errno.ENOENT, () -> device.name() + "/" + port + ": GID index " + index + " is empty");
        }
        return g[index];
    }

    /** {@code rdma_query_gid()}. */
    public Gid queryGid(int port, int index) {
        return entry(port, index).gid();
    }

    /** {@code rdma_get_gid_attr()}: held. */
    public GidAttr getGidAttr(int port, int index) {
        synchronized (this) {
            GidAttrImpl e = entry(port, index);
            e.hold();
            return e;
        }
    }

    /** {@code rdma_find_gid()}: held; ENOENT. */
    public GidAttr findGidAttr(Gid gid, GidType type, String netdev) {
        synchronized (this) {
            for (PortTables t : ports) {
                for (GidAttrImpl e : t.gids) {
                    if (e != null && e.gid().equals(gid) && (type == null || e.gidType() == type)
                            && (netdev == null || netdev.equals(e.netdev()))) {
                        e.hold();
                        return e;
                    }
                }
            }
        }
        throw RdmaException.miss(Errno.ENOENT, () -> device.name() + ": GID " + gid + " not found");
    }

    /** {@code ib_find_gid()}: InfiniBand ports only, as in the kernel; ENOENT. */
    public PortIndex findGid(Gid gid) {
        for (int s = 0; s < ports.length; s++) {
            if (linkLayers[s] != LinkLayer.INFINIBAND) {
                continue;
            }
            GidAttrImpl[] g = tables(s + startPort).gids;
            for (int i = 0; i < g.length; i++) {
                if (g[i] != null && g[i].gid().equals(gid)) {
                    return new PortIndex(s + startPort, i);
                }
            }
        }
        throw RdmaException.miss(Errno.ENOENT, () -> device.name() + ": GID " + gid + " not found");
    }

    /** {@code ib_get_cached_pkey()}. */
    public int queryPkey(int port, int index) {
        int[] p = tables(port).pkeys;
        if (index < 0 || index >= p.length) {
            throw new RdmaException(Errno.EINVAL, device.name() + "/" + port + ": P_Key index " + index
                    + " outside the table of " + p.length);
        }
        return p[index];
    }

    /** {@code ib_find_pkey()}: low 15 bits match, a full member (bit 15) wins; ENOENT. */
    public int findPkey(int port, int pkey) {
        int[] p = tables(port).pkeys;
        int partial = -1;
        for (int i = 0; i < p.length; i++) {
            if ((p[i] & 0x7fff) == (pkey & 0x7fff)) {
                if ((p[i] & 0x8000) != 0) {
                    return i;
                }
                if (partial < 0) {
                    partial = i;
                }
            }
        }
        if (partial >= 0) {
            return partial;
        }
        throw new RdmaException(Errno.ENOENT, device.name() + "/" + port + ": P_Key 0x"
                + Integer.toHexString(pkey) + " not found");
    }

    /** The non-empty GIDs of a port as {@code index=gid} strings (for DTOs). */
    public String[] gidStrings(int port) {
        List<String> out = new ArrayList<>();
        for (GidAttrImpl g : tables(port).gids) {
            if (g != null) {
                out.add(g.index() + "=" + g.gid() + " " + g.gidType().displayName()
                        + (g.netdev() != null ? " " + g.netdev() : ""));
            }
        }
        return out.toArray(new String[0]);
    }

    /** The non-zero P_Keys of a port (for DTOs). */
    public int[] pkeys(int port) {
        return java.util.Arrays.stream(tables(port).pkeys).filter(k -> k != 0).toArray();
    }
}
