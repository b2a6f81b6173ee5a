package org.rdma.target.internal.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetCore;
import org.rdma.target.internal.core.TargetCoreImpl;

/**
 * The target core as a service ({@link TargetCore} for fabrics, {@link ConfigTree} for the
 * configuration components and targetcli), with a thread pool for its commands. At start, when
 * Config Admin holds no target configuration but the saveconfig file exists, the file is
 * restored into Config Admin (as {@code target.service} runs {@code targetctl restore} at boot);
 * Config Admin persists what targetcli writes, so Karaf restarts without it. Immediate: the
 * restore and the TPG services must not wait until something asks for the core.
 */
@Component(configurationPid = Pids.CORE, service = {TargetCore.class, ConfigTree.class}, immediate = true)
@Designate(ocd = TargetCoreComponent.Config.class)
public final class TargetCoreComponent extends TargetTree {
    private static final Logger LOG = Logger.getLogger(TargetCoreComponent.class.getName());

    @ObjectClassDefinition(name = "SCSI target core",
            description = "The SCSI target core (LIO's target_core_mod) and where targetcli saveconfig writes.")
    public @interface Config {
        @AttributeDefinition(name = "saveconfig file", required = false, description = "The file targetcli "
                + "saveconfig writes and the start restores from when Config Admin holds no target configuration; "
                + "empty: ${karaf.etc}/target/saveconfig.json in Karaf, "
                + "${felix.fileinstall.dir}/target/saveconfig.json in the embedded runtime")
        String savefile() default "";
    }

    private final ExecutorService executor;
    private final BundleContext context;

    @Activate
    public TargetCoreComponent(BundleContext context, Config config, @Reference ConfigurationAdmin cm) {
        this(context, config, cm, Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                threads()));
    }

    private TargetCoreComponent(BundleContext context, Config config, ConfigurationAdmin cm, ExecutorService executor) {
        super(new TargetCoreImpl(executor), new Services(context), LiveTree.FILES, savefile(context, config));
        this.executor = executor;
        this.context = context;
        restoreIfEmpty(new ConfigStore(cm), savefile(), Map.of());
    }

    private static ThreadFactory threads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "target-core-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Where saveconfig writes: the configured file, else beside the runtime's configuration. */
    static Path savefile(BundleContext context, Config config) {
        if (!config.savefile().isBlank()) {
            return Path.of(config.savefile());
        }
        String etc = context.getProperty("karaf.etc");
        if (etc != null && !etc.isBlank()) {
            return Path.of(etc, "target", "saveconfig.json");
        }
        String watched = context.getProperty("felix.fileinstall.dir");
        if (watched != null && !watched.isBlank()) {
            return Path.of(watched.split(",")[0].trim(), "target", "saveconfig.json");
        }
        java.io.File data = context.getDataFile("target");
        return data != null ? data.toPath().resolve("saveconfig.json") : Path.of("saveconfig.json").toAbsolutePath();
    }

    /** Restores the saveconfig file into Config Admin when it holds no target configuration. */
    static void restoreIfEmpty(ConfigStore store, Path file, Map<String, FabricModule> modules) {
        if (!store.isEmpty() || !Files.isRegularFile(file)) {
            return;
        }
        try {
            Saveconfig.Loaded l = Saveconfig.read(file, modules);
            l.specs().forEach(store::create);
            l.errors().forEach(e -> LOG.warning("restoring " + file + ": " + e));
            LOG.info("Configuration restored from " + file + " (" + l.specs().size() + " objects)");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot restore " + file, e);
        }
    }

    @Modified
    void modified(Config config) {
        setSavefile(savefile(context, config));
    }

    @Override
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            unbind = "removeFabricModule")
    public void addFabricModule(FabricModule m) {
        super.addFabricModule(m);
    }

    @Override
    public void removeFabricModule(FabricModule m) {
        super.removeFabricModule(m);
    }

    @Deactivate
    void deactivate() {
        close();
        executor.shutdown();
    }

    /** TPGs as {@link FabricTpg} services of this bundle. */
    private static final class Services implements LiveTree.Publisher {
        private final BundleContext context;

        Services(BundleContext context) {
            this.context = context;
        }

        private static Dictionary<String, Object> dictionary(Map<String, Object> p) {
            Hashtable<String, Object> d = new Hashtable<>();
            p.forEach((k, v) -> d.put(k, v instanceof List<?> l ? l.toArray(new String[0]) : v));
            return d;
        }

        @Override
        public Registration publish(FabricTpg tpg, Map<String, Object> properties) {
            ServiceRegistration<FabricTpg> r = context.registerService(FabricTpg.class, tpg, dictionary(properties));
            return new Registration() {
                @Override
                public void update(Map<String, Object> p) {
                    r.setProperties(dictionary(p));
                }

                @Override
                public void unregister() {
                    try {
                        r.unregister();
                    } catch (IllegalStateException alreadyGone) {
                        // The bundle is stopping and the framework took it down first.
                    }
                }
            };
        }
    }
}
