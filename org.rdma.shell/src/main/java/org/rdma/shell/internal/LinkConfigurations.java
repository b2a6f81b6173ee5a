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
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.DriverLoader;
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
 * {@code link.layer ib,eth}). The keys are the driver's ({@link LinkAttributes}: {@code udp_port}
 * is taken as {@code udp.port}, an unknown key is {@code EINVAL}). As the kernel's
 * {@code nldev_newlink()} calls {@code request_module("rdma-link-%s")} for a link type no loaded
 * driver offers, a driver that is not loaded is loaded through the runtime's
 * {@link DriverLoader} (if it has one); a type no driver offers is {@code EOPNOTSUPP}. Like
 * {@code rdma link add}, the command returns once the device is registered and prints nothing;
 * {@code rdma:link-del} returns once it is gone. A device that does not come is
 * {@code ETIMEDOUT} with the core's reason when it refused it; a name taken is {@code EEXIST};
 * deleting a device that no configuration made is {@code ENODEV}.
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
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile DriverLoader loader;

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
        Bundle driver = linkDriver(type);
        RdmaException.check(!registered(name) && configurationOf(name) == null, Errno.EEXIST,
                "device " + name + " already exists");
        LinkAttributes attributes = LinkAttributes.of(type, driver, PID_PREFIX + type);
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(NAME_TEMPLATE, name);
        for (int i = 3; i < args.length; i += 2) {
            String v = args[i + 1];
            props.put(attributes.key(args[i], v, NAME_TEMPLATE), v.indexOf(',') >= 0 ? v.split(",") : v);
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

    /**
     * The active bundle of the driver of link type {@code type}, loaded now if need be
     * ({@code request_module("rdma-link-%s")}); a driver loaded for nothing (its name is not a
     * link type) is unloaded again.
     *
     * @throws RdmaException {@code EOPNOTSUPP} if no driver offers the type
     */
    private Bundle linkDriver(String type) {
        Bundle b = activeBundle(PID_PREFIX + type);
        DriverLoader l = loader;
        if (b != null || l == null) {
            RdmaException.check(b != null, Errno.EOPNOTSUPP,
                    "link type " + type + " is not available: load its driver (rdma:driver-load " + type + ")");
            return b;
        }
        boolean loadedNow;
        try {
            loadedNow = l.load(type);
        } catch (RdmaException e) {
            if (e.errno() != Errno.ENOENT && e.errno() != Errno.EINVAL) {
                throw e;
            }
            throw new RdmaException(Errno.EOPNOTSUPP, "link type " + type + " is not available: no driver "
                    + type + " (rdma:driver-list lists them)", e);
        }
        b = activeBundle(PID_PREFIX + type);
        if (b == null) {
            if (loadedNow) {
                l.unload(type);
            }
            throw new RdmaException(Errno.EOPNOTSUPP, "link type " + type + " is not available: driver " + type
                    + " makes no links");
        }
        return b;
    }

    private Bundle activeBundle(String symbolicName) {
        for (Bundle b : bc.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName()) && b.getState() == Bundle.ACTIVE) {
                return b;
            }
        }
        return null;
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
