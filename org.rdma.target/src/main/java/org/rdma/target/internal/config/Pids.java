package org.rdma.target.internal.config;

import java.util.List;

/** The configuration PIDs of the target, one factory PID per kind of object in LIO's tree. */
public final class Pids {
    private Pids() {
    }

    /** Singleton: the core itself (where saveconfig writes). */
    public static final String CORE = "org.rdma.target";
    /** Singleton: targetcli's global preferences ({@code set global ...}). */
    public static final String TARGETCLI = "org.rdma.target.targetcli";

    public static final String FILEIO = "org.rdma.target.backstore.fileio";
    public static final String RAMDISK = "org.rdma.target.backstore.ramdisk";
    public static final String TARGET = "org.rdma.target.target";
    public static final String TPG = "org.rdma.target.tpg";
    public static final String PORTAL = "org.rdma.target.portal";
    public static final String LUN = "org.rdma.target.lun";
    public static final String ACL = "org.rdma.target.acl";

    /** Every factory PID, parents before children (the order a restore creates them in). */
    public static final List<String> FACTORIES = List.of(FILEIO, RAMDISK, TARGET, TPG, PORTAL, LUN, ACL);

    public static final String FILEIO_PLUGIN = "fileio";
    public static final String RAMDISK_PLUGIN = "ramdisk";
}
