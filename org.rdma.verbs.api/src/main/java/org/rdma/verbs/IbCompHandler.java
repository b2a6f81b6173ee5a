package org.rdma.verbs;

import org.osgi.annotation.versioning.ConsumerType;

/** The completion handler of {@code ib_create_cq()}: {@code ib_comp_handler}. */
@FunctionalInterface
@ConsumerType
public interface IbCompHandler {
    /** {@code comp_handler(cq, cq_context)}: the CQ was armed and a completion arrived. */
    void complete(IbCq cq);
}
