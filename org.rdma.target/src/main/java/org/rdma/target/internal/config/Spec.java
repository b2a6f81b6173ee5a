package org.rdma.target.internal.config;

import java.util.List;
import java.util.Map;
import org.rdma.target.fabric.ChapCredentials;

/**
 * One object of LIO's configuration tree as one Config Admin configuration holds it (the
 * configfs directories targetcli creates: a storage object, a target, a TPG, a portal, a LUN, a
 * node ACL with its mapped LUNs). Values are already checked and complete (defaults filled), so
 * two specs are equal exactly when they configure the same object the same way.
 */
public sealed interface Spec {
    /** The factory PID of the configurations of this kind. */
    String factoryPid();

    /** The object's path in targetcli's tree, e.g. {@code /iscsi/IQN/tpg1/luns/lun0}. */
    String path();

    /** A TPG's identity: fabric, target WWN and tag (LIO's {@code tpgt_N} directory). */
    record TpgKey(String fabric, String wwn, int tag) {
        public String path() {
            return "/" + fabric + "/" + wwn + "/tpg" + tag;
        }
    }

    /**
     * A storage object (LIO's {@code core/fileio_N/NAME}, {@code core/rd_mcp_N/NAME}).
     *
     * @param plugin {@code fileio} or {@code ramdisk}
     * @param file the backing file (fileio), else empty
     * @param size bytes
     * @param blockSize 512 or 4096
     * @param writeBack the write cache is enabled (LIO's {@code write_back}, WCE)
     * @param readOnly writes answer WRITE PROTECTED
     * @param thin UNMAP deallocates (LIO's {@code emulate_tpu})
     * @param wwn the unit serial number; empty: one derived from the plugin and name
     */
    record Backstore(String plugin, String name, String file, long size, int blockSize, boolean writeBack,
            boolean readOnly, boolean thin, String wwn) implements Spec {
        @Override
        public String factoryPid() {
            return plugin.equals(Pids.FILEIO_PLUGIN) ? Pids.FILEIO : Pids.RAMDISK;
        }

        @Override
        public String path() {
            return "/backstores/" + plugin + "/" + name;
        }
    }

    /** A target of a fabric (LIO's {@code iscsi/IQN}). */
    record Target(String fabric, String wwn) implements Spec {
        @Override
        public String factoryPid() {
            return Pids.TARGET;
        }

        @Override
        public String path() {
            return "/" + fabric + "/" + wwn;
        }
    }

    /**
     * A target portal group with its attributes (complete: every one of
     * {@link TpgAttributes}) and its CHAP secrets for demo mode.
     */
    record Tpg(TpgKey key, boolean enable, Map<String, Integer> attributes, ChapCredentials auth) implements Spec {
        public Tpg {
            attributes = Map.copyOf(attributes);
        }

        @Override
        public String factoryPid() {
            return Pids.TPG;
        }

        @Override
        public String path() {
            return key.path();
        }
    }

    /** A network portal of a TPG ({@code portals/ADDR:PORT}). */
    record Portal(TpgKey tpg, String address, int port, boolean iser) implements Spec {
        @Override
        public String factoryPid() {
            return Pids.PORTAL;
        }

        @Override
        public String path() {
            return tpg.path() + "/portals/" + new org.rdma.target.fabric.NetworkPortal(address, port, iser);
        }
    }

    /**
     * A LUN of a TPG ({@code luns/lunN}).
     *
     * @param storageObject the backstore's path, {@code /backstores/fileio/disk0}
     */
    record Lun(TpgKey tpg, int index, String storageObject) implements Spec {
        @Override
        public String factoryPid() {
            return Pids.LUN;
        }

        @Override
        public String path() {
            return tpg.path() + "/luns/lun" + index;
        }
    }

    /** A mapped LUN of a node ACL: the initiator sees TPG LUN {@code tpgLun} as {@code index}. */
    record MappedLun(int index, int tpgLun, boolean writeProtect) {
    }

    /** A node ACL ({@code acls/INITIATOR}) with its mapped LUNs (ordered by index) and CHAP secrets. */
    record Acl(TpgKey tpg, String nodeWwn, List<MappedLun> mappedLuns, ChapCredentials auth) implements Spec {
        public Acl {
            mappedLuns = mappedLuns.stream().sorted(java.util.Comparator.comparingInt(MappedLun::index)).toList();
        }

        @Override
        public String factoryPid() {
            return Pids.ACL;
        }

        @Override
        public String path() {
            return tpg.path() + "/acls/" + nodeWwn;
        }
    }
}
