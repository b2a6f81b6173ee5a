package org.rdma.verbs;

/** Mirrors {@code enum ib_port_phys_state}; {@link #value} is PortInfo:PortPhysicalState. */
public enum PhysPortState {
    /** {@code IB_PORT_PHYS_STATE_NOP}. */
    NOP(0),
    /** {@code IB_PORT_PHYS_STATE_SLEEP}. */
    SLEEP(1),
    /** {@code IB_PORT_PHYS_STATE_POLLING}. */
    POLLING(2),
    /** {@code IB_PORT_PHYS_STATE_DISABLED}. */
    DISABLED(3),
    /** {@code IB_PORT_PHYS_STATE_PORT_CONFIGURATION_TRAINING}. */
    PORT_CONFIGURATION_TRAINING(4),
    /** {@code IB_PORT_PHYS_STATE_LINK_UP}. */
    LINK_UP(5),
    /** {@code IB_PORT_PHYS_STATE_LINK_ERROR_RECOVERY}. */
    LINK_ERROR_RECOVERY(6),
    /** {@code IB_PORT_PHYS_STATE_PHY_TEST}. */
    PHY_TEST(7);

    /** The IBTA encoding. */
    public final int value;

    PhysPortState(int value) {
        this.value = value;
    }

    /** The physical state with this encoding. */
    public static PhysPortState of(int value) {
        for (PhysPortState s : values()) {
            if (s.value == value) {
                return s;
            }
        }
        throw new RdmaException(Errno.EINVAL, "unknown physical port state " + value);
    }
}
