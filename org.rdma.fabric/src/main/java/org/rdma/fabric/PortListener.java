package org.rdma.fabric;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Told about changes of a port's link and state, the way a driver learns of them from its
 * hardware (mlx4's port change EQE, from which it raises {@code IB_EVENT_PORT_ERR} /
 * {@code IB_EVENT_PORT_ACTIVE} / {@code IB_EVENT_LID_CHANGE}). Called without fabric locks held,
 * on the thread that caused the change.
 */
@ConsumerType
@FunctionalInterface
public interface PortListener {
    /**
     * @param event what changed
     */
    void portChanged(PortEvent event);
}
