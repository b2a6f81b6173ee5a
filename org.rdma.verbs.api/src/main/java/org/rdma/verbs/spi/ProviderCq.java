package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;

/** A driver's completion queue ({@code ops.create_cq}). */
@ConsumerType
public interface ProviderCq {
    /** The actual number of entries. */
    int cqe();

    /** {@code ops.poll_cq}: moves up to {@code n} completions into {@code wc}; never allocates. */
    int pollCq(int n, Wc[] wc);

    /**
     * {@code ops.req_notify_cq}: arms the CQ; afterwards the driver calls
     * {@link DeviceContext#cqComplete} once for the next (solicited) completion.
     */
    int reqNotifyCq(int flags);

    /** {@code ops.resize_cq}. */
    default void resize(int cqe) {
        throw new RdmaException(Errno.EOPNOTSUPP, "resize_cq is not supported");
    }

    /** {@code ops.destroy_cq}. */
    void destroy();
}
