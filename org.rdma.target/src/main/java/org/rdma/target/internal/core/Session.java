package org.rdma.target.internal.core;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.fabric.FabricOps;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.emul.Nexus;
import org.rdma.target.internal.emul.TargetPort;

/**
 * An I_T nexus (LIO's {@code se_session} with its {@code se_node_acl}'s device list): the LUNs the
 * initiator sees, a unit attention store per LUN, and the commands not yet released, by tag.
 */
final class Session implements FabricSession {
    private final Tpg tpg;
    private final String initiatorName;
    private final String initiatorPortName;
    /** The initiator's ACL, or null in demo mode (every TPG LUN, demo_mode_write_protect). */
    private final NodeAcl acl;
    final FabricOps ops;
    private final Map<Integer, UnitAttentions> unitAttentions = new ConcurrentHashMap<>();
    private final Map<Long, SeCmd> commands = new HashMap<>();
    private volatile boolean closed;

    Session(Tpg tpg, String initiatorName, String initiatorPortName, NodeAcl acl, FabricOps ops) {
        this.tpg = tpg;
        this.initiatorName = initiatorName;
        this.initiatorPortName = initiatorPortName;
        this.acl = acl;
        this.ops = ops;
        allocateUnitAttentionOnAll(Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED);
    }

    TargetCoreImpl core() {
        return tpg.core();
    }

    @Override
    public String initiatorName() {
        return initiatorName;
    }

    @Override
    public String initiatorPortName() {
        return initiatorPortName;
    }

    @Override
    public FabricTpg tpg() {
        return tpg;
    }

    boolean closed() {
        return closed;
    }

    /** The LUNs this nexus sees: mapped LUN number to (device, write protected). */
    NavigableMap<Integer, Map.Entry<ScsiDevice, Boolean>> luns() {
        NavigableMap<Integer, Map.Entry<ScsiDevice, Boolean>> m = new TreeMap<>();
        if (acl != null) {
            acl.luns().forEach((mapped, ml) -> {
                ScsiDevice d = tpg.device(ml.tpgLun());
                if (d != null) {
                    m.put(mapped, Map.entry(d, ml.writeProtect()));
                }
            });
        } else {
            tpg.luns().forEach((n, d) -> m.put(n, Map.entry(d, tpg.demoModeWriteProtect())));
        }
        return m;
    }

    void allocateUnitAttentionOnAll(Asc asc) {
        for (int lun : luns().keySet()) {
            unitAttentions(lun).allocate(asc);
        }
    }

    /** Establishes a unit attention on every LUN of this nexus that is {@code dev}. */
    void allocateUnitAttention(ScsiDevice dev, Asc asc) {
        luns().forEach((n, e) -> {
            if (e.getKey() == dev) {
                unitAttentions(n).allocate(asc);
            }
        });
    }

    UnitAttentions unitAttentions(int mappedLun) {
        return unitAttentions.computeIfAbsent(mappedLun, k -> new UnitAttentions());
    }

    @Override
    public FabricCommand submit(long lun, byte[] cdb, long tag, TaskAttribute attribute, int expectedLength,
            DataDirection expectedDirection) {
        if (closed) {
            throw new TargetException("ENOTCONN", this + " is closed");
        }
        SeCmd c = new SeCmd(this, lun, cdb, tag, attribute, expectedLength, expectedDirection);
        boolean overlapped;
        synchronized (commands) {
            overlapped = commands.putIfAbsent(tag, c) != null;
        }
        if (overlapped) {
            // SAM-5 5.9: a tag in use is an overlapped command; the command holding it goes on.
            core().completeUntracked(c, Sense.of(SenseKey.ABORTED_COMMAND, Asc.OVERLAPPED_COMMANDS_ATTEMPTED));
            return c;
        }
        core().submit(c);
        return c;
    }

    void forget(SeCmd c) {
        synchronized (commands) {
            commands.remove(c.tag(), c);
        }
    }

    @Override
    public void submitTmr(TmfFunction function, long lun, long tag, long referencedTag) {
        // Task management is the next step (ABORT TASK ... TARGET RESET); until then it is refused.
        ops.queueTmResponse(tag, function, TmfResponse.FUNCTION_NOT_SUPPORTED);
    }

    @Override
    public void close() {
        closed = true;
        tpg.removeSession(this);
        java.util.List<SeCmd> all;
        synchronized (commands) {
            all = new java.util.ArrayList<>(commands.values());
        }
        core().abortWaiting(all);
    }

    /** The nexus the emulation sees for a command on mapped LUN {@code mappedLun} ({@code -1}: none). */
    Nexus nexus(int mappedLun, ScsiDevice dev, boolean writeProtect) {
        return new Nexus() {
            @Override
            public TargetPort port() {
                return tpg.port();
            }

            @Override
            public boolean readOnly() {
                return writeProtect;
            }

            @Override
            public long[] reportLuns() {
                return luns().keySet().stream().mapToLong(Lun::encode).toArray();
            }

            @Override
            public Sense takeUnitAttention() {
                return mappedLun < 0 ? null : unitAttentions(mappedLun).take();
            }

            @Override
            public void modeParametersChanged() {
                for (Session s : tpg.core().sessions()) {
                    if (s != Session.this) {
                        s.allocateUnitAttention(dev, Asc.MODE_PARAMETERS_CHANGED);
                    }
                }
            }
        };
    }

    @Override
    public String toString() {
        return initiatorPortName + " on " + tpg;
    }
}
