package org.rdma.target.internal.shell;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.ConfigStore;
import org.rdma.target.internal.config.ConfigTree;
import org.rdma.target.internal.config.Pids;
import org.rdma.target.internal.config.Saveconfig;
import org.rdma.target.internal.config.Spec;
import org.rdma.target.internal.config.SpecProperties;

/**
 * One targetcli command line, {@code [PATH] COMMAND [PARAMETERS]}, as targetcli runs one given on
 * its command line: the path from the root ({@code /iscsi/IQN/tpg1/luns}, {@code ..} and
 * {@code .} allowed), the command of the node the path names, positional and
 * {@code name=value} parameters. Commands that change the tree write Config Admin
 * configurations and return once the live tree has them; the tree they see is Config Admin's.
 */
final class Targetcli {
    static final String USAGE = "targetcli [PATH] COMMAND [PARAMETERS...]: ls, create, delete, set, get, enable, "
            + "disable, saveconfig, restoreconfig, clearconfig, pwd, help";

    /** targetcli's global preferences that this target honours, and their defaults. */
    static final Map<String, Boolean> GLOBALS = Map.of("auto_add_default_portal", true, "auto_add_mapped_luns", true,
            "auto_enable_tpgt", true);

    final ConfigTree tree;
    final ConfigStore store;
    final PrintStream out;
    final Supplier<String> newIqn;
    ConfigModel model;
    Map<String, FabricModule> modules;

    /**
     * @param newIqn the name {@code /iscsi create} gives a target without one
     */
    Targetcli(ConfigTree tree, ConfigStore store, PrintStream out, Supplier<String> newIqn) {
        this.tree = tree;
        this.store = store;
        this.out = out;
        this.newIqn = newIqn;
    }

    /** A node the path resolved to, and its path. */
    record Node(UiNode ui, String path) {
        Ref ref() {
            return ui.ref();
        }
    }

    private static boolean isPath(String token) {
        return token.contains("/") || token.equals(".") || token.equals("..");
    }

    void run(List<String> args) {
        if (args.isEmpty()) {
            throw new TargetException("EINVAL", "usage: " + USAGE);
        }
        model = store.read(null);
        modules = tree.fabricModules();
        UiNode root = UiTree.build(model, modules.keySet());
        int i = 0;
        Node node = new Node(root, "/");
        if (isPath(args.get(0))) {
            node = resolve(root, node, args.get(i++));
        }
        if (i == args.size()) {
            return; // A path alone is targetcli's 'cd', which a single command line does not keep.
        }
        String command = args.get(i++);
        if (!command.matches("[A-Za-z0-9_]+")) {
            throw new TargetException("EINVAL", "'" + command + "' is not a command; usage: " + USAGE);
        }
        List<String> params = args.subList(i, args.size());
        if (!common(root, node, command, params) && !NodeCommands.run(this, node, command, params)) {
            throw new TargetException("EINVAL", "Command not found " + command + " at " + node.path());
        }
    }

    /** The node {@code path} names, relative to {@code from} unless it starts with '/'. */
    Node resolve(UiNode root, Node from, String path) {
        List<String> segments = new ArrayList<>();
        if (!path.startsWith("/")) {
            for (String s : from.path().split("/")) {
                if (!s.isEmpty()) {
                    segments.add(s);
                }
            }
        }
        for (String s : path.split("/")) {
            if (s.equals("..")) {
                if (!segments.isEmpty()) {
                    segments.remove(segments.size() - 1);
                }
            } else if (!s.isEmpty() && !s.equals(".")) {
                segments.add(s);
            }
        }
        UiNode n = root;
        List<String> names = new ArrayList<>();
        for (String s : segments) {
            n = child(n, s);
            if (n == null) {
                throw new TargetException("ENOENT", "No such path " + path);
            }
            names.add(n.name());
        }
        return new Node(n, "/" + String.join("/", names));
    }

    /** A child by name; target and initiator names also in their fabric's canonical form. */
    private UiNode child(UiNode n, String name) {
        UiNode c = n.child(name);
        if (c != null) {
            return c;
        }
        String fabric = n.ref() instanceof Ref.Fabric f ? f.fabric() : n.ref() instanceof Ref.Acls a ? a.tpg().fabric() : null;
        FabricModule m = fabric == null ? null : modules.get(fabric);
        if (m == null) {
            return null;
        }
        try {
            return n.child(m.normalizeWwn(name));
        } catch (TargetException notAName) {
            return null;
        }
    }

    void print(String line) {
        out.println(line);
    }

    Changes changes() {
        return new Changes(store, tree);
    }

    boolean global(String name) {
        Object v = store.singleton(Pids.TARGETCLI).get(SpecProperties.attributeKey(name));
        if (v == null) {
            return GLOBALS.get(name);
        }
        return v instanceof Boolean b ? b : SpecProperties.parseBool(name, String.valueOf(v));
    }

    FabricModule module(String fabric) {
        FabricModule m = modules.get(fabric);
        if (m == null) {
            throw new TargetException("ENODEV", "no fabric module " + fabric + " is registered");
        }
        return m;
    }

    private static Path expand(String file) {
        String f = file.startsWith("~/") || file.equals("~") ? System.getProperty("user.home") + file.substring(1) : file;
        return Path.of(f).toAbsolutePath().normalize();
    }

