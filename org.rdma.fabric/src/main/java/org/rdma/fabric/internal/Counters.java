package org.rdma.fabric.internal;

import org.rdma.fabric.PortCounterSnapshot;

/**
 * The PortCounters of one port (IBTA vol. 1, 16.1.3.5), 64 bits wide as in PortCountersExtended.
 * Updated without atomic instructions or locks ({@link StripedLongs}, extended rather than held
 * so that the datapath reaches a thread's row with one load less); no allocation on update once
 * a thread has counted here. The unicast packet counters are not kept: they are the packets
 * minus the multicast packets, so the datapath updates two counters per packet, not three.
 */
final class Counters extends StripedLongs {
    static final int SYMBOL_ERRORS = 0;
    static final int LINK_ERROR_RECOVERY = 1;
    static final int LINK_DOWNED = 2;
    static final int RCV_ERRORS = 3;
    static final int RCV_REMOTE_PHYS_ERRORS = 4;
    static final int RCV_SWITCH_RELAY_ERRORS = 5;
    static final int XMIT_DISCARDS = 6;
    static final int XMIT_CONSTRAINT_ERRORS = 7;
    static final int RCV_CONSTRAINT_ERRORS = 8;
    static final int VL15_DROPPED = 9;
    static final int XMIT_DATA = 10;
    static final int RCV_DATA = 11;
    static final int XMIT_PKTS = 12;
    static final int RCV_PKTS = 13;
    static final int UNICAST_XMIT_PKTS = 14;
    static final int UNICAST_RCV_PKTS = 15;
    static final int MULTICAST_XMIT_PKTS = 16;
    static final int MULTICAST_RCV_PKTS = 17;
    static final int RCV_STATE_DISCARDS = 18;
    private static final int COUNT = PortCounterSnapshot.COMPONENTS;

    Counters() {
        super(COUNT);
    }

    /** One packet of {@code words} data words, counted in {@code multicast} too if it is one; one update. */
    void packet(int pkts, int data, long words, int multicast, boolean isMulticast) {
        if (isMulticast) {
            add(pkts, 1, data, words, multicast, 1);
        } else {
            add(pkts, 1, data, words);
        }
    }

    /** What the derived unicast counters subtract since they were last cleared; guarded by this. */
    private long unicastXmitBase;
    private long unicastRcvBase;

    @Override
    long get(int counter) {
        if (counter == UNICAST_XMIT_PKTS) {
            synchronized (this) {
                return raw(XMIT_PKTS) - raw(MULTICAST_XMIT_PKTS) - unicastXmitBase;
            }
        }
        if (counter == UNICAST_RCV_PKTS) {
            synchronized (this) {
                return raw(RCV_PKTS) - raw(MULTICAST_RCV_PKTS) - unicastRcvBase;
            }
        }
        return super.get(counter);
    }

    @Override
    void clear(int counter) {
        if (counter == UNICAST_XMIT_PKTS) {
            synchronized (this) {
                unicastXmitBase = raw(XMIT_PKTS) - raw(MULTICAST_XMIT_PKTS);
            }
        } else if (counter == UNICAST_RCV_PKTS) {
            synchronized (this) {
                unicastRcvBase = raw(RCV_PKTS) - raw(MULTICAST_RCV_PKTS);
            }
        } else {
            super.clear(counter);
        }
    }

    void clear() {
        for (int i = 0; i < COUNT; i++) {
            clear(i);
        }
    }

    PortCounterSnapshot snapshot() {
        long[] v = new long[COUNT];
        for (int i = 0; i < COUNT; i++) {
            v[i] = get(i);
        }
        return new PortCounterSnapshot(v[SYMBOL_ERRORS], v[LINK_ERROR_RECOVERY], v[LINK_DOWNED], v[RCV_ERRORS],
                v[RCV_REMOTE_PHYS_ERRORS], v[RCV_SWITCH_RELAY_ERRORS], v[XMIT_DISCARDS], v[XMIT_CONSTRAINT_ERRORS],
                v[RCV_CONSTRAINT_ERRORS], v[VL15_DROPPED], v[XMIT_DATA], v[RCV_DATA], v[XMIT_PKTS], v[RCV_PKTS],
                v[UNICAST_XMIT_PKTS], v[UNICAST_RCV_PKTS], v[MULTICAST_XMIT_PKTS], v[MULTICAST_RCV_PKTS],
                v[RCV_STATE_DISCARDS]);
    }
}
