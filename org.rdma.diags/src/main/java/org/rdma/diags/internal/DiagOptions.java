package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The command line of an infiniband-diags tool: {@code ibdiag_process_opts()}
 * (infiniband-diags/ibdiag_common.c), a {@code getopt_long()} over the tool's own options and the
 * common ones ({@code -C ca}, {@code -P port}, {@code -D}, {@code -L}, {@code -G}, {@code -t ms},
 * {@code -s smlid}, {@code -K}, {@code -y mkey}, {@code -e}, {@code -v}, {@code -d}, {@code -h}),
 * minus those the tool excludes. A tool's option wins over a common one with the same letter.
 * Options and operands may be mixed, as GNU getopt permutes them; {@code --} ends the options.
 * Every error is EINVAL with the reason and the usage line.
 */
final class DiagOptions {
    /** How a destination argument is read ({@code enum MAD_DEST}). */
    enum DestType {
        /** {@code IB_DEST_LID}. */
        LID,
        /** {@code IB_DEST_DRPATH}. */
        DRPATH,
        /** {@code IB_DEST_GUID}. */
        GUID
    }

    /**
     * One option ({@code struct ibdiag_opt}).
     *
     * @param name        the long name
     * @param letter      the short letter, or 0 for a long-only option
     * @param hasArg      whether it takes a value
     * @param argTemplate the value's placeholder in the usage text
     * @param description the usage text
     */
    record Opt(String name, char letter, boolean hasArg, String argTemplate, String description) {
    }

    /** One option as given: which, and its value ({@code null} for a flag). */
    record Given(Opt opt, String value) {
    }

    /** {@code common_opts[]}. */
    static final List<Opt> COMMON = List.of(
            new Opt("Ca", 'C', true, "<ca>", "Ca name to use"),
            new Opt("Port", 'P', true, "<port>", "Ca port number to use"),
            new Opt("Direct", 'D', false, null, "use Direct address argument"),
            new Opt("Lid", 'L', false, null, "use LID address argument"),
            new Opt("Guid", 'G', false, null, "use GUID address argument"),
            new Opt("timeout", 't', true, "<ms>", "timeout in ms"),
            new Opt("sm_port", 's', true, "<lid>", "SM port lid"),
            new Opt("show_keys", 'K', false, null, "display security keys in output"),
            new Opt("m_key", 'y', true, "<key>", "M_Key to use in request"),
            new Opt("errors", 'e', false, null, "show send and receive errors"),
            new Opt("verbose", 'v', false, null, "increase verbosity level"),
            new Opt("debug", 'd', false, null, "raise debug level"),
            new Opt("help", 'h', false, null, "help message"));

    private final String prog;
    private final String usageArgs;
    private final List<Opt> opts = new ArrayList<>();
    private final List<Given> given = new ArrayList<>();
    private final List<String> operands = new ArrayList<>();

    /**
     * @param prog      the tool's name
     * @param usageArgs its operands in the usage line
     * @param exclude   letters of common options the tool does not take
     * @param custom    the tool's own options, before the common ones
     */
    DiagOptions(String prog, String usageArgs, String exclude, List<Opt> custom) {
        this.prog = prog;
        this.usageArgs = usageArgs;
        opts.addAll(custom);
        for (Opt o : COMMON) {
            if (exclude.indexOf(o.letter) < 0) {
                opts.add(o);
            }
        }
    }

    /** Parses {@code args}; returns this. */
    DiagOptions parse(String... args) {
        given.clear();
        operands.clear();
        String[] a = args == null ? new String[0] : args;
        for (int i = 0; i < a.length; i++) {
            String arg = a[i];
            if ("--".equals(arg)) {
                operands.addAll(List.of(a).subList(i + 1, a.length));
                break;
            }
            if (arg.startsWith("--")) {
                String name = arg.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                Opt o = byName(name);
                if (o.hasArg && value == null) {
                    if (i + 1 >= a.length) {
                        throw error("option '--" + name + "' requires an argument");
                    }
                    value = a[++i];
                } else if (!o.hasArg && value != null) {
                    throw error("option '--" + name + "' doesn't allow an argument");
                }
                given.add(new Given(o, value));
            } else if (arg.length() > 1 && arg.charAt(0) == '-') {
                for (int k = 1; k < arg.length(); k++) {
                    Opt o = byLetter(arg.charAt(k));
                    if (!o.hasArg) {
                        given.add(new Given(o, null));
                        continue;
                    }
                    String value;
                    if (k + 1 < arg.length()) {
                        value = arg.substring(k + 1);
                    } else if (i + 1 < a.length) {
                        value = a[++i];
                    } else {
                        throw error("option requires an argument -- '" + o.letter + "'");
                    }
                    given.add(new Given(o, value));
                    break;
                }
            } else {
                operands.add(arg);
            }
        }
        return this;
    }

