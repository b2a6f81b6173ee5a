package org.rdma.target.internal.core;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Lun;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricOps;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.NetworkPortal;
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
    /** Open sessions in the order they opened (task management walks them in that order). */
    private final Set<Session> sessions = new java.util.concurrent.CopyOnWriteArraySet<>();
    private volatile boolean enabled = true;
    private volatile boolean generateNodeAcls;
    private volatile boolean demoModeWriteProtect = true;
    // Set by the configuration, read by the fabric engine (portals to listen on, login checks).
    private volatile List<NetworkPortal> portals = List.of();
    private volatile Map<String, Integer> attributes = Map.of();
    private volatile ChapCredentials auth = ChapCredentials.NONE;

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

    /** Whether an initiator sees the device here: through its ACL's mapped LUNs, or every LUN in demo mode. */
    boolean exports(String initiatorName, ScsiDevice dev) {
        NodeAcl acl = acls.get(initiatorName);
        if (acl != null) {
            return acl.luns().values().stream().anyMatch(ml -> luns.get(ml.tpgLun()) == dev);
        }
        return generateNodeAcls && luns.containsValue(dev);
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

    /**
     * Removes a LUN (targetcli's {@code luns delete}) and every node ACL's mapping of it, as
     * LIO's {@code core_tpg_remove_lun()} does; open sessions get REPORTED LUNS DATA HAS CHANGED.
     *
     * @throws TargetException {@code ENOENT} for a LUN the TPG does not have
     */
    public void removeLun(int lun) {
        if (luns.remove(lun) == null) {
            throw new TargetException("ENOENT", this + " has no LUN " + lun);
        }
        acls.values().forEach(a -> a.unmapTpgLun(lun));
        lunsChanged(null);
    }

    /**
     * Removes a node ACL (targetcli's {@code acls delete}); the initiator's open sessions keep
     * the LUNs they had until they log out, as in LIO.
     *
     * @throws TargetException {@code ENOENT} for an initiator without an ACL
     */
    public void removeNodeAcl(String initiatorName) {
        if (acls.remove(initiatorName) == null) {
            throw new TargetException("ENOENT", this + " has no ACL for " + initiatorName);
        }
    }

    public void setPortals(List<NetworkPortal> p) {
        portals = List.copyOf(p);
    }

    @Override
    public List<NetworkPortal> portals() {
        return portals;
    }

    /**
     * Sets the TPG attributes by LIO's names; {@code generate_node_acls} and
     * {@code demo_mode_write_protect} take effect on the next login.
     */
    public void setAttributes(Map<String, Integer> a) {
        attributes = Map.copyOf(a);
        Integer g = a.get("generate_node_acls");
        if (g != null) {
            generateNodeAcls = g != 0;
        }
        Integer w = a.get("demo_mode_write_protect");
        if (w != null) {
            demoModeWriteProtect = w != 0;
        }
    }

    @Override
    public int attribute(String name) {
        switch (name) {
            case "generate_node_acls":
                return generateNodeAcls ? 1 : 0;
            case "demo_mode_write_protect":
                return demoModeWriteProtect ? 1 : 0;
            default:
                Integer v = attributes.get(name);
                if (v == null) {
                    throw new TargetException("ENOENT", this + " has no attribute " + name);
                }
                return v;
        }
    }

    /** The TPG's own CHAP secrets (targetcli's {@code set auth} on the TPG), used in demo mode. */
    public void setAuth(ChapCredentials a) {
        auth = a;
    }

    @Override
    public Optional<ChapCredentials> chapCredentials(String initiatorName) {
        NodeAcl acl = acls.get(initiatorName);
        ChapCredentials c = acl != null ? acl.auth() : generateNodeAcls ? auth : ChapCredentials.NONE;
        return c.isSet() || c.mutual() ? Optional.of(c) : Optional.empty();
    }
}
