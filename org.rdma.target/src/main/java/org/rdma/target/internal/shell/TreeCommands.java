package org.rdma.target.internal.shell;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.config.Checks;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.Pids;
import org.rdma.target.internal.config.Spec;
import org.rdma.target.internal.config.TpgAttributes;

/**
 * The commands of the nodes of targetcli's tree, with targetcli's parameters and messages
 * (ui_backstore.py, ui_target.py): {@code create} and {@code delete} of storage objects, targets,
 * TPGs, LUNs, portals, ACLs and mapped LUNs; {@code enable}, {@code disable}, and
 * {@code set}/{@code get} of the {@code attribute} and {@code auth} groups.
 */
final class TreeCommands {
    private static final String DEFAULT_PORTAL = "0.0.0.0";
    private static final List<String> AUTH = List.of("userid", "password", "mutual_userid", "mutual_password");

    private final Targetcli cli;
    private final ConfigModel m;

    TreeCommands(Targetcli cli) {
        this.cli = cli;
        this.m = cli.model;
    }

    private static TargetException error(String errno, String message) {
        return new TargetException(errno, message);
    }

    /** Runs {@code command} at {@code node}; false when the node has no such command. */
    boolean run(Targetcli.Node node, String command, List<String> params) {
        Ref r = node.ref();
        if (r instanceof Ref.Plugin p) {
            return plugin(p.plugin(), command, params);
        } else if (r instanceof Ref.Fabric f) {
            return fabric(f.fabric(), command, params);
        } else if (r instanceof Ref.Target t) {
            return target(t.spec(), command, params);
        } else if (r instanceof Ref.Tpg t) {
            return tpg(t.spec(), command, params);
        } else if (r instanceof Ref.Luns l) {
            return luns(l.tpg(), command, params);
        } else if (r instanceof Ref.Portals p) {
            return portals(p.tpg(), command, params);
        } else if (r instanceof Ref.Acls a) {
            return acls(a.tpg(), command, params);
        } else if (r instanceof Ref.Acl a) {
            return acl(a.spec(), command, params);
        }
        return false;
    }

    // ------------------------------------------------------------------ backstores

