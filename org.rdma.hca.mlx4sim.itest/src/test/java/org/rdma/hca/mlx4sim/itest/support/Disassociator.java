package org.rdma.hca.mlx4sim.itest.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;

/**
 * The role of {@code ib_uverbs}' client for objects nobody cleans up: on {@code remove} it only
 * cuts the owner off ({@code ib_uverbs_remove_one()} disassociating the user context: later
 * calls fail), fencing the posting of the {@link Endpoint}s it watches, and destroys nothing:
 * those objects are left for the core to destroy.
 */
public final class Disassociator implements IbClient {
    private final String name;
    private final Map<String, List<Endpoint>> watched = new ConcurrentHashMap<>();
    private final List<String> log = new CopyOnWriteArrayList<>();

    public Disassociator(String name) {
        this.name = name;
    }

    /** Cuts {@code e} off when {@code device} goes away. */
    public void watch(String device, Endpoint e) {
        watched.computeIfAbsent(device, d -> new CopyOnWriteArrayList<>()).add(e);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int add(IbDevice device) {
        return 0;
    }

    @Override
    public void remove(IbDevice device, Object clientData) {
        List<Endpoint> l = watched.remove(device.name());
        if (l != null) {
            for (Endpoint e : l) {
                e.close();
            }
            log.add("disassociated " + device.name() + " " + l.size());
        }
    }

    public List<String> log() {
        return new ArrayList<>(log);
    }
}
