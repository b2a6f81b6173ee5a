package org.rdma.fabric;

import org.rdma.fabric.internal.FabricImpl;
import org.rdma.verbs.time.IbClock;

/** Creates fabrics without OSGi: for tests of drivers, transports and subnet managers. */
public final class Fabrics {

    private Fabrics() {
    }

    /**
     * Builds a fabric from a topology.
     *
     * @param name     the fabric's name
     * @param topology the nodes and cables
     * @param clock    the clock for fault delays and retries (a {@code VirtualClock} in tests)
     * @param seed     seed of the fault generators
     * @return the fabric; close it when done
     */
    public static Fabric create(String name, Topology topology, IbClock clock, long seed) {
        return new FabricImpl(name, topology, clock, seed);
    }
}