    static Path file(String file) {
        try {
            return expand(file);
        } catch (java.nio.file.InvalidPathException e) {
            throw new TargetException("EINVAL", "'" + file + "' is not a file name");
        }
    }

    /** The commands every node (or the root) takes. */
    private boolean common(UiNode root, Node node, String command, List<String> params) {
        switch (command) {
            case "ls": {
                Params p = Params.bind("ls", params, List.of(), List.of("path", "depth"));
                Node target = p.has("path") ? resolve(root, node, p.get("path")) : node;
                out.print(UiTree.render(target.ui(), (int) Math.max(0, p.number("depth", 0))));
                return true;
            }
            case "pwd":
                Params.bind("pwd", params, List.of(), List.of());
                print(node.path());
                return true;
            case "cd":
            case "refresh":
                return true;
            case "help":
                print(USAGE);
                return true;
            case "set":
            case "get":
                if (!params.isEmpty() && params.get(0).equals("global")) {
                    globals(command, params.subList(1, params.size()));
                    return true;
                }
                return false;
            case "saveconfig":
            case "restoreconfig":
            case "clearconfig":
                if (!(node.ref() instanceof Ref.Root)) {
                    return false;
                }
                root(command, params);
                return true;
            default:
                return false;
        }
    }

    private void globals(String command, List<String> params) {
        if (command.equals("get")) {
            List<String> names = params.isEmpty() ? GLOBALS.keySet().stream().sorted().toList() : params;
            for (String n : names) {
                if (!GLOBALS.containsKey(n)) {
                    throw new TargetException("EINVAL", "Unknown parameter " + n + " in group 'global'.");
                }
                print(n + "=" + global(n));
            }
            return;
        }
        Map<String, Boolean> values = new LinkedHashMap<>();
        for (String t : params) {
            if (!Params.isKeyword(t)) {
                throw new TargetException("EINVAL", "set global takes name=value, not '" + t + "'");
            }
            String n = t.substring(0, t.indexOf('='));
            if (!GLOBALS.containsKey(n)) {
                throw new TargetException("EINVAL", "Unknown parameter " + n + " in group 'global'.");
            }
            values.put(n, SpecProperties.parseBool(n, t.substring(t.indexOf('=') + 1)));
        }
        values.forEach((n, v) -> {
            store.setSingleton(Pids.TARGETCLI, SpecProperties.attributeKey(n), v);
            print("Parameter " + n + " is now '" + v + "'.");
        });
    }

    private void root(String command, List<String> params) {
        switch (command) {
            case "saveconfig": {
                Params p = Params.bind(command, params, List.of(), List.of("savefile"));
                Path f = p.has("savefile") && !p.get("savefile").isEmpty() ? file(p.get("savefile")) : tree.savefile();
                Saveconfig.write(model, f);
                print("Configuration saved to " + f);
                return;
            }
            case "clearconfig": {
                Params p = Params.bind(command, params, List.of(), List.of("confirm"));
                if (!p.bool("confirm", false)) {
                    throw new TargetException("EINVAL", "As a precaution, confirm=True needs to be set");
                }
                clear();
                print("All configuration cleared");
                return;
            }
            default:
                restore(Params.bind(command, params, List.of(), List.of("savefile", "clear_existing", "target",
                        "storage_object")));
        }
    }

    /** Deletes every target configuration, valid or not, and waits until the tree is empty. */
    private void clear() {
        Map<String, String> invalid = new HashMap<>();
        ConfigModel all = store.read(invalid);
        Map<String, Spec> gone = new LinkedHashMap<>();
        all.byPid().keySet().forEach(pid -> gone.put(pid, null));
        invalid.keySet().forEach(pid -> gone.put(pid, null));
        store.deleteAll();
        tree.await(gone, Changes.TIMEOUT);
        model = ConfigModel.EMPTY;
    }

    /** rtslib's {@code restore_from_file()}: refuses to restore over objects of the same names. */
    private void restore(Params p) {
        if (p.has("target") || p.has("storage_object")) {
            throw new TargetException("EINVAL", "restoreconfig of one target or storage object is not supported");
        }
        Path f = p.has("savefile") && !p.get("savefile").isEmpty() ? file(p.get("savefile")) : tree.savefile();
        Saveconfig.Loaded l = Saveconfig.read(f, modules);
        if (p.bool("clear_existing", false)) {
            clear();
        } else {
            for (Spec s : l.specs()) {
                if (s instanceof Spec.Backstore b && model.backstore(b.plugin(), b.name()).isPresent()) {
                    throw new TargetException("EEXIST", "storageobject '" + b.plugin() + ":" + b.name() + "' exist not restoring");
                }
                if (s instanceof Spec.Target t && model.target(t.fabric(), t.wwn()).isPresent()) {
                    throw new TargetException("EEXIST", "target with wwn " + t.wwn() + " exist, not restoring");
                }
            }
        }
        Changes c = changes();
        l.specs().forEach(c::create);
        c.commit();
        if (!l.errors().isEmpty()) {
            throw new TargetException("EINVAL", "Configuration restored, " + l.errors().size() + " recoverable errors:\n"
                    + String.join("\n", l.errors()));
        }
        print("Configuration restored from " + f);
    }
}
