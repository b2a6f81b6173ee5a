package org.rdma.verbs;

/** Mirrors {@code enum ib_mtu}, {@code ib_mtu_enum_to_int()} and {@code ib_mtu_int_to_enum()}. */
public enum Mtu {
    /** {@code IB_MTU_256}. */
    MTU_256(1, 256),
    /** {@code IB_MTU_512}. */
    MTU_512(2, 512),
    /** {@code IB_MTU_1024}. */
    MTU_1024(3, 1024),
    /** {@code IB_MTU_2048}. */
    MTU_2048(4, 2048),
    /** {@code IB_MTU_4096}. */
    MTU_4096(5, 4096);

    /** The IBTA encoding (PortInfo NeighborMTU, PathRecord MTU, QP path MTU). */
    public final int value;
    /** The payload size in bytes. */
    public final int bytes;

    /** {@link #values()} without its copy: every QP moved to RTR looks its MTU up. */
    private static final Mtu[] VALUES = values();

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** The MTU with this IBTA encoding; mirrors the kernel's enum cast checks. */
    public static Mtu of(int value) {
        for (Mtu m : VALUES) {
            if (m.value == value) {
                return m;
            }
        }
        throw new RdmaException(Errno.EINVAL, "invalid MTU encoding " + value);
    }

    /** The largest MTU not larger than {@code bytes}; mirrors {@code ib_mtu_int_to_enum()}. */
    public static Mtu fromBytes(int bytes) {
        Mtu best = MTU_256;
        for (Mtu m : values()) {
            if (m.bytes <= bytes) {
                best = m;
            }
        }
        return best;
    }
}
