package org.rdma.target.internal.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.config.SpecProperties;

/**
 * A command's parameters as configshell binds them: positional ones in the order of the
 * command's signature, then {@code name=value} ones by name; a required one missing, an unknown
 * name or one given twice is {@code EINVAL}.
 */
final class Params {
    private final String command;
    private final Map<String, String> values = new LinkedHashMap<>();

    private Params(String command) {
        this.command = command;
    }

    /** Whether a token is a keyword parameter (configshell: {@code [A-Za-z0-9_-]+=value}). */
    static boolean isKeyword(String token) {
        int eq = token.indexOf('=');
        return eq > 0 && token.substring(0, eq).matches("[A-Za-z0-9_-]+");
    }

    /**
     * Binds {@code tokens} to a signature: {@code required} names, then {@code optional} ones.
     */
    static Params bind(String command, List<String> tokens, List<String> required, List<String> optional) {
        Params p = new Params(command);
        List<String> names = new ArrayList<>(required);
        names.addAll(optional);
        int next = 0;
        for (String t : tokens) {
            String name;
            String value;
            if (isKeyword(t)) {
                name = t.substring(0, t.indexOf('='));
                value = t.substring(t.indexOf('=') + 1);
                if (!names.contains(name)) {
                    throw new TargetException("EINVAL", "unexpected keyword parameter '" + name + "' of " + command
                            + " (" + String.join(", ", names) + ")");
                }
            } else {
                while (next < names.size() && p.values.containsKey(names.get(next))) {
                    next++;
                }
                if (next >= names.size()) {
                    throw new TargetException("EINVAL", "too many parameters for " + command + ": '" + t + "'");
                }
                name = names.get(next++);
                value = t;
            }
            if (p.values.putIfAbsent(name, value) != null) {
                throw new TargetException("EINVAL", "parameter '" + name + "' of " + command + " given twice");
            }
        }
        for (String r : required) {
            if (!p.values.containsKey(r)) {
                throw new TargetException("EINVAL", "missing required parameter '" + r + "' of " + command);
            }
        }
        return p;
    }

    String get(String name) {
        return values.get(name);
    }

    String get(String name, String dflt) {
        return values.getOrDefault(name, dflt);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    boolean bool(String name, boolean dflt) {
        String v = values.get(name);
        return v == null ? dflt : SpecProperties.parseBool(name, v);
    }

    long number(String name, long dflt) {
        String v = values.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new TargetException("EINVAL", command + ": " + name + " '" + v + "' is not a number");
        }
    }

    /** {@code N} or {@code lunN} (targetcli accepts both for LUN numbers). */
    long lun(String name, long dflt) {
        String v = values.get(name);
        if (v == null) {
            return dflt;
        }
        String digits = v.regionMatches(true, 0, "lun", 0, 3) ? v.substring(3) : v;
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new TargetException("EINVAL", command + ": " + name + " '" + v + "' is not a LUN number");
        }
    }
}
