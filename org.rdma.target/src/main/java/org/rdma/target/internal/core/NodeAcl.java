package org.rdma.target.internal.core;

import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.TargetException;

/**
 * A node ACL (LIO's {@code se_node_acl}, targetcli's {@code acls/IQN}): which TPG LUNs an
 * initiator sees, under which LUN numbers, and whether read-only.
 */
public final class NodeAcl {
    /** A mapped LUN (LIO's {@code se_lun_acl}): the TPG LUN behind it and its write protection. */
    public record MappedLun(int tpgLun, boolean writeProtect) {
    }

    private final Tpg tpg;
    private final String initiatorName;
    private final NavigableMap<Integer, MappedLun> luns = new ConcurrentSkipListMap<>();
    private volatile ChapCredentials auth = ChapCredentials.NONE;

    NodeAcl(Tpg tpg, String initiatorName) {
        this.tpg = tpg;
        this.initiatorName = initiatorName;
    }

    public String initiatorName() {
        return initiatorName;
    }

    /**
     * Maps TPG LUN {@code tpgLun} as {@code mappedLun} (LIO's {@code core_dev_add_initiator_node_lun_acl()}).
     *
     * @throws TargetException {@code ENOENT} for a TPG LUN that does not exist, {@code EEXIST} for a
     *         mapped LUN in use, {@code EINVAL} outside 0..16383
     */
    public void mapLun(int mappedLun, int tpgLun, boolean writeProtect) {
        Tpg.checkLunNumber(mappedLun);
        if (tpg.device(tpgLun) == null) {
            throw new TargetException("ENOENT", tpg + ": no LUN " + tpgLun + " to map for " + initiatorName);
        }
        if (luns.putIfAbsent(mappedLun, new MappedLun(tpgLun, writeProtect)) != null) {
            throw new TargetException("EEXIST", initiatorName + " already maps LUN " + mappedLun);
        }
        tpg.lunsChanged(initiatorName);
    }

    NavigableMap<Integer, MappedLun> luns() {
        return luns;
    }

    /**
     * Removes a mapped LUN (targetcli's {@code acls/IQN delete N}); the initiator's sessions get
     * REPORTED LUNS DATA HAS CHANGED.
     *
     * @throws TargetException {@code ENOENT} for a mapped LUN the ACL does not have
     */
    public void unmapLun(int mappedLun) {
        if (luns.remove(mappedLun) == null) {
            throw new TargetException("ENOENT", initiatorName + " maps no LUN " + mappedLun);
        }
        tpg.lunsChanged(initiatorName);
    }

    /** Drops every mapping of a TPG LUN being removed (the TPG tells the sessions). */
    void unmapTpgLun(int tpgLun) {
        luns.values().removeIf(m -> m.tpgLun() == tpgLun);
    }

    /** The ACL's CHAP secrets (targetcli's {@code set auth} on the ACL). */
    public ChapCredentials auth() {
        return auth;
    }

    public void setAuth(ChapCredentials a) {
        auth = a;
    }
}
