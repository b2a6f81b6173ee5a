package org.rdma.fabric;

import java.util.Objects;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortState;

/**
 * A change of a port's physical link or logical state, as a port's state machine reports it
 * (IBTA vol. 1, 5.6 link states and 7.2 PortState).
 */
public final class PortEvent {

    /** What changed. */
    public enum Type {
        /** The physical link trained: PortPhysicalState LinkUp, PortState Init ({@code IB_EVENT_PORT_ACTIVE} follows later). */
        LINK_UP,
        /** The physical link went down (cable pulled, peer gone, disabled): PortState Down ({@code IB_EVENT_PORT_ERR}). */
        LINK_DOWN,
        /** PortInfo:PortState changed (Init/Armed/Active), set by the port's SMA. */
        PORT_STATE_CHANGE,
        /** The port's LID or LMC changed ({@code IB_EVENT_LID_CHANGE}). */
        LID_CHANGE
    }

    private final FabricPort port;
    private final Type type;
    private final PhysPortState physState;
    private final PortState oldState;
    private final PortState newState;

    /**
     * @param port      the port
     * @param type      what changed
     * @param physState PortPhysicalState after the change
     * @param oldState  PortState before
     * @param newState  PortState after
     */
    public PortEvent(FabricPort port, Type type, PhysPortState physState, PortState oldState, PortState newState) {
        this.port = Objects.requireNonNull(port);
        this.type = Objects.requireNonNull(type);
        this.physState = physState;
        this.oldState = oldState;
        this.newState = newState;
    }

    /** @return the port that changed */
    public FabricPort port() {
        return port;
    }

    /** @return what changed */
    public Type type() {
        return type;
    }

    /** @return PortInfo:PortPhysicalState after the change */
    public PhysPortState physState() {
        return physState;
    }

    /** @return PortInfo:PortState before the change */
    public PortState oldState() {
        return oldState;
    }

    /** @return PortInfo:PortState after the change */
    public PortState newState() {
        return newState;
    }

    @Override
    public String toString() {
        return "PortEvent{" + port + " " + type + " phys=" + physState + " " + oldState + "->" + newState + "}";
    }
}
