package org.rdma.target.internal.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.internal.config.Checks;
import org.rdma.target.internal.config.ConfigModel;
import org.rdma.target.internal.config.Spec;

/**
 * The nodes under a TPG: {@code luns} (with targetcli's automatic mapped LUNs), {@code portals},
 * {@code acls} and an ACL's mapped LUNs and {@code auth} (ui_target.py).
 */
final class TpgChildCommands extends NodeCommands {
    TpgChildCommands(Targetcli cli) {
        super(cli);
    }

    boolean luns(Spec.TpgKey key, String command, List<String> params) {
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

    boolean portals(Spec.TpgKey key, String command, List<String> params) {
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

    boolean acls(Spec.TpgKey key, String command, List<String> params) {
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

    boolean acl(Spec.Acl a, String command, List<String> params) {
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

    /** A TPG LUN ({@code N}, {@code lunN}) or a storage object, whose LUN is created when missing. */
    int tpgLun(Changes c, Spec.TpgKey key, String lunOrBackstore) {
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
