package org.rdma.itest.driver;

import org.rdma.verbs.IbCqe;
import org.rdma.verbs.WrOpcode;

/** A posted work request the driver still owes a completion for. */
final class PendingWr {
    final long wrId;
    final IbCqe wrCqe;
    final WrOpcode opcode;
    final int length;
    final boolean signaled;
    final boolean solicited;

    PendingWr(long wrId, IbCqe wrCqe, WrOpcode opcode, int length, boolean signaled, boolean solicited) {
        this.wrId = wrId;
        this.wrCqe = wrCqe;
        this.opcode = opcode;
        this.length = length;
        this.signaled = signaled;
        this.solicited = solicited;
    }
}
