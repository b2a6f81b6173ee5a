package org.rdma.target.internal.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.TaskAttribute;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetCore;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.emul.Cmd;
import org.rdma.target.internal.emul.CommandTable;

/**
 * The target core (LIO's target_core_transport.c): TPGs by fabric, and the command path from a
 * fabric's submit to its status callback. Commands run on the given executor; a test gives one
 * it drains by hand, so the order of task attributes is checked without timing.
 */
public final class TargetCoreImpl implements TargetCore {
    private static final Logger LOG = Logger.getLogger(TargetCoreImpl.class.getName());

    private final Executor executor;
    private final List<Tpg> tpgs = new CopyOnWriteArrayList<>();
    private final Map<ScsiDevice, TaskSet<SeCmd>> taskSets = new ConcurrentHashMap<>();
    private final AtomicInteger nextRelativePort = new AtomicInteger(1);

    public TargetCoreImpl(Executor executor) {
        this.executor = executor;
    }

    /**
     * Creates a TPG (targetcli's {@code /iscsi create IQN} makes tpg1); it gets the next
     * relative target port identifier.
     *
     * @param protocolId the SPC-4 protocol identifier of the fabric (5 for iSCSI)
     * @throws TargetException {@code EEXIST} when the fabric's target has that TPG
     */
    public Tpg addTpg(String fabric, String targetName, int tag, int protocolId) {
        synchronized (tpgs) {
            if (tpg(fabric, targetName, tag).isPresent()) {
                throw new TargetException("EEXIST", fabric + "/" + targetName + "/tpg" + tag + " exists");
            }
            Tpg t = new Tpg(this, fabric, targetName, tag, protocolId, nextRelativePort.getAndIncrement());
            tpgs.add(t);
            return t;
        }
    }

    @Override
    public Optional<FabricTpg> tpg(String fabric, String targetName, int tag) {
        return tpgs.stream().filter(t -> t.fabric().equals(fabric) && t.targetName().equals(targetName) && t.tag() == tag)
                .map(FabricTpg.class::cast).findFirst();
    }

    @Override
    public List<FabricTpg> tpgs(String fabric) {
        return tpgs.stream().filter(t -> t.fabric().equals(fabric)).map(FabricTpg.class::cast).toList();
    }

    List<Session> sessions() {
        List<Session> all = new ArrayList<>();
        tpgs.forEach(t -> all.addAll(t.sessions()));
        return all;
    }

    private static boolean needsNoLun(int opcode) {
        return opcode == Opcode.INQUIRY || opcode == Opcode.REPORT_LUNS || opcode == Opcode.REQUEST_SENSE;
    }

    /**
     * The checks before the task set (LIO's {@code target_submit_cmd()} to
     * {@code transport_generic_new_cmd()}): LUN lookup, task attribute, unit attention, the CDB,
     * and the expected transfer against the CDB's; then data-out is asked for or the command is
     * queued.
     */
    void submit(SeCmd c) {
        try {
            prepare(c);
        } catch (ScsiException e) {
            complete(c, e);
            return;
        }
        if (c.direction() == DataDirection.DATA_OUT) {
            if (c.transition(SeCmd.State.NEW, SeCmd.State.WRITE_PENDING)) {
                c.session.ops.writePending(c);
            }
        } else if (c.transition(SeCmd.State.NEW, SeCmd.State.QUEUED)) {
            queue(c);
        }
    }