    private boolean plugin(String plugin, String command, List<String> params) {
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

    private void checkNewStorageObject(String plugin, String name) {
        Checks.name("storage object name", name);
        if (m.backstore(plugin, name).isPresent()) {
            throw error("EEXIST", "Storage object " + plugin + "/" + name + " exists");
        }
    }

    private void createFileio(Params p) {
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

    private static boolean sameFile(Path a, Path b) {
        try {
            return a.equals(b) || Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private void createRamdisk(Params p) {
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

    // ------------------------------------------------------------------ targets and TPGs

    private boolean fabric(String fabric, String command, List<String> params) {
        FabricModule module = cli.module(fabric);
        if (command.equals("create")) {
            Params p = Params.bind(command, params, List.of(), List.of("wwn"));
            String wwn = module.normalizeWwn(p.has("wwn") ? p.get("wwn") : cli.newIqn.get());
            Checks.name("target WWN", wwn);
            if (m.target(fabric, wwn).isPresent()) {
                throw error("EEXIST", "target /" + fabric + "/" + wwn + " exists");
            }
            Changes c = cli.changes();
            c.create(new Spec.Target(fabric, wwn));
            cli.print("Created target " + wwn + ".");
            createTpg(c, module, new Spec.TpgKey(fabric, wwn, 1));
            c.commit();
            return true;
        }
        if (command.equals("delete")) {
            Params p = Params.bind(command, params, List.of("wwn"), List.of());
            String wwn = canonical(module, p.get("wwn"));
            ConfigModel.Entry<Spec.Target> t = m.target(fabric, wwn)
                    .orElseThrow(() -> error("ENOENT", "No such target " + p.get("wwn") + " in /" + fabric));
            Changes c = cli.changes();
            for (ConfigModel.Entry<Spec.Tpg> g : m.tpgs(fabric, wwn)) {
                deleteTpg(c, g);
            }
            c.delete(t.pid());
            c.commit();
            cli.print("Deleted Target " + wwn + ".");
            return true;
        }
        return false;
    }

    private static String canonical(FabricModule module, String wwn) {
        try {
            return module.normalizeWwn(wwn);
        } catch (TargetException notAName) {
            return wwn;
        }
    }

    /** targetcli's {@code UIMultiTPGTarget.ui_command_create()}: a TPG, and its default portal. */
    private void createTpg(Changes c, FabricModule module, Spec.TpgKey key) {
        Map<String, Integer> attrs = TpgAttributes.defaults();
        attrs.put("authentication", 0);
        c.create(new Spec.Tpg(key, cli.global("auto_enable_tpgt"), attrs, ChapCredentials.NONE));
        cli.print("Created TPG " + key.tag() + ".");
        if (module.defaultPort() > 0 && cli.global("auto_add_default_portal")) {
            if (portalUser(key, DEFAULT_PORTAL, module.defaultPort()).isPresent()) {
                cli.print("Default portal not created, TPGs within a target cannot share ip:port.");
                return;
            }
            c.create(new Spec.Portal(key, DEFAULT_PORTAL, module.defaultPort(), false));
            cli.print("Global pref auto_add_default_portal=true");
            cli.print("Created default portal listening on all IPs (" + DEFAULT_PORTAL + "), port " + module.defaultPort() + ".");
        }
    }

    /** The TPG of the same target that has a portal, if any: LIO refuses to share it. */
    private Optional<Spec.TpgKey> portalUser(Spec.TpgKey key, String address, int port) {
        return m.tpgs(key.fabric(), key.wwn()).stream().map(g -> g.spec().key())
                .filter(k -> m.portal(k, address, port).isPresent()).findFirst();
    }

    private void deleteTpg(Changes c, ConfigModel.Entry<Spec.Tpg> g) {
        for (ConfigModel.Entry<? extends Spec> child : m.children(g.spec().key())) {
            c.delete(child.pid());
        }
        c.delete(g.pid());
    }

    private static int tag(Params p, String name) {
        String v = p.get(name);
        String digits = v.startsWith("tpg") ? v.substring(3) : v;
        try {
            return Checks.tag(Long.parseLong(digits));
        } catch (NumberFormatException e) {
            throw error("EINVAL", "Tag argument must be a number: '" + v + "'");
        }
    }

    private boolean target(Spec.Target t, String command, List<String> params) {
        if (command.equals("create")) {
            Params p = Params.bind(command, params, List.of(), List.of("tag"));
            int tag;
            if (p.has("tag")) {
                tag = tag(p, "tag");
            } else {
                tag = 1;
                while (m.tpg(new Spec.TpgKey(t.fabric(), t.wwn(), tag)).isPresent()) {
                    tag++;
                }
            }
            Spec.TpgKey key = new Spec.TpgKey(t.fabric(), t.wwn(), tag);
            if (m.tpg(key).isPresent()) {
                throw error("EEXIST", key.path() + " exists");
            }
            Changes c = cli.changes();
            createTpg(c, cli.module(t.fabric()), key);
            c.commit();
            return true;
        }
        if (command.equals("delete")) {
            Params p = Params.bind(command, params, List.of("tag"), List.of());
            Spec.TpgKey key = new Spec.TpgKey(t.fabric(), t.wwn(), tag(p, "tag"));
            ConfigModel.Entry<Spec.Tpg> g = m.tpg(key).orElseThrow(() -> error("ENOENT", "No such TPG " + key.path()));
            Changes c = cli.changes();
            deleteTpg(c, g);
            c.commit();
            cli.print("Deleted TPGT " + key.tag() + ".");
            return true;
        }
        return false;
    }

    private boolean tpg(Spec.Tpg t, String command, List<String> params) {
        String pid = m.tpg(t.key()).orElseThrow().pid();
        switch (command) {
            case "enable":
            case "disable": {
                Params.bind(command, params, List.of(), List.of());
                boolean on = command.equals("enable");
                if (t.enable() == on) {
                    cli.print("The TPGT is already " + command + "d.");
                    return true;
                }
                Changes c = cli.changes();
                c.update(pid, new Spec.Tpg(t.key(), on, t.attributes(), t.auth()));
                c.commit();
                cli.print("The TPGT has been " + command + "d.");
                return true;
            }
            case "set": {
                String group = group(params, "attribute", "auth");
                Map<String, String> values = keywords(params.subList(1, params.size()));
                Spec.Tpg changed;
                if (group.equals("attribute")) {
                    Map<String, Integer> attrs = new LinkedHashMap<>(t.attributes());
                    values.forEach((k, v) -> attrs.put(k, TpgAttributes.check(k, integer(k, v))));
                    changed = new Spec.Tpg(t.key(), t.enable(), attrs, t.auth());
                } else {
                    changed = new Spec.Tpg(t.key(), t.enable(), t.attributes(), auth(t.auth(), values));
                }
                Changes c = cli.changes();
                c.update(pid, changed);
                c.commit();
                values.forEach((k, v) -> cli.print("Parameter " + k + " is now '" + v.strip() + "'."));
                return true;
            }
            case "get": {
                String group = group(params, "attribute", "auth");
                Map<String, String> all = new LinkedHashMap<>();
                if (group.equals("attribute")) {
                    t.attributes().entrySet().stream().sorted(Map.Entry.comparingByKey())
                            .forEach(e -> all.put(e.getKey(), String.valueOf(e.getValue())));
                } else {
                    authValues(t.auth()).forEach(all::put);
                }
                get(all, params.subList(1, params.size()), group);
                return true;
            }
            default:
                return false;
        }
    }

    private static String group(List<String> params, String... groups) {
        if (params.isEmpty() || !List.of(groups).contains(params.get(0))) {
            throw error("EINVAL", "Unknown configuration group: " + (params.isEmpty() ? "(none)" : params.get(0))
                    + " (" + String.join(", ", groups) + ", global)");
        }
        return params.get(0);
    }

    private static Map<String, String> keywords(List<String> params) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String t : params) {
            if (!Params.isKeyword(t)) {
                throw error("EINVAL", "set takes name=value, not '" + t + "'");
            }
            values.put(t.substring(0, t.indexOf('=')), t.substring(t.indexOf('=') + 1));
        }
        return values;
    }

    private static long integer(String name, String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw error("EINVAL", "Not setting " + name + "! '" + v + "' is not a number.");
        }
    }

    private static ChapCredentials auth(ChapCredentials c, Map<String, String> values) {
        Map<String, String> a = authValues(c);
        values.forEach((k, v) -> {
            if (!AUTH.contains(k)) {
                throw error("EINVAL", "Unknown parameter " + k + " in group 'auth' (" + String.join(", ", AUTH) + ")");
            }
            a.put(k, v);
        });
        return new ChapCredentials(a.get("userid"), a.get("password"), a.get("mutual_userid"), a.get("mutual_password"));
    }

    private static Map<String, String> authValues(ChapCredentials c) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("userid", c.userid());
        a.put("password", c.password());
        a.put("mutual_userid", c.mutualUserid());
        a.put("mutual_password", c.mutualPassword());
        return a;
    }

    private void get(Map<String, String> all, List<String> names, String group) {
        for (String n : names.isEmpty() ? List.copyOf(all.keySet()) : names) {
            if (!all.containsKey(n)) {
                throw error("EINVAL", "Unknown parameter " + n + " in group '" + group + "'.");
            }
            cli.print(n + "=" + all.get(n));
        }
    }

    // ------------------------------------------------------------------ LUNs

    private boolean luns(Spec.TpgKey key, String command, List<String> params) {
        if (command.equals("create")) {
            Params p = Params.bind(command, params, List.of("storage_object"), List.of("lun", "add_mapped_luns"));
            Changes c = cli.changes();
            Map<String, Spec.Acl> acls = new LinkedHashMap<>();
            m.acls(key).forEach(a -> acls.put(a.pid(), a.spec()));
            int lun = createLun(c, key, p.get("storage_object"), p.has("lun") ? Checks.lun(p.lun("lun", 0)) : -1);
            if (p.bool("add_mapped_luns", cli.global("auto_add_mapped_luns"))) {
                acls.forEach((pid, a) -> {
                    // targetcli: the LUN's own number if given and free, else the first free.
                    int mapped = p.has("lun") ? lun : 0;
                    List<Integer> used = a.mappedLuns().stream().map(Spec.MappedLun::index).toList();
                    if (used.contains(mapped)) {
                        mapped = 0;
                        while (used.contains(mapped)) {
                            mapped++;
                        }
                    }
                    List<Spec.MappedLun> ml = new ArrayList<>(a.mappedLuns());
                    ml.add(new Spec.MappedLun(mapped, lun, false));
                    c.update(pid, new Spec.Acl(a.tpg(), a.nodeWwn(), ml, a.auth()));
                    cli.print("Created LUN " + lun + "->" + mapped + " mapping in node ACL " + a.nodeWwn());
                });
            }
            c.commit();
            return true;
        }
        if (command.equals("delete")) {
            Params p = Params.bind(command, params, List.of("lun"), List.of());
            int lun = (int) Math.min(Integer.MAX_VALUE, Math.max(-1, p.lun("lun", -1)));
            ConfigModel.Entry<Spec.Lun> l = m.lun(key, lun)
                    .orElseThrow(() -> error("ENOENT", "No LUN " + p.get("lun") + " in " + key.path() + "/luns"));
            Changes c = cli.changes();
            // rtslib deletes the mapped LUNs of a LUN with it.
            for (ConfigModel.Entry<Spec.Acl> a : m.acls(key)) {
                List<Spec.MappedLun> kept = a.spec().mappedLuns().stream().filter(x -> x.tpgLun() != lun).toList();
                if (kept.size() != a.spec().mappedLuns().size()) {
                    c.update(a.pid(), new Spec.Acl(key, a.spec().nodeWwn(), kept, a.spec().auth()));
                }
            }
            c.delete(l.pid());
            c.commit();
            cli.print("Deleted LUN " + lun + ".");
            return true;
        }
        return false;
    }

    /** Creates TPG LUN {@code lun} (-1: the first free) for a storage object; returns its number. */
    private int createLun(Changes c, Spec.TpgKey key, String storageObject, int lun) {
        String so = storageObject.endsWith("/") ? storageObject.substring(0, storageObject.length() - 1) : storageObject;
        ConfigModel.Entry<Spec.Backstore> b = m.backstore(so)
                .orElseThrow(() -> error("ENOENT", "storage object or path not valid: " + storageObject));
        if (m.luns(key).stream().anyMatch(l -> l.spec().storageObject().equals(b.spec().path()))) {
            throw error("EEXIST", "lun for storage object " + b.spec().plugin() + "/" + b.spec().name() + " already exists");
        }
        int n = lun;
        if (n < 0) {
            n = 0;
            while (m.lun(key, n).isPresent()) {
                n++;
            }
        } else if (m.lun(key, n).isPresent()) {
            throw error("EEXIST", key.path() + "/luns/lun" + n + " exists");
        }
        c.create(new Spec.Lun(key, Checks.lun(n), b.spec().path()));
        cli.print("Created LUN " + n + ".");
        return n;
    }

    // ------------------------------------------------------------------ portals

    private boolean portals(Spec.TpgKey key, String command, List<String> params) {
        FabricModule module = cli.module(key.fabric());
        if (module.defaultPort() == 0 && (command.equals("create") || command.equals("delete"))) {
            throw error("EINVAL", "fabric " + key.fabric() + " has no network portals");
        }
        if (command.equals("create")) {
            Params p = Params.bind(command, params, List.of(), List.of("ip_address", "ip_port"));
            int port = Checks.port(p.number("ip_port", module.defaultPort()));
            String ip = Checks.ipAddress(p.get("ip_address", DEFAULT_PORTAL));
            if (port == module.defaultPort()) {
                cli.print("Using default IP port " + port);
            }
            if (ip.equals(DEFAULT_PORTAL)) {
                cli.print("Binding to INADDR_ANY (" + DEFAULT_PORTAL + ")");
            }
            Optional<Spec.TpgKey> user = portalUser(key, ip, port);
            NetworkPortal np = new NetworkPortal(ip, port, false);
            if (user.isPresent()) {
                throw error("EEXIST", "network portal " + np + " exists in " + user.get().path()
                        + (user.get().equals(key) ? "" : ": TPGs within a target cannot share ip:port"));
            }
            Changes c = cli.changes();
            c.create(new Spec.Portal(key, ip, port, false));
            c.commit();
            cli.print("Created network portal " + np + ".");
            return true;
        }
        if (command.equals("delete")) {
            Params p = Params.bind(command, params, List.of("ip_address", "ip_port"), List.of());
            String ip = Checks.ipAddress(p.get("ip_address"));
            int port = Checks.port(p.number("ip_port", 0));
            NetworkPortal np = new NetworkPortal(ip, port, false);
            ConfigModel.Entry<Spec.Portal> e = m.portal(key, ip, port)
                    .orElseThrow(() -> error("ENOENT", "No network portal " + np + " in " + key.path()));
            Changes c = cli.changes();
            c.delete(e.pid());
            c.commit();
            cli.print("Deleted network portal " + np);
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ ACLs

    private boolean acls(Spec.TpgKey key, String command, List<String> params) {
        FabricModule module = cli.module(key.fabric());
        if (command.equals("create")) {
            Params p = Params.bind(command, params, List.of("wwn"), List.of("add_mapped_luns"));
            String wwn = Checks.name("initiator WWN", module.normalizeWwn(p.get("wwn")));
            if (m.acl(key, wwn).isPresent()) {
                throw error("EEXIST", "ACL for " + wwn + " exists in " + key.path());
            }
            List<Spec.MappedLun> mapped = new ArrayList<>();
            if (p.bool("add_mapped_luns", cli.global("auto_add_mapped_luns"))) {
                m.luns(key).forEach(l -> mapped.add(new Spec.MappedLun(l.spec().index(), l.spec().index(), false)));
            }
            Changes c = cli.changes();
            c.create(new Spec.Acl(key, wwn, mapped, ChapCredentials.NONE));
            c.commit();
            cli.print("Created Node ACL for " + wwn);
            mapped.forEach(ml -> cli.print("Created mapped LUN " + ml.index() + "."));
            return true;
        }
        if (command.equals("delete")) {
            Params p = Params.bind(command, params, List.of("wwn"), List.of());
            String wwn = canonical(module, p.get("wwn"));
            ConfigModel.Entry<Spec.Acl> a = m.acl(key, wwn)
                    .orElseThrow(() -> error("ENOENT", "No ACL for " + p.get("wwn") + " in " + key.path()));
            Changes c = cli.changes();
            c.delete(a.pid());
            c.commit();
            cli.print("Deleted Node ACL " + wwn + ".");
            return true;
        }
        return false;
    }

    private boolean acl(Spec.Acl a, String command, List<String> params) {
        String pid = m.acl(a.tpg(), a.nodeWwn()).orElseThrow().pid();
        switch (command) {
            case "create": {
                Params p = Params.bind(command, params, List.of("mapped_lun", "tpg_lun_or_backstore"), List.of("write_protect"));
                int mapped;
                try {
                    mapped = Checks.lun(Long.parseLong(p.get("mapped_lun")));
                } catch (NumberFormatException e) {
                    throw error("EINVAL", "mapped_lun must be an integer: '" + p.get("mapped_lun") + "'");
                }
                if (a.mappedLuns().stream().anyMatch(x -> x.index() == mapped)) {
                    throw error("EEXIST", a.path() + "/mapped_lun" + mapped + " exists");
                }
                Changes c = cli.changes();
                int tpgLun = tpgLun(c, a.tpg(), p.get("tpg_lun_or_backstore"));
                if (a.mappedLuns().stream().anyMatch(x -> x.tpgLun() == tpgLun)) {
                    cli.print("Warning: TPG LUN " + tpgLun + " already mapped to this NodeACL");
                }
                List<Spec.MappedLun> ml = new ArrayList<>(a.mappedLuns());
                ml.add(new Spec.MappedLun(mapped, tpgLun, p.bool("write_protect", false)));
                c.update(pid, new Spec.Acl(a.tpg(), a.nodeWwn(), ml, a.auth()));
                c.commit();
                cli.print("Created Mapped LUN " + mapped + ".");
                return true;
            }
            case "delete": {
                Params p = Params.bind(command, params, List.of("mapped_lun"), List.of());
                long mapped = p.lun("mapped_lun", -1);
                List<Spec.MappedLun> kept = a.mappedLuns().stream().filter(x -> x.index() != mapped).toList();
                if (kept.size() == a.mappedLuns().size()) {
                    throw error("ENOENT", "No mapped LUN " + p.get("mapped_lun") + " in " + a.path());
                }
                Changes c = cli.changes();
                c.update(pid, new Spec.Acl(a.tpg(), a.nodeWwn(), kept, a.auth()));
                c.commit();
                cli.print("Deleted Mapped LUN " + mapped + ".");
                return true;
            }
            case "set": {
                group(params, "auth");
                Map<String, String> values = keywords(params.subList(1, params.size()));
                Changes c = cli.changes();
                c.update(pid, new Spec.Acl(a.tpg(), a.nodeWwn(), a.mappedLuns(), auth(a.auth(), values)));
                c.commit();
                values.forEach((k, v) -> cli.print("Parameter " + k + " is now '" + v.strip() + "'."));
                return true;
            }
            case "get":
                group(params, "auth");
                get(authValues(a.auth()), params.subList(1, params.size()), "auth");
                return true;
            default:
                return false;
        }
    }

    /** A TPG LUN ({@code N}, {@code lunN}) or a storage object, whose LUN is created when missing. */
    private int tpgLun(Changes c, Spec.TpgKey key, String lunOrBackstore) {
        String digits = lunOrBackstore.startsWith("lun") ? lunOrBackstore.substring(3) : lunOrBackstore;
        if (digits.matches("[0-9]{1,9}")) {
            int n = Integer.parseInt(digits);
            if (m.lun(key, n).isEmpty()) {
                throw error("ENOENT", "No LUN " + n + " in " + key.path() + "/luns");
            }
            return n;
        }
        String so = lunOrBackstore.endsWith("/") ? lunOrBackstore.substring(0, lunOrBackstore.length() - 1) : lunOrBackstore;
        Optional<ConfigModel.Entry<Spec.Lun>> existing = m.luns(key).stream()
                .filter(l -> l.spec().storageObject().equals(so)).findFirst();
        if (existing.isPresent()) {
            return existing.get().spec().index();
        }
        if (m.backstore(so).isEmpty()) {
            throw error("ENOENT", "LUN, storage object, or path not valid: " + lunOrBackstore);
        }
        return createLun(c, key, so, -1);
    }
}
