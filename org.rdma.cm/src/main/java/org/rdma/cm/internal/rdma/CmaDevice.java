package org.rdma.cm.internal.rdma;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;

/**
 * A device the RDMA CM serves: {@code struct cma_device}, with the ids bound to it
 * ({@code id_list}, guarded by the engine lock) and each port's default GID type.
 */
final class CmaDevice {
    final IbDevice device;
    final Set<CmaId> ids = new LinkedHashSet<>();
    private final GidType[] defaultGidType;
    /** Per port: destination GIDs whose neighbour answered, with when that stops counting (ns). */
    private final Map<Neighbour, Long> neighbours = new ConcurrentHashMap<>();

    CmaDevice(IbDevice device) {
        this.device = device;
        defaultGidType = new GidType[device.endPort() + 1];
        for (int p = device.startPort(); p <= device.endPort(); p++) {
            // the kernel's CMA_PREFERRED_ROCE_GID_TYPE; InfiniBand ports have only IB GIDs
            defaultGidType[p] = device.getLinkLayer(p) == LinkLayer.INFINIBAND ? GidType.IB : GidType.ROCE_UDP_ENCAP;
        }
    }

    /** {@code cma_get_default_gid_type()}. */
    GidType defaultGidType(int port) {
        return defaultGidType[port];
    }

    /**
     * Whether the neighbour of {@code dgid} on {@code port} answered within its reachable time
     * (the kernel's neighbour table, which {@code rdma_resolve_ip()} reads before it asks again).
     */
    boolean neighbourKnown(int port, Gid dgid, long now) {
        Long until = neighbours.get(key(port, dgid));
        return until != null && until - now > 0;
    }

    /** Records that the neighbour of {@code dgid} answered, reachable until {@code until}. */
    void neighbourSeen(int port, Gid dgid, long until) {
        if (neighbours.size() > 4096) {
            neighbours.clear();
        }
        neighbours.put(key(port, dgid), until);
    }

    private static Neighbour key(int port, Gid g) {
        return new Neighbour(port, g);
    }

    private record Neighbour(int port, Gid gid) {
    }

    boolean isRoce(int port) {
        return device.getLinkLayer(port) == LinkLayer.ETHERNET;
    }
}
