package org.rdma.target.internal.core;

import java.util.ArrayDeque;
import java.util.Deque;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;

/**
 * The unit attention conditions pending for one I_T_L nexus (SAM-5 5.14, SPC-4 5.14; LIO's
 * {@code core_scsi3_ua_allocate()}/{@code core_scsi3_ua_for_check_condition()}): reported oldest
 * first, each once; a duplicate is not queued twice; a 29h (power on, reset) condition goes first
 * and replaces any other 29h one, since a reset subsumes what came before it.
 */
final class UnitAttentions {
    /** SPC-4 lets a device server keep a bounded number; beyond it the newest is dropped. */
    static final int MAX = 16;
    private static final int RESET_ASC = 0x29;

    private final Deque<Asc> pending = new ArrayDeque<>();

    synchronized void allocate(Asc asc) {
        if (asc.asc() == RESET_ASC) {
            pending.removeIf(a -> a.asc() == RESET_ASC);
            pending.addFirst(asc);
        } else if (!pending.contains(asc) && pending.size() < MAX) {
            pending.addLast(asc);
        }
    }

    /** Removes and returns the oldest condition as UNIT ATTENTION sense, or null. */
    synchronized Sense take() {
        Asc a = pending.pollFirst();
        return a == null ? null : Sense.of(SenseKey.UNIT_ATTENTION, a);
    }

    synchronized void clear() {
        pending.clear();
    }
}
