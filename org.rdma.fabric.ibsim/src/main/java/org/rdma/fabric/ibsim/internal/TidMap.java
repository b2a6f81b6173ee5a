package org.rdma.fabric.ibsim.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Undoes ibsim's rewrite of TransactionIDs. ibsim routes a response back to the client that sent
 * the request by the client index it writes into bits 63..48 of every request's TID
 * ({@code update_trid()}), and the response comes back with that TID. The MAD layer of the HCA
 * matches responses to its sends by the whole TID, whose upper 32 bits are the agent's
 * {@code hi_tid}, so the gateway remembers the 16 bits ibsim overwrites, keyed by the 48 bits it
 * keeps, and puts them back into the response: the same job as the TID mapping of mlx4's SR-IOV
 * paravirtualisation ({@code mlx4_ib_multiplex_mad()}).
 *
 * <p>Bounded: the oldest entries are forgotten first; an RMPP response of many segments uses one
 * entry. Thread-safe.
 */
final class TidMap {
    private static final long LOW48 = 0xFFFF_FFFF_FFFFL;
    private final int capacity;
    private final Map<Long, Integer> high = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Integer> eldest) {
            return size() > TidMap.this.capacity;
        }
    };

    /** @param capacity how many outstanding requests to remember */
    TidMap(int capacity) {
        this.capacity = capacity;
    }

    /**
     * A request leaves for ibsim: remember bits 63..48 of its TID.
     *
     * @param tid the TID as the HCA sent it
     */
    synchronized void remember(long tid) {
        high.put(tid & LOW48, (int) (tid >>> 48));
    }

    /**
     * A response from ibsim: its TID with bits 63..48 as the request had them.
     *
     * @param tid the TID as ibsim delivered it
     * @return the original TID, or {@code tid} if no request with these low 48 bits is known
     */
    synchronized long restore(long tid) {
        Integer h = high.get(tid & LOW48);
        return h == null ? tid : (long) h << 48 | (tid & LOW48);
    }

    /** @return the number of remembered requests */
    synchronized int size() {
        return high.size();
    }
}
