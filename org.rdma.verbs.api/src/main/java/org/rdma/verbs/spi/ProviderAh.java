package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/** A driver's address handle ({@code ops.create_ah}). */
@ConsumerType
public interface ProviderAh {
    /** {@code ops.modify_ah}. */
    default void modify(AhAttr attr) {
        throw new RdmaException(Errno.EOPNOTSUPP, "modify_ah is not supported");
    }

    /** {@code ops.destroy_ah}. */
    void destroy();
}
