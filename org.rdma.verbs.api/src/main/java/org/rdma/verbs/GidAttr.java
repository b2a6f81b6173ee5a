package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A GID table entry with its attributes: {@code struct ib_gid_attr}. Entries are reference
 * counted by the core's GID cache: an entry obtained from {@link IbDevice#getGidAttr} is held
 * and must be released with {@link #put()} ({@code rdma_put_gid_attr()}); {@link #hold()}
 * takes another reference ({@code rdma_hold_gid_attr()}). A held entry stays valid even after
 * the table slot changes.
 */
@ProviderType
public interface GidAttr {
    /** {@code attr->device}. */
    IbDevice device();

    /** {@code attr->gid}. */
    Gid gid();

    /** {@code attr->gid_type}. */
    GidType gidType();

    /** {@code attr->index}: the GID table index. */
    int index();

    /** {@code attr->port_num}. */
    int portNum();

    /** The name of {@code attr->ndev}, or {@code null} on InfiniBand ports. */
    String netdev();

    /** Takes a reference; mirrors {@code rdma_hold_gid_attr()}. */
    void hold();

    /** Drops a reference; mirrors {@code rdma_put_gid_attr()}. */
    void put();
}
