package org.rdma.cm.internal.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * {@code getopt()} for the tools: single-letter options, with ({@code "a:"}) or without an
 * argument, clustered ({@code -vVd}) or apart ({@code -a 10.0.0.1}, {@code -a10.0.0.1}), plus
 * {@code --name [value]} long options. Unknown options and missing arguments are {@code EINVAL}
 * with the usage line.
 */
final class ToolArgs {
    private final Map<String, String> values = new HashMap<>();
    private final Map<String, Integer> counts = new HashMap<>();

    private ToolArgs() {
    }

    /**
     * @param spec  getopt's option string, e.g. {@code "a:I:p:C:S:scvVd"}
     * @param longs long options taking an argument, e.g. {@code "peer"}; {@code "loopback"} style
     *              flags are given with a trailing {@code '!'}
     */
    static ToolArgs parse(String[] args, String spec, List<String> longs, String usage) {
        ToolArgs t = new ToolArgs();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--") && a.length() > 2) {
                String name = a.substring(2);
                if (longs.contains(name + "!")) {
                    t.count(name);
                } else if (longs.contains(name)) {
                    if (i + 1 >= args.length) {
                        throw new RdmaException(Errno.EINVAL, "option --" + name + " needs an argument; usage: " + usage);
                    }
                    t.values.put(name, args[++i]);
                    t.count(name);
                } else {
                    throw new RdmaException(Errno.EINVAL, "unknown option --" + name + "; usage: " + usage);
                }
                continue;
            }
            if (!a.startsWith("-") || a.length() < 2) {
                rest.add(a);
                continue;
            }
            for (int j = 1; j < a.length(); j++) {
                char c = a.charAt(j);
                int at = spec.indexOf(c);
                if (at < 0 || c == ':') {
                    throw new RdmaException(Errno.EINVAL, "unknown option -" + c + "; usage: " + usage);
                }
                boolean takesArg = at + 1 < spec.length() && spec.charAt(at + 1) == ':';
                if (!takesArg) {
                    t.count(String.valueOf(c));
                    continue;
                }
                String v;
                if (j + 1 < a.length()) {
                    v = a.substring(j + 1);
                } else if (i + 1 < args.length) {
                    v = args[++i];
                } else {
                    throw new RdmaException(Errno.EINVAL, "option -" + c + " needs an argument; usage: " + usage);
                }
                t.values.put(String.valueOf(c), v);
                t.count(String.valueOf(c));
                break;
            }
        }
        if (!rest.isEmpty()) {
            throw new RdmaException(Errno.EINVAL, "unexpected argument '" + rest.get(0) + "'; usage: " + usage);
        }
        return t;
    }

    private void count(String k) {
        counts.merge(k, 1, Integer::sum);
    }

    boolean has(String k) {
        return counts.containsKey(k);
    }

    String get(String k) {
        return values.get(k);
    }

    /** An integer option in {@code [min, max]}, or {@code def} when absent. */
    int number(String k, int def, int min, int max, String usage) {
        String v = values.get(k);
        if (v == null) {
            return def;
        }
        int n;
        try {
            n = Integer.decode(v.trim());
        } catch (NumberFormatException e) {
            throw new RdmaException(Errno.EINVAL, "bad number '" + v + "' for -" + k + "; usage: " + usage);
        }
        if (n < min || n > max) {
            throw new RdmaException(Errno.EINVAL, "-" + k + " " + n + " is outside " + min + ".." + max + "; usage: "
                    + usage);
        }
        return n;
    }
}
