package org.rdma.target.internal.core;

import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.target.fabric.FabricOps;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.emul.TargetPort;

/**
 * A target portal group (LIO's {@code se_portal_group}, targetcli's {@code /iscsi/IQN/tpgN}):
 * LUNs backed by devices, node ACLs, the attributes {@code generate_node_acls} and
 * {@code demo_mode_write_protect}, and its open sessions.
 */
public final class Tpg implements FabricTpg {
    private final TargetCoreImpl core;
    private final String fabric;
    private final String targetName;
    private final int tag;
    private final TargetPort port;
    private final NavigableMap<Integer, ScsiDevice> luns = new ConcurrentSkipListMap<>();
    private final Map<String, NodeAcl> acls = new ConcurrentHashMap<>();
    private final Set<Session> sessions = ConcurrentHashMap.newKeySet();
    private volatile boolean enabled = true;
    private volatile boolean generateNodeAcls;
    private volatile boolean demoModeWriteProtect = true;

    Tpg(TargetCoreImpl core, String fabric, String targetName, int tag, int protocolId, int relativePortId) {
        this.core = core;
        this.fabric = fabric;
        this.targetName = targetName;
        this.tag = tag;
        this.port = new TargetPort(protocolId, targetName, String.format("%s,t,0x%04x", targetName, tag), relativePortId);
    }

    static void checkLunNumber(int lun) {
        if (lun < 0 || lun > Lun.MAX_FLAT) {
            throw new TargetException("EINVAL", "LUN " + lun + " outside 0.." + Lun.MAX_FLAT);
        }
    }

    @Override
    public String fabric() {
        return fabric;
    }

    @Override
    public String targetName() {
        return targetName;
    }

    @Override
    public int tag() {
        return tag;
    }

    @Override
    public boolean enabled() {
        return enabled;
    }

    public void setEnabled(boolean e) {
        enabled = e;
    }

    /** LIO's {@code generate_node_acls}: initiators without an ACL see every LUN (demo mode). */
    public void setGenerateNodeAcls(boolean g) {
        generateNodeAcls = g;
    }

    /** LIO's {@code demo_mode_write_protect}: the LUNs of demo mode are read-only. */
    public void setDemoModeWriteProtect(boolean w) {
        demoModeWriteProtect = w;
    }

    boolean demoModeWriteProtect() {
        return demoModeWriteProtect;
    }

    TargetPort port() {
        return port;
    }

    TargetCoreImpl core() {
        return core;
    }

    /**
     * Exports a device as a LUN (targetcli's {@code luns create}); open sessions get REPORTED LUNS
     * DATA HAS CHANGED.
     *
     * @throws TargetException {@code EEXIST} for a LUN in use, {@code EINVAL} outside 0..16383
     */
    public void addLun(int lun, ScsiDevice dev) {
        checkLunNumber(lun);
        if (luns.putIfAbsent(lun, dev) != null) {
            throw new TargetException("EEXIST", this + " already has LUN " + lun);
        }
        lunsChanged(null);
    }

    ScsiDevice device(int lun) {
        return luns.get(lun);
    }

    NavigableMap<Integer, ScsiDevice> luns() {
        return luns;
    }

    /**
     * Adds a node ACL (targetcli's {@code acls create}).
     *
     * @throws TargetException {@code EEXIST} when the initiator has one
     */
    public NodeAcl addNodeAcl(String initiatorName) {
        NodeAcl acl = new NodeAcl(this, initiatorName);
        if (acls.putIfAbsent(initiatorName, acl) != null) {
            throw new TargetException("EEXIST", this + " already has an ACL for " + initiatorName);
        }
        return acl;
    }

    NodeAcl acl(String initiatorName) {
        return acls.get(initiatorName);
    }

    /** The LUN maps changed for one initiator (or all, when null): tell their sessions. */
    void lunsChanged(String initiatorName) {
        for (Session s : sessions) {
            if (initiatorName == null || s.initiatorName().equals(initiatorName)) {
                s.allocateUnitAttentionOnAll(Asc.REPORTED_LUNS_DATA_HAS_CHANGED);
            }
        }
    }

    Set<Session> sessions() {
        return sessions;
    }

    @Override
    public FabricSession openSession(String initiatorName, String initiatorPortName, FabricOps ops) {
        if (!enabled) {
            throw new TargetException("ENODEV", this + " is disabled");
        }
        NodeAcl acl = acls.get(initiatorName);
        if (acl == null && !generateNodeAcls) {
            throw new TargetException("EACCES", initiatorName + " has no ACL on " + this + " and generate_node_acls is off");
        }
        Session s = new Session(this, initiatorName, initiatorPortName, acl, ops);
        sessions.add(s);
        return s;
    }

    void removeSession(Session s) {
        sessions.remove(s);
    }

    @Override
    public String toString() {
        return fabric + "/" + targetName + "/tpg" + tag;
    }
}
