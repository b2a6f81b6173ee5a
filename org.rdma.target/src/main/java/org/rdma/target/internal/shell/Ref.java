package org.rdma.target.internal.shell;

import org.rdma.target.internal.config.Spec;

/** What a node of targetcli's tree stands for, and so which commands it takes. */
sealed interface Ref {
    record Root() implements Ref {
    }

    record Backstores() implements Ref {
    }

    /** {@code /backstores/fileio}, {@code /backstores/ramdisk}. */
    record Plugin(String plugin) implements Ref {
    }

    record StorageObject(Spec.Backstore spec) implements Ref {
    }

    /** {@code /iscsi}. */
    record Fabric(String fabric) implements Ref {
    }

    record Target(Spec.Target spec) implements Ref {
    }

    record Tpg(Spec.Tpg spec) implements Ref {
    }

    record Luns(Spec.TpgKey tpg) implements Ref {
    }

    record Lun(Spec.Lun spec) implements Ref {
    }

    record Portals(Spec.TpgKey tpg) implements Ref {
    }

    record Portal(Spec.Portal spec) implements Ref {
    }

    record Acls(Spec.TpgKey tpg) implements Ref {
    }

    record Acl(Spec.Acl spec) implements Ref {
    }

    record MappedLun(Spec.Acl acl, Spec.MappedLun mapped) implements Ref {
    }
}
