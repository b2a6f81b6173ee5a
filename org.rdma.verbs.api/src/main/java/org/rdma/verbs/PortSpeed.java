package org.rdma.verbs;

/** Mirrors {@code enum ib_port_speed}; {@link #gbpsPerLane} as {@code ib_ext_speed} rates. */
public enum PortSpeed {
    SDR(1, 2.5), DDR(2, 5.0), QDR(4, 10.0), FDR10(8, 10.0), FDR(16, 14.0625), EDR(32, 25.78125),
    HDR(64, 50.0), NDR(128, 100.0), XDR(256, 200.0);

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
