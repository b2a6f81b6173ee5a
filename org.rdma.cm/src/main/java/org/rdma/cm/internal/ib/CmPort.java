package org.rdma.cm.internal.ib;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.mad.MadAgent;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;

/** The CM on one port: {@code struct cm_port}, with its GSI agent and its message counters. */
final class CmPort {
    /** Counters per group, one per CM attribute ID 0x10..0x1A ({@code CM_ATTR_COUNT}). */
    static final int ATTR_COUNT = IbCm.APR_ATTR_ID - IbCm.REQ_ATTR_ID + 1;

    final CmDevice cmDev;
    final int portNum;
    final boolean roce;
    /** {@code port->mad_agent}; {@code null} once the device is going away. */
    volatile MadAgent agent;
    /** Malformed or unexpected MADs dropped. */
    final AtomicLong dropped = new AtomicLong();
    private final AtomicLongArray counters = new AtomicLongArray(IbCmCounterGroup.values().length * ATTR_COUNT);

    CmPort(CmDevice cmDev, int portNum) {
        this.cmDev = cmDev;
        this.portNum = portNum;
        this.roce = cmDev.device.getLinkLayer(portNum) != LinkLayer.INFINIBAND;
    }

    IbDevice device() {
        return cmDev.device;
    }

    void count(IbCmCounterGroup group, int attrId, long n) {
        int i = attrId - IbCm.REQ_ATTR_ID;
        if (i >= 0 && i < ATTR_COUNT && n != 0) {
            counters.addAndGet(group.ordinal() * ATTR_COUNT + i, n);
        }
    }

    long counter(IbCmCounterGroup group, int attrId) {
        int i = attrId - IbCm.REQ_ATTR_ID;
        return i >= 0 && i < ATTR_COUNT ? counters.get(group.ordinal() * ATTR_COUNT + i) : 0;
    }

    @Override
    public String toString() {
        return cmDev.device.name() + "/" + portNum;
    }
}
