package org.rdma.verbs;

/** A (port, table index) pair, the out-parameters of {@code ib_find_gid()} and {@code ib_find_pkey()}. */
public final class PortIndex {
    /** The port number. */
    public final int port;
    /** The table index. */
    public final int index;

    /** The pair. */
    public PortIndex(int port, int index) {
        this.port = port;
        this.index = index;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PortIndex && ((PortIndex) o).port == port && ((PortIndex) o).index == index;
    }

    @Override
    public int hashCode() {
        return port * 65599 + index;
    }

    @Override
    public String toString() {
        return "port " + port + " index " + index;
    }
}
