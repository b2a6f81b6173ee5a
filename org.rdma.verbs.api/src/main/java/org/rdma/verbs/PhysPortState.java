package org.rdma.verbs;

/** Mirrors {@code enum ib_port_phys_state}; {@link #value} is PortInfo:PortPhysicalState. */
public enum PhysPortState {
    NOP(0), SLEEP(1), POLLING(2), DISABLED(3), PORT_CONFIGURATION_TRAINING(4), LINK_UP(5),
    LINK_ERROR_RECOVERY(6), PHY_TEST(7);

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
