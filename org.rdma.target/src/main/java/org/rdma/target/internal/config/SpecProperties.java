package org.rdma.target.internal.config;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.TargetException;

/**
 * Specs to and from Config Admin properties. The keys are the Metatype ids of the
 * {@code *Config} interfaces (dotted, as the project's other configurations: {@code block.size},
 * {@code generate.node.acls}); values may be typed or strings (a Karaf {@code .cfg} file holds
 * strings only). What {@link #toProperties} writes {@link #parse} reads back to an equal spec.
 */
public final class SpecProperties {
    private SpecProperties() {
    }

    /** The TPG attribute's key: LIO's name with dots ({@code generate.node.acls}). */
    public static String attributeKey(String lioName) {
        return lioName.replace('_', '.');
    }

    /**
     * The spec a configuration of {@code factoryPid} describes.
     *
     * @throws TargetException {@code EINVAL} for a missing or bad value, naming the key
     */
    public static Spec parse(String factoryPid, Map<String, ?> p) {
        switch (factoryPid) {
            case Pids.FILEIO: {
                int bs = Checks.blockSize(number(p, "block.size", 512));
                return new Spec.Backstore(Pids.FILEIO_PLUGIN, Checks.name("name", string(p, "name", null)),
                        file(string(p, "file", null)), Checks.size(number(p, "size", 0), bs), bs,
                        bool(p, "write.back", true), bool(p, "readonly", false), bool(p, "thin.provisioning", false),
                        string(p, "wwn", ""));
            }
            case Pids.RAMDISK: {
                int bs = Checks.blockSize(number(p, "block.size", 512));
                return new Spec.Backstore(Pids.RAMDISK_PLUGIN, Checks.name("name", string(p, "name", null)), "",
                        Checks.size(number(p, "size", 0), bs), bs, true, false, false, string(p, "wwn", ""));
            }
            case Pids.TARGET:
                return new Spec.Target(Checks.fabric(string(p, "fabric", "iscsi")), Checks.name("wwn", string(p, "wwn", null)));
            case Pids.TPG: {
                Map<String, Integer> attrs = new LinkedHashMap<>();
                for (String a : TpgAttributes.names()) {
                    attrs.put(a, TpgAttributes.check(a, number(p, attributeKey(a), TpgAttributes.defaults().get(a))));
                }
                return new Spec.Tpg(tpgKey(p), bool(p, "enable", true), attrs, chap(p));
            }
            case Pids.PORTAL:
                return new Spec.Portal(tpgKey(p), Checks.ipAddress(string(p, "ip.address", "0.0.0.0")),
                        Checks.port(number(p, "port", 3260)), bool(p, "iser", false));
            case Pids.LUN:
                return new Spec.Lun(tpgKey(p), Checks.lun(number(p, "index", -1)), storageObject(string(p, "storage.object", null)));
            case Pids.ACL: {
                List<Spec.MappedLun> mapped = new ArrayList<>();
                for (String m : strings(p, "mapped.luns")) {
                    Spec.MappedLun ml = mappedLun(m);
                    if (mapped.stream().anyMatch(x -> x.index() == ml.index())) {
                        throw Checks.einval("mapped.luns: LUN " + ml.index() + " mapped twice");
                    }
                    mapped.add(ml);
                }
                return new Spec.Acl(tpgKey(p), Checks.name("node.wwn", string(p, "node.wwn", null)), mapped, chap(p));
            }
            default:
                throw Checks.einval("not a target configuration: " + factoryPid);
        }
    }

    /** The properties of a spec, every key written. */
    public static Map<String, Object> toProperties(Spec s) {
        Map<String, Object> p = new LinkedHashMap<>();
        if (s instanceof Spec.Backstore b) {
            p.put("name", b.name());
            if (b.plugin().equals(Pids.FILEIO_PLUGIN)) {
                p.put("file", b.file());
            }
            p.put("size", b.size());
            p.put("block.size", b.blockSize());
            if (b.plugin().equals(Pids.FILEIO_PLUGIN)) {
                p.put("write.back", b.writeBack());
                p.put("readonly", b.readOnly());
                p.put("thin.provisioning", b.thin());
            }
            p.put("wwn", b.wwn());
        } else if (s instanceof Spec.Target t) {
            p.put("fabric", t.fabric());
            p.put("wwn", t.wwn());
        } else if (s instanceof Spec.Tpg t) {
            putKey(p, t.key());
            p.put("enable", t.enable());
            t.attributes().forEach((k, v) -> p.put(attributeKey(k), v));
            putChap(p, t.auth());
        } else if (s instanceof Spec.Portal n) {
            putKey(p, n.tpg());
            p.put("ip.address", n.address());
            p.put("port", n.port());
            p.put("iser", n.iser());
        } else if (s instanceof Spec.Lun l) {
            putKey(p, l.tpg());
            p.put("index", l.index());
            p.put("storage.object", l.storageObject());
        } else if (s instanceof Spec.Acl a) {
            putKey(p, a.tpg());
            p.put("node.wwn", a.nodeWwn());
            p.put("mapped.luns", a.mappedLuns().stream()
                    .map(m -> m.index() + ":" + m.tpgLun() + ":" + (m.writeProtect() ? "ro" : "rw")).toArray(String[]::new));
            putChap(p, a.auth());
        }
        return p;
    }

