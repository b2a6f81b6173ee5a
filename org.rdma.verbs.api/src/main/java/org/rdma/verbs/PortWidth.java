package org.rdma.verbs;

/** Mirrors {@code enum ib_port_width} and {@code ib_width_enum_to_int()}. */
public enum PortWidth {
    WIDTH_1X(1, 1), WIDTH_2X(16, 2), WIDTH_4X(2, 4), WIDTH_8X(4, 8), WIDTH_12X(8, 12);

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
