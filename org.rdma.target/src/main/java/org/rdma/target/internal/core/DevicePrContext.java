package org.rdma.target.internal.core;

import java.util.function.Predicate;
import org.rdma.scsi.Asc;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.pr.ItNexus;
import org.rdma.target.internal.pr.PrContext;

/**
 * The core's side of one device's reservations, for one command: the sessions, target ports and
 * ACLs through which the device is reached (LIO walks {@code dev_sep_list} and the node ACLs' device
 * entries for the same answers).
 */
final class DevicePrContext implements PrContext {
    private final TargetCoreImpl core;
    private final ScsiDevice dev;
    private final Session session;
    private final SeCmd cmd;

    DevicePrContext(TargetCoreImpl core, ScsiDevice dev, Session session, SeCmd cmd) {
        this.core = core;
        this.dev = dev;
        this.session = session;
        this.cmd = cmd;
    }

    @Override
    public void unitAttention(Predicate<ItNexus> who, Asc asc) {
        for (Session s : core.sessions()) {
            if (who.test(s.itNexus())) {
                s.allocateUnitAttention(dev, asc);
            }
        }
    }

    @Override
    public void abortTasks(Predicate<ItNexus> who) {
        core.taskManagement().preemptAndAbort(dev, session, who, cmd);
    }

    private Tpg port(String name) {
        for (Tpg t : core.allTpgs()) {
            if (t.port().portName().equals(name) && t.luns().containsValue(dev)) {
                return t;
            }
        }
        return null;
    }

    @Override
    public int relativePortId(String targetPortName) {
        Tpg t = port(targetPortName);
        return t == null ? 0 : t.port().relativePortId();
    }

    @Override
    public String targetPortName(int relativePortId) {
        for (Tpg t : core.allTpgs()) {
            if (t.port().relativePortId() == relativePortId && t.luns().containsValue(dev)) {
                return t.port().portName();
            }
        }
        return null;
    }

    @Override
    public boolean canAccess(String initiatorName, String targetPortName) {
        Tpg t = port(targetPortName);
        return t != null && t.exports(initiatorName, dev);
    }
}
