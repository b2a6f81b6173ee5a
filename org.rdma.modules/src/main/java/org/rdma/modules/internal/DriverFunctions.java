package org.rdma.modules.internal;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Function;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DriverLoader;

/**
 * {@code rdma:driver-load NAME}, {@code rdma:driver-unload NAME} and {@code rdma:driver-list}
 * (modprobe, rmmod, lsmod) in the embedded runtime, over its {@link DriverLoader}, printing what
 * Karaf's commands of the same names print (org.rdma.karaf). Their names carry a dash, which no
 * Java method can: Gogo hands the arguments of a command that is a {@link Function} to it.
 */
public final class DriverFunctions {
    private DriverFunctions() {
    }

    static String load(DriverLoader loader, List<Object> args) {
        String driver = DriverLoader.driverName(single(args, "rdma:driver-load NAME"));
        return DriverLoader.FEATURE_PREFIX + driver + (loader.load(driver) ? ": loaded" : ": already loaded");
    }

    static String unload(DriverLoader loader, List<Object> args) {
        String driver = DriverLoader.driverName(single(args, "rdma:driver-unload NAME"));
        loader.unload(driver);
        return DriverLoader.FEATURE_PREFIX + driver + ": unloaded";
    }

    static void list(DriverLoader loader, List<Object> args, PrintStream out) {
        RdmaException.check(args.isEmpty(), Errno.EINVAL, "usage: rdma:driver-list");
        List<String> loaded = loader.loaded();
        for (String d : loader.available()) {
            out.println(String.format(Locale.ROOT, "%-12s %s", d, loaded.contains(d) ? "loaded" : "available"));
        }
    }

    private static String single(List<Object> args, String usage) {
        RdmaException.check(args.size() == 1, Errno.EINVAL, "usage: " + usage);
        return String.valueOf(args.get(0));
    }

    /** {@code rdma:driver-load NAME}. */
    @Component(service = Function.class,
            property = {"osgi.command.scope=rdma", "osgi.command.function=driver-load"})
    public static final class Load implements Function {
        private final DriverLoader loader;

        /** The command over {@code loader}. */
        @Activate
        public Load(@Reference DriverLoader loader) {
            this.loader = loader;
        }

        @Override
        public Object execute(CommandSession session, List<Object> arguments) {
            System.out.println(load(loader, arguments));
            return null;
        }
    }

    /** {@code rdma:driver-unload NAME}. */
    @Component(service = Function.class,
            property = {"osgi.command.scope=rdma", "osgi.command.function=driver-unload"})
    public static final class Unload implements Function {
        private final DriverLoader loader;

        /** The command over {@code loader}. */
        @Activate
        public Unload(@Reference DriverLoader loader) {
            this.loader = loader;
        }

        @Override
        public Object execute(CommandSession session, List<Object> arguments) {
            System.out.println(unload(loader, arguments));
            return null;
        }
    }

    /** {@code rdma:driver-list}. */
    @Component(service = Function.class,
            property = {"osgi.command.scope=rdma", "osgi.command.function=driver-list"})
    public static final class ListDrivers implements Function {
        private final DriverLoader loader;

        /** The command over {@code loader}. */
        @Activate
        public ListDrivers(@Reference DriverLoader loader) {
            this.loader = loader;
        }

        @Override
        public Object execute(CommandSession session, List<Object> arguments) {
            list(loader, arguments, System.out);
            return null;
        }
    }
}
