package org.rdma.target.internal.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetCore;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.core.TargetCoreImpl;

/**
 * The target core with its configured tree: the {@link TargetCore} fabrics use and the
 * {@link ConfigTree} the configuration components feed. Every change is applied to the live
 * objects at once.
 *
 * <p>Locking: this object's monitor guards the configured specs, the fabric modules and what
 * was last applied (the model and its errors), and wakes the waiters of {@link #await}; it is
 * never held while the live tree changes. {@link #applying} serializes the appliers: each takes
 * a snapshot of the specs and applies it, so the last one applies the latest state. A fabric
 * engine's bind methods, called when a TPG is published, run under {@code applying} only.
 */
public class TargetTree implements TargetCore, ConfigTree {
    private final TargetCoreImpl core;
    private final LiveTree live;
    private final ReentrantLock applying = new ReentrantLock();
    private volatile Path savefile;
    private final Map<String, Spec> specs = new HashMap<>();
    private final Map<String, String> rejected = new HashMap<>();
    private final Map<String, FabricModule> modules = new TreeMap<>();
    private ConfigModel model = ConfigModel.EMPTY;
    private Map<String, String> liveErrors = Map.of();

    TargetTree(TargetCoreImpl core, LiveTree.Publisher publisher, LiveTree.Opener opener, Path savefile) {
        this.core = core;
        this.live = new LiveTree(core, publisher, opener);
        this.savefile = savefile;
    }

    @Override
    public Optional<FabricTpg> tpg(String fabric, String targetName, int tag) {
        return core.tpg(fabric, targetName, tag);
    }

    @Override
    public List<FabricTpg> tpgs(String fabric) {
        return core.tpgs(fabric);
    }

    /** Applies the configured state now to the live tree, then wakes the waiters. */
    private void apply() {
        applying.lock();
        try {
            ConfigModel m;
            Map<String, FabricModule> mods;
            synchronized (this) {
                m = new ConfigModel(specs);
                mods = Map.copyOf(modules);
            }
            live.apply(m, mods);
            Map<String, String> errors = Map.copyOf(live.errors());
            synchronized (this) {
                model = m;
                liveErrors = errors;
                notifyAll();
            }
        } finally {
            applying.unlock();
        }
    }

    @Override
    public void put(String pid, Spec spec) {
        synchronized (this) {
            rejected.remove(pid);
            specs.put(pid, spec);
        }
        apply();
    }

    @Override
    public void reject(String pid, String error) {
        synchronized (this) {
            specs.remove(pid);
            rejected.put(pid, error);
        }
        apply();
    }

    @Override
    public void remove(String pid) {
        synchronized (this) {
            rejected.remove(pid);
            specs.remove(pid);
        }
        apply();
    }

    /** A fabric module came: its configured TPGs are built. */
    public void addFabricModule(FabricModule m) {
        synchronized (this) {
            modules.put(m.name(), m);
        }
        apply();
    }

    /** A fabric module went: its TPGs are torn down (configured still, built again when it returns). */
    public void removeFabricModule(FabricModule m) {
        synchronized (this) {
            if (!modules.remove(m.name(), m)) {
                return;
            }
        }
        apply();
    }

    @Override
    public synchronized ConfigModel model() {
        return model;
    }

    @Override
    public synchronized void await(Map<String, Spec> expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<String, Spec> missing = new LinkedHashMap<>();
            // What was applied, not merely configured: the live tree has it.
            expected.forEach((pid, s) -> {
                if (!Objects.equals(model.byPid().get(pid), s) && !rejected.containsKey(pid)) {
                    missing.put(pid, s);
                }
            });
            if (missing.isEmpty()) {
                return;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TargetException("ETIMEDOUT", "Config Admin did not deliver " + missing.keySet() + " within "
                        + timeout.toSeconds() + " s: is the target's configuration component active?");
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetException("EINTR", "interrupted waiting for " + missing.keySet());
            }
        }
    }

    @Override
    public synchronized Optional<String> error(String pid) {
        String r = rejected.get(pid);
        return Optional.ofNullable(r != null ? r : liveErrors.get(pid));
    }

    /** Every configuration whose object is not live, with the reason. */
    public synchronized Map<String, String> errors() {
        Map<String, String> all = new TreeMap<>(liveErrors);
        all.putAll(rejected);
        return all;
    }

    @Override
    public synchronized Map<String, FabricModule> fabricModules() {
        return Map.copyOf(modules);
    }

    @Override
    public Path savefile() {
        return savefile;
    }

    void setSavefile(Path f) {
        savefile = f;
    }

    @Override
    public void saveconfig(Path file) {
        Saveconfig.write(model(), file);
    }

    /** Tears every live object down (the configuration stays): the core is stopping. */
    void close() {
        synchronized (this) {
            specs.clear();
            rejected.clear();
        }
        apply();
    }
}
