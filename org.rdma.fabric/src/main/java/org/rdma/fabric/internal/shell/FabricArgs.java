package org.rdma.fabric.internal.shell;

import java.util.ArrayList;
import java.util.List;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * The arguments of the fabric commands: an optional {@code -f FABRIC} ({@code --fabric FABRIC},
 * {@code --fabric=FABRIC}, {@code -fFABRIC}) and operands, with getopt's messages for bad
 * options; {@code --} ends the options.
 */
record FabricArgs(String usage, String fabric, List<String> operands) {
    static FabricArgs parse(String usage, String... args) {
        String fabric = null;
        List<String> operands = new ArrayList<>();
        String[] a = args == null ? new String[0] : args;
        for (int i = 0; i < a.length; i++) {
            String arg = a[i];
            if ("--".equals(arg)) {
                operands.addAll(List.of(a).subList(i + 1, a.length));
                break;
            } else if (arg.equals("-f") || arg.equals("--fabric")) {
                if (i + 1 >= a.length) {
                    throw error(usage, arg.equals("-f") ? "option requires an argument -- 'f'"
                            : "option '--fabric' requires an argument");
                }
                fabric = a[++i];
            } else if (arg.startsWith("--fabric=")) {
                fabric = arg.substring("--fabric=".length());
            } else if (arg.startsWith("-f")) {
                fabric = arg.substring(2);
            } else if (arg.startsWith("--")) {
                throw error(usage, "unrecognized option '" + arg + "'");
            } else if (arg.length() > 1 && arg.charAt(0) == '-') {
                throw error(usage, "invalid option -- '" + arg.charAt(1) + "'");
            } else {
                operands.add(arg);
            }
        }
        return new FabricArgs(usage, fabric, List.copyOf(operands));
    }

    /** {@code EINVAL} with {@code what} and the usage line. */
    RdmaException error(String what) {
        return error(usage, what);
    }

    private static RdmaException error(String usage, String what) {
        return new RdmaException(Errno.EINVAL, what + "; usage: " + usage);
    }
}
