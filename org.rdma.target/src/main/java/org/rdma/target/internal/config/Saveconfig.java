package org.rdma.target.internal.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.device.DeviceIdentity;

/**
 * The configured tree as targetcli's {@code saveconfig.json} (rtslib's {@code RTSRoot.dump()}
 * and {@code restore()}, the layout of saveconfig.json(5)): {@code storage_objects},
 * {@code targets} with their {@code tpgs}, {@code luns}, {@code portals} and {@code node_acls}.
 * What LIO keeps and this target does not (ALUA groups, LUN aliases, iSCSI parameters) is not
 * written and is ignored when read; a storage object of a plugin other than fileio and ramdisk,
 * or discovery authentication, is reported and skipped, as rtslib skips what it cannot restore.
 */
public final class Saveconfig {
    private Saveconfig() {
    }

    /** What a restore read: the objects, in the order to create them, and what it skipped. */
    public record Loaded(List<Spec> specs, List<String> errors) {
    }

    private static final String[] AUTH = {"userid", "password", "mutual_userid", "mutual_password"};

    /** The tree as saveconfig.json's top-level object. */
    public static Map<String, Object> dump(ConfigModel m) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("fabric_modules", List.of());
        List<Object> sos = new ArrayList<>();
        for (ConfigModel.Entry<Spec.Backstore> e : m.backstores()) {
            sos.add(storageObject(e.spec()));
        }
        root.put("storage_objects", sos);
        List<Object> targets = new ArrayList<>();
        for (ConfigModel.Entry<Spec.Target> t : m.targets()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("fabric", t.spec().fabric());
            o.put("wwn", t.spec().wwn());
            List<Object> tpgs = new ArrayList<>();
            for (ConfigModel.Entry<Spec.Tpg> g : m.tpgs(t.spec().fabric(), t.spec().wwn())) {
                tpgs.add(tpg(m, g.spec()));
            }
            o.put("tpgs", tpgs);
            targets.add(o);
        }
        root.put("targets", targets);
        return root;
    }

    private static Map<String, Object> storageObject(Spec.Backstore b) {
        Map<String, Object> o = new LinkedHashMap<>();
        Map<String, Object> attrs = new TreeMap<>();
        attrs.put("block_size", (long) b.blockSize());
        o.put("name", b.name());
        o.put("plugin", b.plugin());
        o.put("size", b.size());
        // The serial a missing wwn derives from is written, so a restore keeps the NAA designator.
        o.put("wwn", b.wwn().isEmpty() ? DeviceIdentity.defaultSerial(b.plugin(), b.name()) : b.wwn());
        if (b.plugin().equals(Pids.FILEIO_PLUGIN)) {
            attrs.put("emulate_tpu", b.thin() ? 1L : 0L);
            attrs.put("emulate_write_cache", b.writeBack() ? 1L : 0L);
            o.put("aio", false);
            o.put("dev", b.file());
            o.put("write_back", b.writeBack());
            if (b.readOnly()) {
                o.put("readonly", true);
            }
        }
        o.put("attributes", attrs);
        return o;
    }

    private static Map<String, Object> tpg(ConfigModel m, Spec.Tpg t) {
        Map<String, Object> o = new LinkedHashMap<>();
        Map<String, Object> attrs = new TreeMap<>();
        t.attributes().forEach((k, v) -> attrs.put(k, (long) v));
        o.put("attributes", attrs);
        o.put("enable", t.enable());
        auth(o, t.auth());
        List<Object> luns = new ArrayList<>();
        for (ConfigModel.Entry<Spec.Lun> l : m.luns(t.key())) {
            Map<String, Object> lo = new LinkedHashMap<>();
            lo.put("index", (long) l.spec().index());
            lo.put("storage_object", l.spec().storageObject());
            luns.add(lo);
        }
        o.put("luns", luns);
        List<Object> acls = new ArrayList<>();
        for (ConfigModel.Entry<Spec.Acl> a : m.acls(t.key())) {
            Map<String, Object> ao = new LinkedHashMap<>();
            List<Object> mapped = new ArrayList<>();
            for (Spec.MappedLun ml : a.spec().mappedLuns()) {
                Map<String, Object> mo = new LinkedHashMap<>();
                mo.put("index", (long) ml.index());
                mo.put("tpg_lun", (long) ml.tpgLun());
                mo.put("write_protect", ml.writeProtect());
                mapped.add(mo);
            }
            ao.put("mapped_luns", mapped);
            ao.put("node_wwn", a.spec().nodeWwn());
            auth(ao, a.spec().auth());
            acls.add(ao);
        }
        o.put("node_acls", acls);
        List<Object> portals = new ArrayList<>();
        for (ConfigModel.Entry<Spec.Portal> p : m.portals(t.key())) {
            Map<String, Object> po = new LinkedHashMap<>();
            String a = p.spec().address();
            po.put("ip_address", a.indexOf(':') >= 0 ? "[" + a + "]" : a);
            po.put("iser", p.spec().iser());
            po.put("offload", false);
            po.put("port", (long) p.spec().port());
            portals.add(po);
        }
        o.put("portals", portals);
        o.put("tag", (long) t.key().tag());
        return o;
    }

    /** rtslib writes only the secrets that are set, as {@code chap_userid} and so on. */
    private static void auth(Map<String, Object> o, ChapCredentials c) {
        String[] v = {c.userid(), c.password(), c.mutualUserid(), c.mutualPassword()};
        for (int i = 0; i < AUTH.length; i++) {
            if (!v[i].isEmpty()) {
                o.put("chap_" + AUTH[i], v[i]);
            }
        }
    }

    /**
     * Writes the tree to {@code file} as rtslib does: a temporary file beside it, forced, then
     * moved over it, readable by the owner only (it holds CHAP secrets).
     *
     * @throws TargetException {@code EACCES} or {@code EIO} naming the file
     */
    public static void write(ConfigModel m, Path file) {
        byte[] text = (Json.write(dump(m)) + "\n").getBytes(StandardCharsets.UTF_8);
        Path tmp = file.resolveSibling(file.getFileName() + ".temp");
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.deleteIfExists(tmp);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ownerOnly(tmp);
                ByteBuffer b = ByteBuffer.wrap(text);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AccessDeniedException e) {
            throw new TargetException("EACCES", "cannot write " + file + ": " + e.getMessage());
        } catch (IOException e) {
            throw new TargetException("EIO", "cannot write " + file + ": " + e);
        }
    }

    private static void ownerOnly(Path f) throws IOException {
        if (f.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        }
    }

    /**
     * Reads a saveconfig.json file.
     *
     * @throws TargetException {@code ENOENT} for a missing file, {@code EINVAL} for one that is
     *         not JSON or not an object
     */
    public static Loaded read(Path file, Map<String, FabricModule> modules) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new TargetException("ENOENT", "Restore file " + file + " not found");
        } catch (IOException e) {
            throw new TargetException("EIO", "cannot read " + file + ": " + e);
        }
        try {
            return load(Json.parse(text), modules);
        } catch (IllegalArgumentException e) {
            throw new TargetException("EINVAL", file + ": " + e.getMessage());
        }
    }

    /**
     * The objects of a parsed saveconfig.json, checked as the configuration checks them; an
     * object that fails is skipped with the others under it, and named in {@link Loaded#errors}.
     *
     * @throws IllegalArgumentException {@code EINVAL} when the top level is not an object
     */
    public static Loaded load(Object json, Map<String, FabricModule> modules) {
        if (!(json instanceof Map<?, ?> root)) {
            throw new IllegalArgumentException("EINVAL: saveconfig: the top level is not an object");
        }
        Reader r = new Reader(modules);
        for (Object so : r.list(root, "storage_objects", "saveconfig")) {
            r.storageObject(so);
        }
        for (Object fm : r.list(root, "fabric_modules", "saveconfig")) {
            r.errors.add("EINVAL: fabric module " + (fm instanceof Map<?, ?> f ? f.get("name") : fm)
                    + ": discovery authentication is not supported, skipped");
        }
        for (Object t : r.list(root, "targets", "saveconfig")) {
            r.target(t);
        }
        return r.result();
    }

    /** Reads one saveconfig.json, collecting specs and the errors of what it skipped. */
    private static final class Reader {
        final Map<String, FabricModule> modules;
        final List<Spec> specs = new ArrayList<>();
        final List<String> errors = new ArrayList<>();

        Reader(Map<String, FabricModule> modules) {
            this.modules = modules;
        }

        Loaded result() {
            Map<String, Spec> byOrder = new LinkedHashMap<>();
            for (int i = 0; i < specs.size(); i++) {
                byOrder.put(String.format("%08d", i), specs.get(i));
            }
            ConfigModel m = new ConfigModel(byOrder);
            List<Spec> unique = new ArrayList<>();
            byOrder.forEach((k, s) -> {
                if (m.conflicts().containsKey(k)) {
                    errors.add("EEXIST: " + s.path() + " appears twice, skipped");
                } else {
                    unique.add(s);
                }
            });
            return new Loaded(unique, errors);
        }

        List<?> list(Map<?, ?> o, String key, String where) {
            Object v = o.get(key);
            if (v == null) {
                return List.of();
            }
            if (!(v instanceof List<?> l)) {
                errors.add("EINVAL: " + where + ": " + key + " is not a list, skipped");
                return List.of();
            }
            return l;
        }

        void storageObject(Object o) {
            try {
                Map<?, ?> so = map(o, "storage object");
                String plugin = str(so, "plugin", null);
                String name = str(so, "name", null);
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("name", name);
                Map<?, ?> attrs = so.get("attributes") == null ? Map.of() : map(so.get("attributes"), "attributes");
                p.put("block.size", num(attrs, "block_size", 512));
                p.put("wwn", str(so, "wwn", ""));
                if (plugin.equals(Pids.FILEIO_PLUGIN)) {
                    String dev = str(so, "dev", null);
                    long size = num(so, "size", 0);
                    if (size == 0) {
                        size = Files.size(Path.of(dev));
                    }
                    p.put("file", dev);
                    p.put("size", size);
                    boolean wb = so.containsKey("write_back") ? bool(so, "write_back")
                            : num(attrs, "emulate_write_cache", 0) != 0;
                    p.put("write.back", wb);
                    p.put("readonly", so.containsKey("readonly") && bool(so, "readonly"));
                    p.put("thin.provisioning", num(attrs, "emulate_tpu", 0) != 0);
                    specs.add(SpecProperties.parse(Pids.FILEIO, p));
                } else if (plugin.equals(Pids.RAMDISK_PLUGIN)) {
                    if (so.containsKey("nullio") && bool(so, "nullio")) {
                        throw Checks.einval("nullio ramdisks are not supported");
                    }
                    p.put("size", num(so, "size", 0));
                    specs.add(SpecProperties.parse(Pids.RAMDISK, p));
                } else {
                    throw Checks.einval("plugin " + plugin + " is not supported (fileio, ramdisk)");
                }
            } catch (RuntimeException | IOException e) {
                errors.add(message("storage object " + describe(o, "name"), e));
            }
        }

        void target(Object o) {
            Spec.Target t;
            Map<?, ?> to;
            try {
                to = map(o, "target");
                String fabric = Checks.fabric(str(to, "fabric", null));
                t = new Spec.Target(fabric, Checks.name("wwn", normalize(fabric, str(to, "wwn", null))));
                specs.add(t);
            } catch (RuntimeException e) {
                errors.add(message("target " + describe(o, "wwn"), e));
                return;
            }
            int nextTag = 1;
            for (Object g : list(to, "tpgs", t.path())) {
                try {
                    Map<?, ?> go = map(g, "tpg");
                    int tag = Checks.tag(num(go, "tag", nextTag));
                    nextTag = tag + 1;
                    tpg(t, tag, go);
                } catch (RuntimeException e) {
                    errors.add(message(t.path() + " tpg " + describe(g, "tag"), e));
                }
            }
        }

        void tpg(Spec.Target t, int tag, Map<?, ?> go) {
            Spec.TpgKey key = new Spec.TpgKey(t.fabric(), t.wwn(), tag);
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("fabric", key.fabric());
            p.put("wwn", key.wwn());
            p.put("tag", (long) tag);
            p.put("enable", !go.containsKey("enable") || bool(go, "enable"));
            Map<?, ?> attrs = go.get("attributes") == null ? Map.of() : map(go.get("attributes"), "attributes");
            for (Map.Entry<?, ?> a : attrs.entrySet()) {
                String name = String.valueOf(a.getKey());
                if (!TpgAttributes.names().contains(name)) {
                    errors.add("EINVAL: " + key.path() + ": attribute " + name + " is not supported, skipped");
                    continue;
                }
                p.put(SpecProperties.attributeKey(name), num(attrs, name, 0));
            }
            chap(go, p);
            specs.add(SpecProperties.parse(Pids.TPG, p));
            int nextLun = 0;
            for (Object l : list(go, "luns", key.path())) {
                try {
                    Map<?, ?> lo = map(l, "lun");
                    int index = Checks.lun(num(lo, "index", nextLun));
                    nextLun = index + 1;
                    specs.add(new Spec.Lun(key, index, SpecProperties.storageObject(str(lo, "storage_object", null))));
                } catch (RuntimeException e) {
                    errors.add(message(key.path() + " lun " + describe(l, "index"), e));
                }
            }
            for (Object n : list(go, "portals", key.path())) {
                try {
                    Map<?, ?> no = map(n, "portal");
                    specs.add(new Spec.Portal(key, Checks.ipAddress(str(no, "ip_address", null)),
                            Checks.port(num(no, "port", 3260)), no.containsKey("iser") && bool(no, "iser")));
                } catch (RuntimeException e) {
                    errors.add(message(key.path() + " portal " + describe(n, "ip_address"), e));
                }
            }
            for (Object a : list(go, "node_acls", key.path())) {
                try {
                    acl(key, map(a, "node ACL"));
                } catch (RuntimeException e) {
                    errors.add(message(key.path() + " node ACL " + describe(a, "node_wwn"), e));
                }
            }
        }

        void acl(Spec.TpgKey key, Map<?, ?> ao) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("fabric", key.fabric());
            p.put("wwn", key.wwn());
            p.put("tag", (long) key.tag());
            p.put("node.wwn", normalize(key.fabric(), str(ao, "node_wwn", null)));
            List<String> mapped = new ArrayList<>();
            for (Object m : list(ao, "mapped_luns", "node ACL")) {
                Map<?, ?> mo = map(m, "mapped LUN");
                mapped.add(num(mo, "index", -1) + ":" + num(mo, "tpg_lun", -1) + ":"
                        + (mo.containsKey("write_protect") && bool(mo, "write_protect") ? "ro" : "rw"));
            }
            p.put("mapped.luns", mapped);
            chap(ao, p);
            specs.add(SpecProperties.parse(Pids.ACL, p));
        }

        private void chap(Map<?, ?> o, Map<String, Object> p) {
            for (String a : AUTH) {
                p.put("chap." + a.replace('_', '.'), str(o, "chap_" + a, ""));
            }
        }

        private String normalize(String fabric, String wwn) {
            FabricModule m = modules.get(fabric);
            return m == null ? wwn : m.normalizeWwn(wwn);
        }

        private static String describe(Object o, String key) {
            return o instanceof Map<?, ?> m && m.get(key) != null ? String.valueOf(m.get(key)) : "?";
        }

        private static String message(String what, Exception e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage();
            int colon = m.indexOf(": ");
            String errno = m.matches("E[A-Z]+: .*") ? m.substring(0, colon) : "EINVAL";
            String rest = m.matches("E[A-Z]+: .*") ? m.substring(colon + 2) : m;
            return errno + ": " + what + ": " + rest + ", skipped";
        }

        private static Map<?, ?> map(Object o, String what) {
            if (!(o instanceof Map<?, ?> m)) {
                throw Checks.einval(what + " is not an object");
            }
            return m;
        }

        private static String str(Map<?, ?> o, String key, String dflt) {
            Object v = o.get(key);
            if (v == null) {
                if (dflt == null) {
                    throw Checks.einval("'" + key + "' missing");
                }
                return dflt;
            }
            if (!(v instanceof String s)) {
                throw Checks.einval("'" + key + "' is not a string");
            }
            return s;
        }

        private static long num(Map<?, ?> o, String key, long dflt) {
            Object v = o.get(key);
            if (v == null) {
                return dflt;
            }
            if (!(v instanceof Long l)) {
                throw Checks.einval("'" + key + "' is not an integer");
            }
            return l;
        }

        private static boolean bool(Map<?, ?> o, String key) {
            Object v = o.get(key);
            if (!(v instanceof Boolean b)) {
                throw Checks.einval("'" + key + "' is not true or false");
            }
            return b;
        }
    }
}
