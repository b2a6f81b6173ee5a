package org.rdma.target.internal.shell;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.Pids;
import org.rdma.target.internal.config.Spec;

/**
 * targetcli's tree of a configuration, with the names and summaries of targetcli-fb's UI classes
 * (ui_backstore.py, ui_target.py): {@code /backstores/fileio/NAME}, {@code /iscsi/IQN/tpgN} with
 * {@code acls}, {@code luns} and {@code portals}. There are no ALUA groups (this target has no
 * ALUA), so neither the {@code alua} nodes nor the LUNs' {@code (default_tg_pt_gp)} appear.
 */
final class UiTree {
    private UiTree() {
    }

    /**
     * The tree of {@code m}; the fabric nodes are those of the registered fabric modules and of
     * the configured targets.
     */
    static UiNode build(ConfigModel m, Collection<String> fabricModules) {
        List<UiNode> plugins = new ArrayList<>();
        for (String plugin : List.of(Pids.FILEIO_PLUGIN, Pids.RAMDISK_PLUGIN)) {
            List<UiNode> sos = m.backstores().stream().filter(e -> e.spec().plugin().equals(plugin))
                    .map(e -> storageObject(m, e.spec())).toList();
            plugins.add(new UiNode(plugin, "Storage Objects: " + sos.size(), null, new Ref.Plugin(plugin), sos));
        }
        List<UiNode> top = new ArrayList<>();
        top.add(new UiNode("backstores", "", null, new Ref.Backstores(), plugins));
        TreeSet<String> fabrics = new TreeSet<>(fabricModules);
        m.targets().forEach(t -> fabrics.add(t.spec().fabric()));
        for (String f : fabrics) {
            List<UiNode> targets = m.targets().stream().filter(t -> t.spec().fabric().equals(f))
                    .map(t -> target(m, t.spec())).toList();
            top.add(new UiNode(f, "Targets: " + targets.size(), null, new Ref.Fabric(f), targets));
        }
        return new UiNode("/", "", null, new Ref.Root(), top);
    }

    private static boolean activated(ConfigModel m, Spec.Backstore b) {
        return !m.lunsOf(b.path()).isEmpty();
    }

    private static UiNode storageObject(ConfigModel m, Spec.Backstore b) {
        String status = activated(m, b) ? "activated" : "deactivated";
        String summary = b.plugin().equals(Pids.FILEIO_PLUGIN)
                ? b.file() + " (" + Sizes.human(b.size()) + ") " + (b.readOnly() ? "ro " : "")
                        + (b.writeBack() ? "write-back" : "write-thru") + " " + status
                : "(" + Sizes.human(b.size()) + ") " + status;
        return new UiNode(b.name(), summary, true, new Ref.StorageObject(b));
    }

    private static UiNode target(ConfigModel m, Spec.Target t) {
        List<UiNode> tpgs = m.tpgs(t.fabric(), t.wwn()).stream().map(g -> tpg(m, g.spec())).toList();
        return new UiNode(t.wwn(), "TPGs: " + tpgs.size(), null, new Ref.Target(t), tpgs);
    }

    private static UiNode tpg(ConfigModel m, Spec.Tpg t) {
        Spec.TpgKey k = t.key();
        List<UiNode> luns = m.luns(k).stream().map(l -> lun(m, l.spec())).toList();
        List<UiNode> acls = m.acls(k).stream().map(a -> acl(m, t, a.spec())).toList();
        List<UiNode> portals = m.portals(k).stream().map(p -> portal(p.spec())).toList();
        List<UiNode> children = List.of(
                new UiNode("acls", "ACLs: " + acls.size(), null, new Ref.Acls(k), acls),
                new UiNode("luns", "LUNs: " + luns.size(), null, new Ref.Luns(k), luns),
                new UiNode("portals", "Portals: " + portals.size(), null, new Ref.Portals(k), portals));
        String[] summary = tpgSummary(t);
        return new UiNode("tpg" + k.tag(), summary[0], health(summary[1]), new Ref.Tpg(t), children);
    }

    private static Boolean health(String s) {
        return s == null ? null : Boolean.valueOf(s);
    }

