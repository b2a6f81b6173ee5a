package org.rdma.verbs;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Receives asynchronous events: the handler of {@code struct ib_event_handler} (registered with
 * {@link IbDevice#registerEventHandler}, {@code ib_register_event_handler()}) and the
 * {@code event_handler} of QP, CQ, SRQ and WQ init attributes.
 */
@FunctionalInterface
@ConsumerType
public interface IbEventHandler {
    /** Called for each event; must not block for long (the kernel calls it in atomic context). */
    void handle(IbEvent event);
}
