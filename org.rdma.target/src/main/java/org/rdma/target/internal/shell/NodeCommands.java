package org.rdma.target.internal.shell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.config.Checks;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.Spec;

/**
 * What the commands of targetcli's nodes share: the command line's model, errors with their
 * errno, and the helpers more than one node needs (the {@code set}/{@code get} groups, LUN
 * creation, the portal rule of LIO). Each node family is a subclass: {@link BackstoreCommands},
 * {@link TargetCommands}, {@link TpgChildCommands}.
 */
abstract class NodeCommands {
    static final String DEFAULT_PORTAL = "0.0.0.0";
    static final List<String> AUTH = List.of("userid", "password", "mutual_userid", "mutual_password");

    final Targetcli cli;
    final ConfigModel m;

    NodeCommands(Targetcli cli) {
        this.cli = cli;
        this.m = cli.model;
    }

    /** Runs {@code command} at {@code node}; false when the node has no such command. */
    static boolean run(Targetcli cli, Targetcli.Node node, String command, List<String> params) {
        Ref r = node.ref();
        if (r instanceof Ref.Plugin p) {
            return new BackstoreCommands(cli).plugin(p.plugin(), command, params);
        } else if (r instanceof Ref.Fabric f) {
            return new TargetCommands(cli).fabric(f.fabric(), command, params);
        } else if (r instanceof Ref.Target t) {
            return new TargetCommands(cli).target(t.spec(), command, params);
        } else if (r instanceof Ref.Tpg t) {
            return new TargetCommands(cli).tpg(t.spec(), command, params);
        } else if (r instanceof Ref.Luns l) {
            return new TpgChildCommands(cli).luns(l.tpg(), command, params);
        } else if (r instanceof Ref.Portals p) {
            return new TpgChildCommands(cli).portals(p.tpg(), command, params);
        } else if (r instanceof Ref.Acls a) {
            return new TpgChildCommands(cli).acls(a.tpg(), command, params);
        } else if (r instanceof Ref.Acl a) {
            return new TpgChildCommands(cli).acl(a.spec(), command, params);
        }
        return false;
    }

    static TargetException error(String errno, String message) {
        return new TargetException(errno, message);
    }

    static String canonical(FabricModule module, String wwn) {
        try {
            return module.normalizeWwn(wwn);
        } catch (TargetException notAName) {
            return wwn;
        }
    }

    /** targetcli's {@code UIMultiTPGTarget.ui_command_create()}: a TPG, and its default portal. */

    /** The TPG of the same target that has a portal, if any: LIO refuses to share it. */
    Optional<Spec.TpgKey> portalUser(Spec.TpgKey key, String address, int port) {
        return m.tpgs(key.fabric(), key.wwn()).stream().map(g -> g.spec().key())
                .filter(k -> m.portal(k, address, port).isPresent()).findFirst();
    }

    static int tag(Params p, String name) {
        String v = p.get(name);
        String digits = v.startsWith("tpg") ? v.substring(3) : v;
        try {
            return Checks.tag(Long.parseLong(digits));
        } catch (NumberFormatException e) {
            throw error("EINVAL", "Tag argument must be a number: '" + v + "'");
        }
    }

    static String group(List<String> params, String... groups) {
        if (params.isEmpty() || !List.of(groups).contains(params.get(0))) {
            throw error("EINVAL", "Unknown configuration group: " + (params.isEmpty() ? "(none)" : params.get(0))
                    + " (" + String.join(", ", groups) + ", global)");
        }
        return params.get(0);
    }

    static Map<String, String> keywords(List<String> params) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String t : params) {
            if (!Params.isKeyword(t)) {
                throw error("EINVAL", "set takes name=value, not '" + t + "'");
            }
            values.put(t.substring(0, t.indexOf('=')), t.substring(t.indexOf('=') + 1));
        }
        return values;
    }

    static long integer(String name, String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw error("EINVAL", "Not setting " + name + "! '" + v + "' is not a number.");
        }
    }

    static ChapCredentials auth(ChapCredentials c, Map<String, String> values) {
        Map<String, String> a = authValues(c);
        values.forEach((k, v) -> {
            if (!AUTH.contains(k)) {
                throw error("EINVAL", "Unknown parameter " + k + " in group 'auth' (" + String.join(", ", AUTH) + ")");
            }
            a.put(k, v);
        });
        return new ChapCredentials(a.get("userid"), a.get("password"), a.get("mutual_userid"), a.get("mutual_password"));
    }

    static Map<String, String> authValues(ChapCredentials c) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("userid", c.userid());
        a.put("password", c.password());
        a.put("mutual_userid", c.mutualUserid());
        a.put("mutual_password", c.mutualPassword());
        return a;
    }

    void get(Map<String, String> all, List<String> names, String group) {
        for (String n : names.isEmpty() ? List.copyOf(all.keySet()) : names) {
            if (!all.containsKey(n)) {
                throw error("EINVAL", "Unknown parameter " + n + " in group '" + group + "'.");
            }
            cli.print(n + "=" + all.get(n));
        }
    }

    /** Creates TPG LUN {@code lun} (-1: the first free) for a storage object; returns its number. */
    int createLun(Changes c, Spec.TpgKey key, String storageObject, int lun) {
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
}
