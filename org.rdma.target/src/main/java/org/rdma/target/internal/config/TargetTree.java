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
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetCore;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.core.TargetCoreImpl;

/**
 * The target core with its configured tree: the {@link TargetCore} fabrics use and the
 * {@link ConfigTree} the configuration components feed. Every change is applied to the live
 * objects at once, under this object's monitor, which also wakes the waiters of {@link #await}.
 */
public class TargetTree implements TargetCore, ConfigTree {
    private final TargetCoreImpl core;
    private final LiveTree live;
    private volatile Path savefile;
    private final Map<String, Spec> specs = new HashMap<>();
    private final Map<String, String> rejected = new HashMap<>();
    private final Map<String, FabricModule> modules = new TreeMap<>();
    private ConfigModel model = ConfigModel.EMPTY;

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

    private void changed() {
        model = new ConfigModel(specs);
        live.apply(model, modules);
        notifyAll();
    }

    @Override
    public synchronized void put(String pid, Spec spec) {
        rejected.remove(pid);
        specs.put(pid, spec);
        changed();
    }

    @Override
    public synchronized void reject(String pid, String error) {
        specs.remove(pid);
        rejected.put(pid, error);
        changed();
    }

    @Override
    public synchronized void remove(String pid) {
        rejected.remove(pid);
        specs.remove(pid);
        changed();
    }

    /** A fabric module came: its configured TPGs are built. */
    public synchronized void addFabricModule(FabricModule m) {
        modules.put(m.name(), m);
        changed();
    }

    /** A fabric module went: its TPGs are torn down (configured still, built again when it returns). */
    public synchronized void removeFabricModule(FabricModule m) {
        if (modules.remove(m.name(), m)) {
            changed();
        }
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
            expected.forEach((pid, s) -> {
                if (!Objects.equals(specs.get(pid), s) && !rejected.containsKey(pid)) {
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
        return Optional.ofNullable(r != null ? r : live.errors().get(pid));
    }

    /** Every configuration whose object is not live, with the reason. */
    public synchronized Map<String, String> errors() {
        Map<String, String> all = new TreeMap<>(live.errors());
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
    synchronized void close() {
        specs.clear();
        rejected.clear();
        changed();
    }
}
