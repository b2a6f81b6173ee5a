package org.rdma.shell.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * A small {@code getopt_long()} for the commands named after C tools ({@code ibv_devinfo},
 * {@code ibv_rc_pingpong}, {@code ib_write_bw}): short options ({@code -d mlx4_0},
 * {@code -dmlx4_0}), long options ({@code --ib-dev=mlx4_0}, {@code --ib-dev mlx4_0}), flags, and
 * {@code --} ending the options. Occurrences are kept in command-line order, because
 * {@code ibv_rc_pingpong} reads a {@code -i} after {@code --peer-device} as the peer's port.
 * Every error is {@code EINVAL} with the message and the usage line.
 */
public final class Options {
    /** One declared option. */
    private record Spec(char shortName, String longName, boolean hasArg) {
    }

    /** One option as it appeared: its long name and value ({@code null} for a flag). */
    public record Occurrence(String name, String value) {
    }

    private final String usage;
    private final Map<String, Spec> byLong = new LinkedHashMap<>();
    private final Map<Character, Spec> byShort = new LinkedHashMap<>();
    private final List<Occurrence> occurrences = new ArrayList<>();
    private final List<String> operands = new ArrayList<>();

    /** An empty option table for a command with this usage line. */
    public Options(String usage) {
        this.usage = usage;
    }

    /** Declares an option; {@code shortName} 0 for a long-only option. */
    public Options option(char shortName, String longName, boolean hasArg) {
        Spec s = new Spec(shortName, longName, hasArg);
        byLong.put(longName, s);
        if (shortName != 0) {
            byShort.put(shortName, s);
        }
        return this;
    }

    /** Parses {@code args}; returns this. */
    public Options parse(String... args) {
        occurrences.clear();
        operands.clear();
        String[] a = args == null ? new String[0] : args;
        for (int i = 0; i < a.length; i++) {
            String arg = a[i];
            if ("--".equals(arg)) {
                operands.addAll(List.of(a).subList(i + 1, a.length));
                return this;
            }
            if (arg.startsWith("--")) {
                String name = arg.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                Spec s = byLong.get(name);
                if (s == null) {
                    throw error("unrecognized option '--" + name + "'");
                }
                if (s.hasArg && value == null) {
                    if (i + 1 >= a.length) {
                        throw error("option '--" + name + "' requires an argument");
                    }
                    value = a[++i];
                } else if (!s.hasArg && value != null) {
                    throw error("option '--" + name + "' doesn't allow an argument");
                }
                occurrences.add(new Occurrence(s.longName, value));
            } else if (arg.length() > 1 && arg.charAt(0) == '-') {
                for (int k = 1; k < arg.length(); k++) {
                    char c = arg.charAt(k);
                    Spec s = byShort.get(c);
                    if (s == null) {
                        throw error("invalid option -- '" + c + "'");
                    }
                    if (!s.hasArg) {
                        occurrences.add(new Occurrence(s.longName, null));
                        continue;
                    }
                    String value;
                    if (k + 1 < arg.length()) {
                        value = arg.substring(k + 1);
                    } else if (i + 1 < a.length) {
                        value = a[++i];
                    } else {
                        throw error("option requires an argument -- '" + c + "'");
                    }
                    occurrences.add(new Occurrence(s.longName, value));
                    break;
                }
            } else {
                operands.add(arg);
            }
        }
        return this;
    }

    /** The options in command-line order. */
    public List<Occurrence> occurrences() {
        return List.copyOf(occurrences);
    }

    /** The arguments that are not options, in order. */
    public List<String> operands() {
        return List.copyOf(operands);
    }

    /** Whether the option (by long name) was given. */
    public boolean has(String name) {
        return occurrences.stream().anyMatch(o -> o.name.equals(name));
    }

    /** The value of the last occurrence of the option, or {@code def}. */
    public String get(String name, String def) {
        String v = def;
        for (Occurrence o : occurrences) {
            if (o.name.equals(name)) {
                v = o.value;
            }
        }
        return v;
    }

    /**
     * The last value of an integer option, or {@code def}; {@code EINVAL} unless it parses (as
     * {@code strtol(.., 0)}: decimal, {@code 0x} hex) and lies in {@code [min, max]}.
     */
    public long number(String name, long def, long min, long max) {
        String v = get(name, null);
        return v == null ? def : number(name, v, min, max);
    }

    /** {@code value} of option {@code name} as a number in {@code [min, max]}; {@code EINVAL} otherwise. */
    public long number(String name, String value, long min, long max) {
        long n;
        try {
            String t = value.trim();
            n = t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw error("invalid value '" + value + "' for --" + name);
        }
        if (n < min || n > max) {
            throw error("--" + name + " must be within [" + min + ", " + max + "], got " + n);
        }
        return n;
    }

    /** {@code EINVAL} with {@code what} and the usage line. */
    public RdmaException error(String what) {
        return new RdmaException(Errno.EINVAL, what + "; usage: " + usage);
    }
}