    private Opt byName(String name) {
        for (Opt o : opts) {
            if (o.name.equals(name)) {
                return o;
            }
        }
        throw error("unrecognized option '--" + name + "'");
    }

    private Opt byLetter(char c) {
        for (Opt o : opts) {
            if (o.letter == c && c != 0) {
                return o;
            }
        }
        throw error("invalid option -- '" + c + "'");
    }

    /** The options as given, in order. */
    List<Given> given() {
        return List.copyOf(given);
    }

    /** The operands, in order. */
    List<String> operands() {
        return List.copyOf(operands);
    }

    /** Whether the option with this long name was given. */
    boolean has(String name) {
        return given.stream().anyMatch(g -> g.opt.name.equals(name));
    }

    /** The last value of the option with this long name, or {@code def}. */
    String get(String name, String def) {
        String v = def;
        for (Given g : given) {
            if (g.opt.name.equals(name)) {
                v = g.value;
            }
        }
        return v;
    }

    /** {@code -C}: the CA, or {@code null} for libibumad's default. */
    String ca() {
        return get("Ca", null);
    }

    /** {@code -P}: the port, 0 for the default. */
    int port() {
        return (int) number("Port", get("Port", "0"), 0, 254);
    }

    /** {@code -t}: the timeout, {@code def} when not given; a positive integer as the C tools demand. */
    int timeout(int def) {
        String v = get("timeout", null);
        return v == null ? def : (int) number("timeout", v, 1, Integer.MAX_VALUE);
    }

    /** The destination type: the last of {@code -D}, {@code -L}, {@code -G} given, else LID. */
    DestType destType() {
        DestType t = DestType.LID;
        for (Given g : given) {
            switch (g.opt.name) {
                case "Direct" -> t = DestType.DRPATH;
                case "Lid" -> t = DestType.LID;
                case "Guid" -> t = DestType.GUID;
                default -> {
                }
            }
        }
        return t;
    }

    /** {@code -K}. */
    boolean showKeys() {
        return has("show_keys");
    }

    /** {@code -h}. */
    boolean help() {
        return has("help");
    }

    /**
     * {@code value} of option {@code name} read as {@code strtoull(.., 0)} (decimal, {@code 0x}
     * hexadecimal, {@code 0} octal) within {@code [min, max]}; EINVAL otherwise.
     */
    long number(String name, String value, long min, long max) {
        long n = parseNumber(value);
        if (n == Long.MIN_VALUE) {
            throw error("invalid value '" + value + "' for " + name);
        }
        if (n < min || n > max) {
            throw error(name + " must be within [" + min + ", " + max + "], got " + value);
        }
        return n;
    }

    /** {@code strtoull(s, NULL, 0)} of a whole string, or {@link Long#MIN_VALUE} when it is not a number. */
    static long parseNumber(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("0x")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            if (t.length() > 1 && t.startsWith("0")) {
                return Long.parseUnsignedLong(t.substring(1), 8);
            }
            return Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    /** EINVAL with {@code what} and the usage line. */
    RdmaException error(String what) {
        return new RdmaException(Errno.EINVAL, what + "; usage: " + usageLine());
    }

    /** {@code Usage: prog [options] args}. */
    String usageLine() {
        return prog + " [options] " + usageArgs.lines().findFirst().orElse("");
    }

    /** {@code ibdiag_show_usage()}'s text: the usage line, the tool's operands, the options. */
    List<String> usage() {
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("Usage: " + prog + " [options] " + usageArgs);
        out.add("");
        out.add("Options:");
        for (Opt o : opts) {
            StringBuilder b = new StringBuilder("  --").append(o.name);
            if (o.letter != 0) {
                b.append(", -").append(o.letter);
            }
            if (o.hasArg) {
                b.append(' ').append(o.argTemplate == null ? "<val>" : o.argTemplate);
            }
            if (o.description != null && !o.description.isEmpty()) {
                b.append(" ".repeat(Math.max(0, 24 - b.length()))).append("  ").append(o.description);
            }
            out.add(b.toString());
        }
        out.add("");
        return out;
    }
}
