package org.rdma.iscsi.internal.target;

import java.util.Map;
import java.util.TreeMap;

/**
 * The byte ranges of a command's data-out received so far, merged as they arrive; tells an
 * overlap (the same bytes twice) from a fresh range, which DataPDUInOrder=No makes necessary
 * (RFC 7143 13.18: PDUs of a sequence in any order).
 */
final class RangeSet {
    private final TreeMap<Integer, Integer> ranges = new TreeMap<>();
    private long total;

    /** Adds [from, from+length); false (and nothing added) when it overlaps what is there. */
    boolean add(int from, int length) {
        if (length == 0) {
            return true;
        }
        int to = from + length;
        Map.Entry<Integer, Integer> below = ranges.floorEntry(from);
        if (below != null && below.getValue() > from) {
            return false;
        }
        Map.Entry<Integer, Integer> above = ranges.ceilingEntry(from);
        if (above != null && above.getKey() < to) {
            return false;
        }
        int start = from;
        int end = to;
        if (below != null && below.getValue() == from) {
            start = below.getKey();
            ranges.remove(start);
        }
        if (above != null && above.getKey() == to) {
            end = above.getValue();
            ranges.remove(to);
        }
        ranges.put(start, end);
        total += length;
        return true;
    }

    /** Whether [from, to) is all here. */
    boolean covers(int from, int to) {
        if (from >= to) {
            return true;
        }
        Map.Entry<Integer, Integer> e = ranges.floorEntry(from);
        return e != null && e.getValue() >= to;
    }

    /** The bytes received. */
    long total() {
        return total;
    }
}