    /** targetcli's {@code UITPG.summary()}: the description and the health (null, "true", "false"). */
    private static String[] tpgSummary(Spec.Tpg t) {
        if (!t.enable()) {
            return new String[] {"disabled", "false"};
        }
        boolean gen = t.attributes().get("generate_node_acls") != 0;
        List<String> msg = new ArrayList<>();
        msg.add(gen ? "gen-acls" : "no-gen-acls");
        String status = null;
        if (t.attributes().get("authentication") == 0) {
            msg.add("no-auth");
            if (gen) {
                status = "true";
            }
        } else if (!gen) {
            msg.add("auth per-acl");
        } else {
            msg.add("tpg-auth");
            status = String.valueOf(t.auth().isSet());
            msg.add(t.auth().mutual() ? "mutual auth" : "1-way auth");
        }
        return new String[] {String.join(", ", msg), status};
    }

    private static UiNode lun(ConfigModel m, Spec.Lun l) {
        Ref ref = new Ref.Lun(l);
        String name = "lun" + l.index();
        return m.backstore(l.storageObject()).map(e -> {
            Spec.Backstore b = e.spec();
            String d = b.plugin() + "/" + b.name() + (b.file().isEmpty() ? "" : " (" + b.file() + ")");
            return new UiNode(name, d, true, ref);
        }).orElseGet(() -> new UiNode(name, "BROKEN STORAGE LINK", false, ref));
    }

    private static UiNode portal(Spec.Portal p) {
        return new UiNode(new NetworkPortal(p.address(), p.port(), p.iser()).toString(), p.iser() ? "iser" : "", true,
                new Ref.Portal(p));
    }

    private static UiNode acl(ConfigModel m, Spec.Tpg t, Spec.Acl a) {
        List<UiNode> mapped = new ArrayList<>();
        for (Spec.MappedLun ml : a.mappedLuns()) {
            String name = "mapped_lun" + ml.index();
            Ref ref = new Ref.MappedLun(a, ml);
            mapped.add(m.lun(a.tpg(), ml.tpgLun()).flatMap(l -> m.backstore(l.spec().storageObject()))
                    .map(b -> new UiNode(name, "lun" + ml.tpgLun() + " " + b.spec().plugin() + "/" + b.spec().name()
                            + " (" + (ml.writeProtect() ? "ro" : "rw") + ")", true, ref))
                    .orElseGet(() -> new UiNode(name, "BROKEN LUN LINK", false, ref)));
        }
        List<String> msg = new ArrayList<>();
        Boolean status = null;
        if (t.attributes().get("authentication") != 0) {
            if (t.attributes().get("generate_node_acls") != 0) {
                msg.add("auth via tpg");
            } else {
                ChapCredentials c = a.auth();
                status = c.isSet();
                msg.add(c.mutual() ? "mutual auth" : "1-way auth");
            }
        }
        msg.add("Mapped LUNs: " + mapped.size());
        return new UiNode(a.nodeWwn(), String.join(", ", msg), status, new Ref.Acl(a), mapped);
    }

    /**
     * configshell's {@code _render_tree()} without colours, at targetcli's width when the output
     * is not a terminal (132 columns): {@code o- NAME ....... [SUMMARY]}, children indented by
     * two, a '|' for each ancestor that has siblings below.
     *
     * @param depth levels below {@code root} to print; 0 prints all
     */
    static String render(UiNode root, int depth) {
        StringBuilder out = new StringBuilder();
        render(out, root, new ArrayList<>(List.of(false)), depth == 0 ? -1 : depth);
        return out.toString();
    }

    static final int WIDTH = 132;

    private static void render(StringBuilder out, UiNode n, List<Boolean> margin, int depth) {
        String description = n.summary();
        if (description.isEmpty()) {
            description = n.healthy() == null ? "..." : n.healthy() ? "OK" : "ERROR";
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < margin.size() - 1; i++) {
            line.append(margin.get(i) ? "| " : "  ");
        }
        line.append("o- ");
        int pad = WIDTH - 1 - (description.length() + 3) - line.length() - n.name().length();
        line.append(n.name()).append(' ').append(".".repeat(Math.max(0, pad))).append(" [").append(description).append(']');
        out.append(line).append('\n');
        if (depth == 0) {
            return;
        }
        List<UiNode> children = n.children();
        for (int i = 0; i < children.size(); i++) {
            margin.add(i < children.size() - 1);
            render(out, children.get(i), margin, depth - 1);
            margin.remove(margin.size() - 1);
        }
    }
}
