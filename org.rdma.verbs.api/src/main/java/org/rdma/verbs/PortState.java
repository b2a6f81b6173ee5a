package org.rdma.verbs;

/** Mirrors {@code enum ib_port_state}; {@link #value} is the PortInfo PortState encoding. */
public enum PortState {
    /** {@code IB_PORT_NOP}. */
    NOP(0),
    /** {@code IB_PORT_DOWN}. */
    DOWN(1),
    /** {@code IB_PORT_INIT}. */
    INIT(2),
    /** {@code IB_PORT_ARMED}. */
    ARMED(3),
    /** {@code IB_PORT_ACTIVE}. */
    ACTIVE(4),
    /** {@code IB_PORT_ACTIVE_DEFER}. */
    ACTIVE_DEFER(5);

    /** The IBTA PortInfo:PortState value. */
    public final int value;

    PortState(int value) {
        this.value = value;
    }

    /** The state with this PortInfo encoding. */
    public static PortState of(int value) {
        for (PortState s : values()) {
            if (s.value == value) {
                return s;
            }
        }
        throw new RdmaException(Errno.EINVAL, "unknown port state " + value);
    }

    /** The name {@code ibv_devinfo} prints, e.g. {@code PORT_ACTIVE}. */
    public String displayName() {
        return "PORT_" + name();
    }
}
