package org.rdma.iscsi.internal.target;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A session's command window (RFC 7143 4.2.2.1; LIO's {@code iscsit_sequence_cmd()} and
 * {@code iscsit_check_received_cmdsn()}): non-immediate requests reach the SCSI layer in CmdSN
 * order whatever connection carried them; one below ExpCmdSN (a duplicate) or beyond MaxCmdSN is
 * dropped without an answer. MaxCmdSN starts {@code depth - 1} past ExpCmdSN and moves up by one
 * each time a request is retired (its response sent, or it ended without one), so the depth
 * bounds the requests outstanding.
 *
 * <p>Items run outside the monitor, one thread at a time, in order: whoever finds the window
 * idle drains what is ready; others only add to it.
 */
final class CmdSnWindow {
    private static final Logger LOG = Logger.getLogger(CmdSnWindow.class.getName());

    /** What became of a CmdSN (LIO's {@code CMDSN_*}). */
    enum Verdict {
        /** CmdSN == ExpCmdSN: ready to run, with any queued successors. */
        IN_ORDER,
        /** Within the window but ahead: kept until the gap is filled. */
        QUEUED,
        /** Below ExpCmdSN, or a CmdSN already waiting: dropped. */
        DUPLICATE,
        /** Beyond MaxCmdSN: dropped. */
        OUTSIDE;

        boolean accepted() {
            return this == IN_ORDER || this == QUEUED;
        }
    }

    private int expCmdSn;
    private int maxCmdSn;
    private final Map<Integer, Runnable> ahead = new HashMap<>();
    private final Deque<Runnable> ready = new ArrayDeque<>();
    private boolean draining;

    CmdSnWindow(int expCmdSn, int depth) {
        this.expCmdSn = expCmdSn;
        this.maxCmdSn = expCmdSn + depth - 1;
    }

    /** Places a non-immediate request; when accepted, {@code item} runs in order after a {@link #drain}. */
    synchronized Verdict admit(int cmdSn, Runnable item) {
        if (Sna.gt(cmdSn, maxCmdSn)) {
            return Verdict.OUTSIDE;
        }
        if (Sna.lt(cmdSn, expCmdSn) || ahead.containsKey(cmdSn)) {
            return Verdict.DUPLICATE;
        }
        if (cmdSn != expCmdSn) {
            ahead.put(cmdSn, item);
            return Verdict.QUEUED;
        }
        ready.add(item);
        expCmdSn++;
        for (Runnable next; (next = ahead.remove(expCmdSn)) != null; expCmdSn++) {
            ready.add(next);
        }
        return Verdict.IN_ORDER;
    }

    /** Runs the ready items in order, unless another thread is already doing so. */
    void drain() {
        synchronized (this) {
            if (draining) {
                return;
            }
            draining = true;
        }
        while (true) {
            Runnable r;
            synchronized (this) {
                r = ready.poll();
                if (r == null) {
                    draining = false;
                    return;
                }
            }
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a sequenced request failed", e);
            }
        }
    }

    /** One request retired: MaxCmdSN moves up (LIO's {@code iscsit_increment_maxcmdsn()}). */
    synchronized void retire() {
        maxCmdSn++;
    }

    synchronized int expCmdSn() {
        return expCmdSn;
    }

    synchronized int maxCmdSn() {
        return maxCmdSn;
    }

    /** Whether {@code cmdSn} has not arrived yet but may (ExpCmdSN <= it <= MaxCmdSN, not waiting). */
    synchronized boolean notYetReceived(int cmdSn) {
        return Sna.lte(expCmdSn, cmdSn) && Sna.lte(cmdSn, maxCmdSn) && !ahead.containsKey(cmdSn);
    }
}
