package org.rdma.cm.rdma;

import org.osgi.annotation.versioning.ProviderType;

/**
 * {@code struct rdma_event_channel}: a queue of events of the ids created on it or migrated to
 * it, read with {@link RdmaCmService#getCmEvent} and released with
 * {@link RdmaCmService#ackCmEvent}.
 */
@ProviderType
public interface RdmaEventChannel {
    /** Events queued and not yet read: what makes the channel's {@code fd} readable ({@code POLLIN}). */
    int pending();
}
