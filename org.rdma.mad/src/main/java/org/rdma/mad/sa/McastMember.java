package org.rdma.mad.sa;

import org.osgi.annotation.versioning.ProviderType;

/** A multicast join: {@code struct ib_sa_multicast}, freed with {@link SaService#freeMulticast}. */
@ProviderType
public interface McastMember {
    /** {@code multicast->rec}: the request, then the SA's answer once joined. */
    McMemberRecord rec();

    /** {@code multicast->context}. */
    Object context();
}
