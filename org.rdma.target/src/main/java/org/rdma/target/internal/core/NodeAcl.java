package org.rdma.target.internal.core;

import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
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
}
