/**
 * Reservations (LIO's target_core_pr.c): SPC-2 RESERVE/RELEASE with SPC-4's compatible
 * reservation handling, and persistent reservations (SPC-4 5.12) with their PERSISTENT RESERVE
 * IN data, the conflict rules of SPC-4 table 53 and SBC-3's table of block commands, and APTPL
 * through a {@link org.rdma.target.internal.pr.PrStore}.
 *
 * <p>Locking: one monitor per device's {@link org.rdma.target.internal.pr.Reservations}; while it
 * is held only unit attention stores are touched (they take no other lock). Commands aborted by
 * PREEMPT AND ABORT are aborted after it is released.
 */
package org.rdma.target.internal.pr;
