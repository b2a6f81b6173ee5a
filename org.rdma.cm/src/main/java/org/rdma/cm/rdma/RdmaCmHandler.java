package org.rdma.cm.rdma;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * {@code rdma_cm_event_handler}: the consumer's callback. Events of one id are delivered one at
 * a time, in order, under the id's handler lock ({@code handler_mutex}); the handler may call
 * {@link RdmaCmService#accept}, {@link RdmaCmService#reject}, {@link RdmaCmService#resolveRoute},
 * {@link RdmaCmService#connect} ... on the id, but must not destroy it: it returns non-zero and
 * the CM destroys the id when the handler returns. A {@code CONNECT_REQUEST} comes on a new id
 * that inherits the listener's handler and context.
 */
@FunctionalInterface
@ConsumerType
public interface RdmaCmHandler {
    /**
     * @param id    the id the event is for
     * @param event the event; its parameters are valid during the call only
     * @return 0, or non-zero to have the CM destroy {@code id}
     */
    int handle(RdmaCmId id, RdmaCmEvent event);
}