    private static void putKey(Map<String, Object> p, Spec.TpgKey k) {
        p.put("fabric", k.fabric());
        p.put("wwn", k.wwn());
        p.put("tag", k.tag());
    }

    private static void putChap(Map<String, Object> p, ChapCredentials c) {
        p.put("chap.userid", c.userid());
        p.put("chap.password", c.password());
        p.put("chap.mutual.userid", c.mutualUserid());
        p.put("chap.mutual.password", c.mutualPassword());
    }

    private static Spec.TpgKey tpgKey(Map<String, ?> p) {
        return new Spec.TpgKey(Checks.fabric(string(p, "fabric", "iscsi")), Checks.name("wwn", string(p, "wwn", null)),
                Checks.tag(number(p, "tag", 1)));
    }

    private static ChapCredentials chap(Map<String, ?> p) {
        return new ChapCredentials(string(p, "chap.userid", ""), string(p, "chap.password", ""),
                string(p, "chap.mutual.userid", ""), string(p, "chap.mutual.password", ""));
    }

    private static String file(String f) {
        if (f.isEmpty() || f.indexOf('\0') >= 0) {
            throw Checks.einval("file '" + f + "' is not a file name");
        }
        return f;
    }

    /** A storage object path, {@code /backstores/PLUGIN/NAME}. */
    public static String storageObject(String path) {
        String[] parts = path.split("/", -1);
        if (parts.length != 4 || !parts[0].isEmpty() || !parts[1].equals("backstores")
                || !(parts[2].equals(Pids.FILEIO_PLUGIN) || parts[2].equals(Pids.RAMDISK_PLUGIN))) {
            throw Checks.einval("storage object '" + path + "' is not /backstores/fileio/NAME or /backstores/ramdisk/NAME");
        }
        Checks.name("storage object name", parts[3]);
        return path;
    }

    /** {@code INDEX:TPG_LUN[:rw|ro]}. */
    static Spec.MappedLun mappedLun(String m) {
        String[] f = m.split(":", -1);
        if (f.length < 2 || f.length > 3 || f.length == 3 && !f[2].equals("ro") && !f[2].equals("rw")) {
            throw Checks.einval("mapped.luns entry '" + m + "' is not INDEX:TPG_LUN[:rw|ro]");
        }
        return new Spec.MappedLun(Checks.lun(parseLong("mapped.luns", f[0])), Checks.lun(parseLong("mapped.luns", f[1])),
                f.length == 3 && f[2].equals("ro"));
    }

    static String string(Map<String, ?> p, String key, String dflt) {
        Object v = p.get(key);
        if (v == null) {
            if (dflt == null) {
                throw Checks.einval("missing " + key);
            }
            return dflt;
        }
        if (!(v instanceof String s)) {
            throw Checks.einval(key + " is not a string: " + v);
        }
        return s;
    }

    static long number(Map<String, ?> p, String key, long dflt) {
        Object v = p.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof String s) {
            return parseLong(key, s.trim());
        }
        throw Checks.einval(key + " is not an integer: " + v);
    }

    private static long parseLong(String key, String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw Checks.einval(key + " '" + s + "' is not an integer");
        }
    }

    static boolean bool(Map<String, ?> p, String key, boolean dflt) {
        Object v = p.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            return parseBool(key, s);
        }
        throw Checks.einval(key + " is not a boolean: " + v);
    }

    /** true/false, yes/no, 1/0, on/off, in any case (targetcli's booleans). */
    public static boolean parseBool(String key, String s) {
        switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "1", "on":
                return true;
            case "false", "no", "0", "off":
                return false;
            default:
                throw Checks.einval(key + " '" + s + "' is not a boolean (true or false)");
        }
    }

    private static List<String> strings(Map<String, ?> p, String key) {
        Object v = p.get(key);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (v instanceof String s) {
            // A Karaf .cfg file holds one string: a comma-separated list.
            for (String e : s.split(",")) {
                if (!e.isBlank()) {
                    out.add(e.trim());
                }
            }
            return out;
        }
        Iterable<?> items;
        if (v.getClass().isArray()) {
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < Array.getLength(v); i++) {
                l.add(Array.get(v, i));
            }
            items = l;
        } else if (v instanceof Collection<?> c) {
            items = c;
        } else {
            throw Checks.einval(key + " is not a list of strings: " + v);
        }
        for (Object o : items) {
            if (!(o instanceof String s)) {
                throw Checks.einval(key + " holds a non-string: " + o);
            }
            out.add(s);
        }
        return out;
    }
}
