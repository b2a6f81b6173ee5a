package org.rdma.target.internal.core;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.logging.Logger;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.pr.ItNexus;

/**
 * Task management functions (SAM-5 clause 7; LIO's target_core_tmr.c and
 * {@code target_tmr_work()}). Which commands each function aborts:
 * <ul>
 * <li>ABORT TASK: the one command of the I_T_L_Q nexus named by the referenced tag;</li>
 * <li>ABORT TASK SET: the I_T nexus's commands on the logical unit;</li>
 * <li>CLEAR TASK SET and LOGICAL UNIT RESET: every command on the logical unit, of every I_T
 * nexus; TARGET RESET: a logical unit reset of each logical unit of the target;</li>
 * <li>I_T NEXUS RESET: the I_T nexus's commands on every logical unit.</li>
 * </ul>
 * A command aborted for the nexus that sent the function ends without status (the fabric's
 * {@code abortedTask}); one of another nexus ends with TASK ABORTED status when the control mode
 * page's TAS bit is set, else without status (SPC-4 7.5.8, SAM-5 5.6). A command that is
 * executing is not interrupted: it finishes at the backstore and is then aborted, and the response
 * waits for it, so nothing acknowledged is lost and an aborted write happened whole or not at all.
 *
 * <p>The unit attentions: CLEAR TASK SET with TAS clear gives COMMANDS CLEARED BY ANOTHER
 * INITIATOR to each other nexus that lost commands; a logical unit reset gives BUS DEVICE RESET
 * FUNCTION OCCURRED to every nexus of the logical unit; I_T NEXUS RESET gives I_T NEXUS LOSS
 * OCCURRED to the nexus on each of its logical units.
 */
final class TaskManagement {
    private final TargetCoreImpl core;

    TaskManagement(TargetCoreImpl core) {
        this.core = core;
    }

    private static final Logger LOG = Logger.getLogger(TaskManagement.class.getName());
    /** How long PREEMPT AND ABORT waits for the commands it aborts to leave the backstore. */
    private static final long PREEMPT_WAIT_SECONDS = 60;

    /**
     * Work that ends when its own part and every command it waits for are done; the count starts
     * at one for the work itself, and is raised before a command is asked to signal it.
     */
    private static final class Pending {
        private final AtomicInteger count = new AtomicInteger(1);
        private final Runnable whenDone;

        Pending(Runnable whenDone) {
            this.whenDone = whenDone;
        }

        void expect() {
            count.incrementAndGet();
        }

        void done() {
            if (count.decrementAndGet() == 0) {
                whenDone.run();
            }
        }
    }

    /** One function in progress (LIO's {@code se_tmr_req}): its response leaves when it is done. */
    private static final class Tmr {
        final Session session;
        final TmfFunction function;
        final long tag;
        final Pending pending = new Pending(this::respond);
        volatile TmfResponse response;

        Tmr(Session session, TmfFunction function, long tag) {
            this.session = session;
            this.function = function;
            this.tag = tag;
        }

        private void respond() {
            session.tmrDone(tag);
            session.ops.queueTmResponse(tag, function, response);
        }
    }

    /** Runs a function for a session; a second function with the tag of one in progress is rejected. */
    void submit(Session s, TmfFunction function, long lunField, long tag, long referencedTag) {
        if (!s.tmrStarted(tag)) {
            s.ops.queueTmResponse(tag, function, TmfResponse.FUNCTION_REJECTED);
            return;
        }
        Tmr t = new Tmr(s, function, tag);
        t.response = run(t, lunField, referencedTag);
        t.pending.done();
    }

    private TmfResponse run(Tmr t, long lunField, long referencedTag) {
        switch (t.function) {
            case CLEAR_ACA:
                // NACA is refused, so no ACA is ever established; LIO does not support it either.
                return TmfResponse.FUNCTION_NOT_SUPPORTED;
            case I_T_NEXUS_RESET:
                itNexusReset(t);
                return TmfResponse.FUNCTION_COMPLETE;
            case TARGET_RESET:
                targetReset(t);
                return TmfResponse.FUNCTION_COMPLETE;
            default:
                break;
        }
        int lun;
        try {
            lun = Lun.decode(lunField);
        } catch (IllegalArgumentException notAddressable) {
            return TmfResponse.INCORRECT_LOGICAL_UNIT_NUMBER;
        }
        Map.Entry<ScsiDevice, Boolean> mapping = t.session.luns().get(lun);
        if (mapping == null) {
            return TmfResponse.INCORRECT_LOGICAL_UNIT_NUMBER;
        }
        ScsiDevice dev = mapping.getKey();
        return switch (t.function) {
            case ABORT_TASK -> abort(t.pending, t.session, List.of(t.session),
                    c -> c.tag() == referencedTag && c.mappedLun == lun, false).isEmpty()
                            ? TmfResponse.TASK_DOES_NOT_EXIST : TmfResponse.FUNCTION_COMPLETE;
            case ABORT_TASK_SET -> {
                abort(t.pending, t.session, List.of(t.session), c -> c.dev == dev, false);
                yield TmfResponse.FUNCTION_COMPLETE;
            }
            case CLEAR_TASK_SET -> {
                clearTaskSet(t, dev);
                yield TmfResponse.FUNCTION_COMPLETE;
            }
            case LOGICAL_UNIT_RESET -> {
                logicalUnitReset(t, dev);
                yield TmfResponse.FUNCTION_COMPLETE;
            }
            case QUERY_TASK -> succeededIf(t.session.commands().stream()
                    .anyMatch(c -> c.tag() == referencedTag && c.mappedLun == lun && c.inTaskSet()));
            case QUERY_TASK_SET -> succeededIf(t.session.commands().stream().anyMatch(c -> c.dev == dev && c.inTaskSet()));
            case QUERY_ASYNCHRONOUS_EVENT -> succeededIf(t.session.unitAttentions(lun).pending());
            default -> throw new IllegalStateException(t.function.name());
        };
    }

