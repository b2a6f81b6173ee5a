package org.rdma.shell.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.IbRuntime;

/**
 * What {@code rdma:link-add NAME type TYPE [netdev NETDEV] [KEY VALUE]...} and
 * {@code rdma:link-del NAME} do ({@link LinkFunctions}): iproute2's {@code rdma link add} and {@code rdma link delete}
 * ({@code rdma/link.c}; the kernel's {@code nldev_newlink()}/{@code nldev_dellink()} with the
 * driver's {@code rdma_link_ops}), as Config Admin factory configurations.
 *
 * <p>A link of TYPE {@code rxe} or {@code mlx4sim} is a factory configuration of PID
 * {@code org.rdma.hca.TYPE} whose {@code name.template} is NAME; {@code netdev} and every other
 * {@code KEY VALUE} pair become its properties (a value with commas becomes a list, e.g.
 * {@code link.layer ib,eth}). As in the kernel, the driver must be loaded (its bundle active):
 * otherwise {@code EOPNOTSUPP}. Like {@code rdma link add}, the command returns once the device
 * is registered and prints nothing; {@code rdma:link-del} returns once it is gone. A device that
 * does not come is {@code ETIMEDOUT} with the core's reason when it refused it; a name taken is
 * {@code EEXIST}; deleting a device that no configuration made is {@code ENODEV}.
 */
@Component(service = LinkConfigurations.class)
public class LinkConfigurations {
    static final String ADD_USAGE = "rdma:link-add NAME type TYPE [netdev NETDEV] [KEY VALUE]...";
    static final String DEL_USAGE = "rdma:link-del NAME";
    static final String PID_PREFIX = "org.rdma.hca.";
    static final String NAME_TEMPLATE = "name.template";
    static final long TIMEOUT_SECONDS = 30;

    private final BundleContext bc;
    private final ConfigurationAdmin cm;
    private final IbRuntime runtime;

    /** Links as configurations in {@code cm}, watched in {@code runtime}. */
    @Activate
    public LinkConfigurations(BundleContext bc, @Reference ConfigurationAdmin cm, @Reference IbRuntime runtime) {
        this.bc = bc;
        this.cm = cm;
        this.runtime = runtime;
    }

    /** {@code rdma link add NAME type TYPE ...}: returns once the device is registered. */
    public void add(String... args) throws IOException {
        if (args.length < 3 || args.length % 2 == 0 || !"type".equals(args[1])) {
            throw new RdmaException(Errno.EINVAL, "usage: " + ADD_USAGE);
        }
        String name = args[0];
        String type = args[2].toLowerCase(Locale.ROOT);
        RdmaException.check(!name.isEmpty() && name.length() < 64 && name.indexOf('%') < 0
                && name.chars().noneMatch(Character::isWhitespace), Errno.EINVAL, "bad device name '" + name + "'");
        RdmaException.check(type.matches("[a-z0-9]+"), Errno.EINVAL, "bad link type '" + args[2] + "'");
        RdmaException.check(driverLoaded(type), Errno.EOPNOTSUPP,
                "link type " + type + " is not available: load its driver (rdma:driver-load " + type + ")");
        RdmaException.check(!registered(name) && configurationOf(name) == null, Errno.EEXIST,
                "device " + name + " already exists");
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(NAME_TEMPLATE, name);
        for (int i = 3; i < args.length; i += 2) {
            String key = args[i];
            RdmaException.check(!NAME_TEMPLATE.equals(key) && key.matches("[a-z][a-z0-9._-]*"), Errno.EINVAL,
                    "bad attribute '" + key + "'");
            String v = args[i + 1];
            props.put(key, v.indexOf(',') >= 0 ? v.split(",") : v);
        }
        Configuration c = cm.createFactoryConfiguration(PID_PREFIX + type, "?");
        c.update(props);
        awaitOrFail(() -> registered(name), () -> {
            deleteQuietly(c);
            return "device " + name + " was not registered within " + TIMEOUT_SECONDS + " s" + refusal(name);
        });
    }

    /** {@code rdma link delete NAME}: returns once the device is gone. */
    public void del(String... args) throws IOException {
        if (args.length != 1) {
            throw new RdmaException(Errno.EINVAL, "usage: " + DEL_USAGE);
        }
        String name = args[0];
        Configuration c = configurationOf(name);
        if (c == null) {
            throw new RdmaException(Errno.ENODEV, registered(name)
                    ? "device " + name + " was not added with rdma:link-add (no configuration names it)"
                    : "no device " + name);
        }
        c.delete();
        awaitOrFail(() -> !registered(name), () -> "device " + name + " still registered " + TIMEOUT_SECONDS
                + " s after its configuration was deleted");
    }

    private boolean driverLoaded(String type) {
        for (Bundle b : bc.getBundles()) {
            if ((PID_PREFIX + type).equals(b.getSymbolicName()) && b.getState() == Bundle.ACTIVE) {
                return true;
            }
        }
        return false;
    }

    private boolean registered(String name) {
        var devices = runtime.getRuntimeDTO().devices;
        if (devices != null) {
            for (var d : devices) {
                if (name.equals(d.name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The driver configuration ({@code org.rdma.hca.*}) whose name template is {@code name}. */
    private Configuration configurationOf(String name) throws IOException {
        Configuration[] all;
        try {
            all = cm.listConfigurations("(&(service.factoryPid=" + PID_PREFIX + "*)(" + NAME_TEMPLATE + "="
                    + escape(name) + "))");
        } catch (InvalidSyntaxException e) {
            throw new RdmaException(Errno.EINVAL, "bad device name '" + name + "'", e);
        }
        return all == null || all.length == 0 ? null : all[0];
    }

    /** Why the core refused a device named {@code name}, if it did. */
    private String refusal(String name) {
        List<String> why = new ArrayList<>();
        FailedDTO[] failed = runtime.getRuntimeDTO().failedProviders;
        if (failed != null) {
            for (FailedDTO f : failed) {
                if (name.equals(f.name)) {
                    why.add(f.message);
                }
            }
        }
        return why.isEmpty() ? "" : ": " + String.join("; ", why);
    }

    private static void awaitOrFail(BooleanSupplier done, Supplier<String> failure) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new RdmaException(Errno.ETIMEDOUT, failure.get());
            }
            try {
                Thread.sleep(20); // polls the runtime; the outcome is checked, not the delay
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RdmaException(Errno.EINTR, "interrupted while waiting for " + failure.get());
            }
        }
    }

    private static void deleteQuietly(Configuration c) {
        try {
            c.delete();
        } catch (IOException | IllegalStateException e) {
            // already gone
        }
    }

    private static String escape(String v) {
        return v.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").replace("*", "\\*");
    }

}
