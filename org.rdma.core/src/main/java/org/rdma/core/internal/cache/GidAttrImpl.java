package org.rdma.core.internal.cache;

import java.util.concurrent.atomic.AtomicInteger;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;

/**
 * A GID table entry ({@code struct ib_gid_table_entry} with its {@code ib_gid_attr}). The table
 * holds one reference while the entry occupies its slot; callers hold more. A replaced entry
 * stays valid for its holders.
 */
final class GidAttrImpl implements GidAttr {
    private final IbDevice device;
    private final Gid gid;
    private final GidType type;
    private final int index;
    private final int port;
    private final String netdev;
    private final AtomicInteger refs = new AtomicInteger(1);

    GidAttrImpl(IbDevice device, Gid gid, GidType type, int index, int port, String netdev) {
        this.device = device;
        this.gid = gid;
        this.type = type;
        this.index = index;
        this.port = port;
        this.netdev = netdev;
    }

    @Override
    public IbDevice device() {
        return device;
    }

    @Override
    public Gid gid() {
        return gid;
    }

    @Override
    public GidType gidType() {
        return type;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public int portNum() {
        return port;
    }

    @Override
    public String netdev() {
        return netdev;
    }

    @Override
    public void hold() {
        refs.updateAndGet(r -> {
            if (r <= 0) {
                throw new RdmaException(Errno.EINVAL, "hold of a released GID attribute " + this);
            }
            return r + 1;
        });
    }

    @Override
    public void put() {
        if (refs.decrementAndGet() < 0) {
            refs.incrementAndGet();
            throw new RdmaException(Errno.EINVAL, "put of a GID attribute without a reference " + this);
        }
    }

    /** References currently held, the table's included. */
    int refCount() {
        return refs.get();
    }

    @Override
    public String toString() {
        return device.name() + "/" + port + " gid[" + index + "] " + gid + " " + type.displayName()
                + (netdev != null ? " " + netdev : "");
    }
}
