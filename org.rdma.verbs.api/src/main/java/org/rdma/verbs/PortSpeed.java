package org.rdma.verbs;

/** Mirrors {@code enum ib_port_speed}; {@link #gbpsPerLane} as {@code ib_ext_speed} rates. */
public enum PortSpeed {
    /** {@code IB_SPEED_SDR}. */
    SDR(1, 2.5),
    /** {@code IB_SPEED_DDR}. */
    DDR(2, 5.0),
    /** {@code IB_SPEED_QDR}. */
    QDR(4, 10.0),
    /** {@code IB_SPEED_FDR10}. */
    FDR10(8, 10.0),
    /** {@code IB_SPEED_FDR}. */
    FDR(16, 14.0625),
    /** {@code IB_SPEED_EDR}. */
    EDR(32, 25.78125),
    /** {@code IB_SPEED_HDR}. */
    HDR(64, 50.0),
    /** {@code IB_SPEED_NDR}. */
    NDR(128, 100.0),
    /** {@code IB_SPEED_XDR}. */
    XDR(256, 200.0);

    /** The kernel encoding. */
    public final int value;
    /** Signalling rate per lane in Gb/s. */
    public final double gbpsPerLane;

    PortSpeed(int value, double gbpsPerLane) {
        this.value = value;
        this.gbpsPerLane = gbpsPerLane;
    }

    /** The speed with this encoding. */
    public static PortSpeed of(int value) {
        for (PortSpeed s : values()) {
            if (s.value == value) {
                return s;
            }
        }
        throw new RdmaException(Errno.EINVAL, "invalid port speed " + value);
    }
}
