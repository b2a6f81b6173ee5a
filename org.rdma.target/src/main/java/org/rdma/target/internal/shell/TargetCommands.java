package org.rdma.target.internal.shell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.internal.config.Checks;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.Spec;
import org.rdma.target.internal.config.TpgAttributes;

/**
 * {@code /iscsi}, {@code /iscsi/IQN} and {@code /iscsi/IQN/tpgN}: targets and TPGs (with LIO's
 * default portal), {@code enable}, {@code disable}, and the {@code attribute} and {@code auth}
 * groups of {@code set} and {@code get} (ui_target.py).
 */
final class TargetCommands extends NodeCommands {
    TargetCommands(Targetcli cli) {
        super(cli);
    }

    boolean fabric(String fabric, String command, List<String> params) {
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

    /** targetcli's {@code UIMultiTPGTarget.ui_command_create()}: a TPG, and its default portal. */
    void createTpg(Changes c, FabricModule module, Spec.TpgKey key) {
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

    void deleteTpg(Changes c, ConfigModel.Entry<Spec.Tpg> g) {
        for (ConfigModel.Entry<? extends Spec> child : m.children(g.spec().key())) {
            c.delete(child.pid());
        }
        c.delete(g.pid());
    }

    boolean target(Spec.Target t, String command, List<String> params) {
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

    boolean tpg(Spec.Tpg t, String command, List<String> params) {
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
}
