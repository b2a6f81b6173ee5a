package org.rdma.core.internal.registry;

import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.verbs.runtime.FailedDTO;

/** What the registry knows of one provider service: its device, or why it has none. */
final class ProviderEntry {
    final long serviceId;
    volatile CoreDevice device;
    volatile FailedDTO failure;

    ProviderEntry(long serviceId) {
        this.serviceId = serviceId;
    }
}
