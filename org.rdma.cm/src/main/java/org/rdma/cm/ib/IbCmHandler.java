package org.rdma.cm.ib;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * {@code ib_cm_handler}: the consumer's callback for the events of a communication identifier.
 * Events of one id are delivered one at a time, in order, and never while CM locks are held.
 *
 * <p>{@link IbCmEventType#REQ_RECEIVED} and {@link IbCmEventType#SIDR_REQ_RECEIVED} arriving on
 * a listen are reported on a new id, which the consumer then owns (it inherits the listener's
 * handler and context). A handler must not call {@link IbCmService#destroyCmId} on the id it is
 * called for; it returns non-zero instead and the CM destroys the id once the handler returns.
 */
@FunctionalInterface
@ConsumerType
public interface IbCmHandler {
    /**
     * @param cmId  the id the event is for
     * @param event the event; its data is valid during the call only
     * @return 0, or non-zero to have the CM destroy {@code cmId}
     */
    int handle(IbCmId cmId, IbCmEvent event);
}
