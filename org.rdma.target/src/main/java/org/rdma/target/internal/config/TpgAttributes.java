package org.rdma.target.internal.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rdma.target.fabric.TargetException;

/**
 * The attributes of an iSCSI target portal group (LIO's {@code struct iscsi_tpg_attrib}, the
 * {@code tpgt_N/attrib/} files) with LIO's defaults and the ranges its store functions accept
 * (iscsi_target_tpg.c). The core acts on {@code generate_node_acls} and
 * {@code demo_mode_write_protect}; the others are the fabric engine's to read.
 */
public final class TpgAttributes {
    private TpgAttributes() {
    }

    private record Rule(int dflt, int min, int max, Set<Integer> only) {
    }

    private static final Map<String, Rule> RULES = new TreeMap<>();

    static {
        flag("authentication", 1);
        RULES.put("login_timeout", new Rule(15, 5, 30, null));
        RULES.put("netif_timeout", new Rule(2, 2, 15, null));
        flag("generate_node_acls", 0);
        RULES.put("default_cmdsn_depth", new Rule(64, 1, 512, null));
        flag("cache_dynamic_acls", 0);
        flag("demo_mode_write_protect", 1);
        flag("prod_mode_write_protect", 0);
        flag("demo_mode_discovery", 1);
        RULES.put("default_erl", new Rule(0, 0, 2, null));
        flag("t10_pi", 0);
        RULES.put("fabric_prot_type", new Rule(0, 0, 3, Set.of(0, 1, 3)));
        flag("tpg_enabled_sendtargets", 1);
        flag("login_keys_workaround", 1);
    }

    private static void flag(String name, int dflt) {
        RULES.put(name, new Rule(dflt, 0, 1, null));
    }

    /** Every attribute name, sorted. */
    public static Set<String> names() {
        return RULES.keySet();
    }

    /** Every attribute at LIO's default. */
    public static Map<String, Integer> defaults() {
        Map<String, Integer> m = new LinkedHashMap<>();
        RULES.forEach((k, r) -> m.put(k, r.dflt()));
        return m;
    }

    /**
     * Checks a value for an attribute.
     *
     * @throws TargetException {@code EINVAL} for an unknown attribute or a value outside its range
     */
    public static int check(String name, long value) {
        Rule r = RULES.get(name);
        if (r == null) {
            throw new TargetException("EINVAL", "no TPG attribute " + name + " (known: " + String.join(", ", names()) + ")");
        }
        if (value < r.min() || value > r.max() || r.only() != null && !r.only().contains((int) value)) {
            throw new TargetException("EINVAL", "TPG attribute " + name + "=" + value + " outside "
                    + (r.only() != null ? r.only().stream().sorted().toList().toString() : r.min() + ".." + r.max()));
        }
        return (int) value;
    }
}
