package org.rdma.mad;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;

/**
 * A registered management agent: {@code struct ib_mad_agent}, returned by
 * {@link MadService#registerMadAgent}. Its transaction IDs carry {@link #hiTid()} in their high
 * 32 bits, which routes responses back to it.
 */
@ProviderType
public interface MadAgent {
    /** {@code IB_MGMT_RMPP_VERSION}: the only RMPP version defined. */
    int RMPP_VERSION = 1;
    /** {@code IB_MAD_USER_RMPP}: the agent does RMPP itself (user MAD agents); segments reach it raw. */
    int FLAG_USER_RMPP = 1;

    /** {@code mad_agent->device}. */
    IbDevice device();

    /** {@code mad_agent->port_num}. */
    int portNum();

    /** {@code mad_agent->qp->qp_type}: {@link QpType#SMI} or {@link QpType#GSI}. */
    QpType qpType();

    /** {@code mad_agent->qp->qp_num}: 0 or 1. */
    int qpNum();

    /** {@code mad_agent->hi_tid}: the high 32 bits of this agent's transaction IDs. */
    int hiTid();

    /** {@code mad_agent->rmpp_version}: 0, or {@link #RMPP_VERSION}. */
    int rmppVersion();

    /** {@code mad_agent->flags}. */
    int flags();

    /** {@code mad_agent->context}. */
    Object context();

    /**
     * A transaction ID of this agent: {@link #hiTid()} in the high 32 bits, {@code lo} in the low
     * ones (the kernel's clients build theirs the same way).
     */
    default long tid(int lo) {
        return (long) hiTid() << 32 | (lo & 0xffff_ffffL);
    }
}