    private void prepare(SeCmd c) throws ScsiException {
        byte[] cdb = c.cdb();
        int opcode = cdb.length > 0 ? cdb[0] & 0xFF : -1;
        Map.Entry<ScsiDevice, Boolean> mapping = null;
        try {
            int n = Lun.decode(c.lun());
            mapping = c.session.luns().get(n);
            if (mapping != null) {
                c.mappedLun = n;
                c.dev = mapping.getKey();
            }
        } catch (IllegalArgumentException notAddressable) {
            // A LUN the target does not address is a LUN it does not have.
        }
        if (mapping == null && !needsNoLun(opcode)) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_UNIT_NOT_SUPPORTED);
        }
        if (c.taskAttribute() == TaskAttribute.ACA) {
            // No ACA is ever established (NACA is refused), so an ACA task is out of place.
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB);
        }
        if (mapping != null && opcode != Opcode.INQUIRY && opcode != Opcode.REPORT_LUNS && opcode != Opcode.REQUEST_SENSE) {
            Sense ua = c.session.unitAttentions(c.mappedLun).take();
            if (ua != null) {
                throw new ScsiException(ua);
            }
        }
        Cmd e = new Cmd(cdb, c.dev, c.session.nexus(c.mappedLun, c.dev, mapping != null && mapping.getValue()));
        CommandTable.parse(e);
        if (e.direction() != DataDirection.NONE && c.expectedDirection != DataDirection.NONE
                && e.direction() != c.expectedDirection
                || e.direction() == DataDirection.DATA_OUT && e.length() != c.expectedLength) {
            // LIO's target_cmd_size_check(): data-out must be exactly what the CDB says.
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_COMMAND_INFORMATION_UNIT);
        }
        c.prepared(e);
    }

    /** Admits a command into its device's task set, running it when its attribute allows. */
    void queue(SeCmd c) {
        if (c.dev == null) {
            executor.execute(() -> execute(c));
            return;
        }
        if (taskSet(c.dev).admit(c, c.taskAttribute())) {
            executor.execute(() -> execute(c));
        }
    }

    private TaskSet<SeCmd> taskSet(ScsiDevice dev) {
        return taskSets.computeIfAbsent(dev, d -> new TaskSet<>());
    }

    private void execute(SeCmd c) {
        ScsiException failure = null;
        try {
            c.emul.exec().execute(c.emul);
        } catch (ScsiException e) {
            failure = e;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "command " + c + " failed", e);
            failure = new ScsiException(SenseKey.HARDWARE_ERROR, Asc.INTERNAL_TARGET_FAILURE);
        }
        if (c.dev != null) {
            for (SeCmd next : taskSet(c.dev).complete(c)) {
                executor.execute(() -> execute(next));
            }
        }
        complete(c, failure);
    }

    /** Hands the outcome to the fabric (LIO's {@code target_complete_ok_work()}): data-in or status. */
    private void complete(SeCmd c, ScsiException failure) {
        if (failure == null) {
            c.result(ScsiStatus.GOOD, null);
        } else {
            Sense s = failure.sense();
            c.result(failure.status(), s == null ? null : s.encode(c.dev != null && c.dev.descriptorSense()));
        }
        SeCmd.State from = c.state.get();
        if (from == SeCmd.State.ABORTED || from == SeCmd.State.RELEASED || !c.transition(from, SeCmd.State.COMPLETE)) {
            return;
        }
        if (c.session.closed()) {
            c.release();
            return;
        }
        if (failure == null && c.direction() == DataDirection.DATA_IN && c.dataLength() > 0) {
            c.session.ops.queueDataIn(c);
        } else {
            c.session.ops.queueStatus(c);
        }
    }

    /** A command that never entered the session's table (an overlapped tag): status only. */
    void completeUntracked(SeCmd c, Sense sense) {
        complete(c, new ScsiException(sense));
    }

    /** Aborts, without status, the given commands that have not started (session close). */
    void abortWaiting(List<SeCmd> cmds) {
        for (SeCmd c : cmds) {
            if (c.transition(SeCmd.State.WRITE_PENDING, SeCmd.State.ABORTED)) {
                continue;
            }
            if (c.dev != null && c.state.get() == SeCmd.State.QUEUED) {
                List<SeCmd> removed = new ArrayList<>();
                for (SeCmd next : taskSet(c.dev).removeWaiting(x -> x == c, removed)) {
                    executor.execute(() -> execute(next));
                }
                if (!removed.isEmpty()) {
                    c.transition(SeCmd.State.QUEUED, SeCmd.State.ABORTED);
                }
            }
        }
    }
}
