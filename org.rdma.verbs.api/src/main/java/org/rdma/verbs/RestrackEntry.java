package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/**
 * {@code struct rdma_restrack_entry}: an object a consumer added to a device's resource tracker
 * with {@link IbDevice#restrackAdd}, listed by {@code rdma res show} until {@link #del()}.
 */
@ProviderType
public interface RestrackEntry {
    /** The id {@code rdma res} prints ({@code cm-idn} for a CM id). */
    long id();

    /** {@code rdma_restrack_del()}: the object is no longer tracked; a no-op the second time. */
    void del();
}
