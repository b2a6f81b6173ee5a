package org.rdma.verbs;

/** Mirrors {@code enum ib_port_width} and {@code ib_width_enum_to_int()}. */
public enum PortWidth {
    /** {@code IB_WIDTH_1X}. */
    WIDTH_1X(1, 1),
    /** {@code IB_WIDTH_2X}. */
    WIDTH_2X(16, 2),
    /** {@code IB_WIDTH_4X}. */
    WIDTH_4X(2, 4),
    /** {@code IB_WIDTH_8X}. */
    WIDTH_8X(4, 8),
    /** {@code IB_WIDTH_12X}. */
    WIDTH_12X(8, 12);

    /** The PortInfo LinkWidthActive encoding. */
    public final int value;
    /** Number of lanes. */
    public final int lanes;

    PortWidth(int value, int lanes) {
        this.value = value;
        this.lanes = lanes;
    }

    /** The width with this encoding. */
    public static PortWidth of(int value) {
        for (PortWidth w : values()) {
            if (w.value == value) {
                return w;
            }
        }
        throw new RdmaException(Errno.EINVAL, "invalid port width " + value);
    }
}