    private static TmfResponse succeededIf(boolean found) {
        return found ? TmfResponse.FUNCTION_SUCCEEDED : TmfResponse.FUNCTION_COMPLETE;
    }

    /**
     * Aborts the matching commands of the given sessions.
     *
     * @param p signalled by each command that finishes after this returns
     * @param requester the nexus asking: its commands end without status
     * @param tas the device's TAS bit: commands of other nexuses end with TASK ABORTED status
     * @return the sessions that lost at least one command
     */
    private Set<Session> abort(Pending p, Session requester, Collection<Session> sessions, Predicate<SeCmd> which,
            boolean tas) {
        Set<Session> hit = new LinkedHashSet<>();
        for (Session s : sessions) {
            for (SeCmd c : s.commands()) {
                if (!which.test(c)) {
                    continue;
                }
                p.expect();
                SeCmd.Abort a = core.abort(c, tas && s != requester, p::done);
                if (a == SeCmd.Abort.NOW || a == SeCmd.Abort.NOT_AFFECTED) {
                    p.done();
                }
                if (a == SeCmd.Abort.NOW || a == SeCmd.Abort.AFTER_EXECUTION) {
                    hit.add(s);
                }
            }
        }
        return hit;
    }

    /** CLEAR TASK SET (SAM-5 7.5). */
    private void clearTaskSet(Tmr t, ScsiDevice dev) {
        boolean tas = dev.taskAbortedStatus();
        for (Session s : abort(t.pending, t.session, core.sessions(), c -> c.dev == dev, tas)) {
            if (!tas && s != t.session) {
                s.allocateUnitAttention(dev, Asc.COMMANDS_CLEARED_BY_ANOTHER_INITIATOR);
            }
        }
    }

    /**
     * LOGICAL UNIT RESET (SAM-5 7.7 and 6.3.3; LIO's {@code core_tmr_lun_reset()}): aborts the
     * task set, releases an SPC-2 reservation and a medium removal prevention, and gives every
     * nexus of the logical unit BUS DEVICE RESET FUNCTION OCCURRED.
     */
    private void logicalUnitReset(Tmr t, ScsiDevice dev) {
        List<Session> sessions = core.sessions();
        abort(t.pending, t.session, sessions, c -> c.dev == dev, dev.taskAbortedStatus());
        dev.logicalUnitReset();
        for (Session s : sessions) {
            s.allocateUnitAttention(dev, Asc.BUS_DEVICE_RESET_FUNCTION_OCCURRED);
        }
    }

    /** TARGET RESET (SAM-2 6.6): a logical unit reset of every logical unit the target exports. */
    private void targetReset(Tmr t) {
        Set<ScsiDevice> devices = new LinkedHashSet<>();
        for (Tpg tpg : core.targetTpgs(t.session.tpg().fabric(), t.session.tpg().targetName())) {
            devices.addAll(tpg.luns().values());
        }
        devices.forEach(d -> logicalUnitReset(t, d));
    }

    /**
     * I_T NEXUS RESET (SAM-5 7.6 and 6.3.4, I_T nexus loss): the nexus's commands end without
     * status, it loses its SPC-2 reservations, and it gets I_T NEXUS LOSS OCCURRED on each of its
     * logical units.
     */
    private void itNexusReset(Tmr t) {
        abort(t.pending, t.session, List.of(t.session), c -> true, false);
        t.session.nexusLoss();
        t.session.allocateUnitAttentionOnAll(Asc.I_T_NEXUS_LOSS_OCCURRED);
    }

    /**
     * The aborts of PREEMPT AND ABORT (SPC-4 5.12.11.2.5; LIO's {@code core_tmr_lun_reset()} with
     * its preempt list): the device's commands of the preempted nexuses but the PERSISTENT RESERVE
     * OUT itself, as a logical unit reset aborts them; returns once they are delivered, so the
     * command's status follows them.
     */
    void preemptAndAbort(ScsiDevice dev, Session requester, Predicate<ItNexus> preempted, SeCmd prout) {
        CountDownLatch delivered = new CountDownLatch(1);
        Pending p = new Pending(delivered::countDown);
        abort(p, requester, core.sessions(), c -> c.dev == dev && c != prout && preempted.test(c.session.itNexus()),
                dev.taskAbortedStatus());
        p.done();
        try {
            if (!delivered.await(PREEMPT_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warning("PREEMPT AND ABORT on " + dev.name() + ": commands still at the backstore after "
                        + PREEMPT_WAIT_SECONDS + " s; its status goes first");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
