package org.rdma.fabric;

/**
 * What the faults of one link direction did (the statistics {@code tc -s qdisc} shows for
 * netem), as of the moment of the snapshot.
 *
 * @param packets      packets that entered this direction of the cable
 * @param dropped      packets lost by the drop fault
 * @param duplicated   extra copies delivered by the duplicate fault
 * @param reordered    packets held back behind a later one
 * @param corrupted    packets with a flipped bit (each is dropped by the receiving port)
 * @param delayed      packets delivered later by the fixed delay
 * @param lostLinkDown packets lost because the link was down when they were sent or due
 */
public record FaultCounters(long packets, long dropped, long duplicated, long reordered, long corrupted,
                            long delayed, long lostLinkDown) {
}
