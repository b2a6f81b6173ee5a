package org.rdma.core.internal.registry;

import org.rdma.verbs.IbClient;

/** A registered client: its {@code client_id} (registration order) and service id. */
final class ClientEntry {
    final IbClient client;
    final int id;
    final long serviceId;
    final String name;
    volatile boolean registered = true;

    ClientEntry(IbClient client, int id, long serviceId, String name) {
        this.client = client;
        this.id = id;
        this.serviceId = serviceId;
        this.name = name;
    }
}
