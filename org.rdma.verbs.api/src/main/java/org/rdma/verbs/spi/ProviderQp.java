package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendWr;

/**
 * A driver's queue pair ({@code ops.create_qp}). The core has already checked modify requests
 * against {@code ib_modify_qp_is_ok()}.
 */
@ConsumerType
public interface ProviderQp {
    /** {@code qp_num}: 0 for SMI, 1 for GSI. */
    int qpNum();

    /** The current state (the driver may move the QP to ERR or SQE on its own). */
    QpState state();

    /** {@code ops.modify_qp}. */
    void modify(QpAttr attr, int mask);

    /** {@code ops.query_qp}. */
    void query(QpAttr attr, int mask, QpInitAttr init);

    /** {@code ops.post_send}: 0 or a negative errno with {@code badWr[0]} set if given. */
    int postSend(SendWr wr, SendWr[] badWr);

    /** {@code ops.post_recv}. */
    int postRecv(RecvWr wr, RecvWr[] badWr);

    /** {@code ops.attach_mcast}. */
    default void attachMcast(Gid gid, int lid) {
        throw new RdmaException(Errno.EOPNOTSUPP, "attach_mcast is not supported");
    }

    /** {@code ops.detach_mcast}. */
    default void detachMcast(Gid gid, int lid) {
        throw new RdmaException(Errno.EOPNOTSUPP, "detach_mcast is not supported");
    }

    /**
     * {@code ops.drain_sq}: a driver-specific drain; return {@code false} to let the core use
     * the generic technique (move to ERR, post a marker, wait for its flush).
     */
    default boolean drainSq() {
        return false;
    }

    /** {@code ops.drain_rq}: as {@link #drainSq}. */
    default boolean drainRq() {
        return false;
    }

    /** {@code ops.destroy_qp}: flushes what is still queued, then releases the QP. */
    void destroy();
}
