package org.rdma.target.internal.shell;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rdma.target.internal.config.Checks;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.Pids;
import org.rdma.target.internal.config.Spec;

/**
 * {@code /backstores/fileio} and {@code /backstores/ramdisk}: {@code create} and {@code delete}
 * of storage objects, with targetcli's parameters and messages (ui_backstore.py).
 */
final class BackstoreCommands extends NodeCommands {
    BackstoreCommands(Targetcli cli) {
        super(cli);
    }

    boolean plugin(String plugin, String command, List<String> params) {
        if (command.equals("delete")) {
            Params p = Params.bind(command, params, List.of("name"), List.of("save"));
            String name = p.get("name");
            ConfigModel.Entry<Spec.Backstore> so = m.backstore(plugin, name)
                    .orElseThrow(() -> error("ENOENT", "No storage object named " + name + "."));
            List<ConfigModel.Entry<Spec.Lun>> users = m.lunsOf(so.spec().path());
            if (!users.isEmpty()) {
                throw error("EBUSY", "storage object " + plugin + "/" + name + " is in use by "
                        + String.join(", ", users.stream().map(l -> l.spec().path()).toList()));
            }
            Changes c = cli.changes();
            c.delete(so.pid());
            c.commit();
            cli.print("Deleted storage object " + name + ".");
            return true;
        }
        if (!command.equals("create")) {
            return false;
        }
        if (plugin.equals(Pids.FILEIO_PLUGIN)) {
            createFileio(Params.bind(command, params, List.of("name", "file_or_dev"),
                    List.of("size", "write_back", "sparse", "wwn", "block_size", "readonly", "thin_provisioning")));
        } else {
            createRamdisk(Params.bind(command, params, List.of("name", "size"), List.of("nullio", "wwn", "block_size")));
        }
        return true;
    }

    void checkNewStorageObject(String plugin, String name) {
        Checks.name("storage object name", name);
        if (m.backstore(plugin, name).isPresent()) {
            throw error("EEXIST", "Storage object " + plugin + "/" + name + " exists");
        }
    }

    void createFileio(Params p) {
        String name = p.get("name");
        checkNewStorageObject(Pids.FILEIO_PLUGIN, name);
        Path file = Targetcli.file(p.get("file_or_dev"));
        for (ConfigModel.Entry<Spec.Backstore> e : m.backstores()) {
            if (e.spec().plugin().equals(Pids.FILEIO_PLUGIN) && sameFile(file, Path.of(e.spec().file()))) {
                throw error("EEXIST", "storage object for " + file + " already exists: " + e.spec().name());
            }
        }
        if (!p.bool("sparse", true)) {
            throw error("EINVAL", "sparse=false: fileio files are always created sparse here");
        }
        long size;
        if (Files.exists(file)) {
            if (!Files.isRegularFile(file)) {
                throw error("EINVAL", "Path " + file + " exists but is not a file");
            }
            try {
                size = Files.size(file);
            } catch (java.io.IOException e) {
                throw error("EIO", "cannot read the size of " + file + ": " + e.getMessage());
            }
            if (p.has("size")) {
                cli.print(file + " exists, using its size (" + size + " bytes) instead");
            }
        } else {
            if (!p.has("size")) {
                throw error("EINVAL", "Attempting to create file for new fileio backstore, need a size");
            }
            size = Sizes.parse(p.get("size"));
        }
        int bs = Checks.blockSize(p.number("block_size", 512));
        Spec.Backstore s = new Spec.Backstore(Pids.FILEIO_PLUGIN, name, file.toString(), Checks.size(size, bs), bs,
                p.bool("write_back", true), p.bool("readonly", false), p.bool("thin_provisioning", false), p.get("wwn", ""));
        Changes c = cli.changes();
        c.create(s);
        c.commit();
        cli.print("Created fileio " + name + " with size " + size);
    }

    static boolean sameFile(Path a, Path b) {
        try {
            return a.equals(b) || Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    void createRamdisk(Params p) {
        String name = p.get("name");
        checkNewStorageObject(Pids.RAMDISK_PLUGIN, name);
        if (p.bool("nullio", false)) {
            throw error("EINVAL", "nullio ramdisks are not supported");
        }
        int bs = Checks.blockSize(p.number("block_size", 512));
        long size = Checks.size(Sizes.parse(p.get("size")), bs);
        Changes c = cli.changes();
        c.create(new Spec.Backstore(Pids.RAMDISK_PLUGIN, name, "", size, bs, true, false, false, p.get("wwn", "")));
        c.commit();
        cli.print("Created ramdisk " + name + " with size " + p.get("size") + ".");
    }
}
