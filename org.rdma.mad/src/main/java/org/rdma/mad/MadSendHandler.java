package org.rdma.mad;

import org.osgi.annotation.versioning.ConsumerType;

/** {@code ib_mad_send_handler}: a posted MAD completed. Runs in the MAD layer's completion context. */
@FunctionalInterface
@ConsumerType
public interface MadSendHandler {
    /** Called once per posted send buffer; the buffer may be freed here. */
    void sendDone(MadAgent agent, MadSendWc wc);
}
