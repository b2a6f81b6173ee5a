package org.rdma.mad;

import org.osgi.annotation.versioning.ConsumerType;

/** {@code ib_mad_recv_handler}: a MAD arrived for the agent. Runs in the receive CQ's poll context. */
@FunctionalInterface
@ConsumerType
public interface MadRecvHandler {
    /**
     * @param agent   the agent
     * @param sendBuf for a response, the request it answers; {@code null} for a request
     * @param wc      the received MAD
     */
    void recvDone(MadAgent agent, MadSendBuf sendBuf, MadRecvWc wc);
}
