package org.rdma.target.internal.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.internal.core.TargetCoreImpl;

/**
 * A target tree as the bundle wires it, without a framework: a {@link FakeConfigAdmin} delivering
 * configurations to it, the iSCSI fabric module, real files, and a publisher that records what
 * a fabric engine would see of the TPG services.
 */
public final class TestTree implements AutoCloseable {
    /** What the publisher did: {@code publish PATH props}, {@code update PATH props}, {@code unregister PATH}. */
    public final List<String> published = Collections.synchronizedList(new ArrayList<>());
    public final FakeConfigAdmin cm;
    public final TargetTree tree;
    public final ConfigStore store;

    public TestTree(Path savefile) {
        this(new FakeConfigAdmin(), savefile);
    }

    /** A tree over an existing Config Admin (a restart over what it persisted). */
    public TestTree(FakeConfigAdmin cm, Path savefile) {
        this.cm = cm;
        Executor direct = Runnable::run;
        this.tree = new TargetTree(new TargetCoreImpl(direct), this::publish, LiveTree.FILES, savefile);
        this.store = new ConfigStore(cm);
        tree.addFabricModule(new IscsiFabricModule());
        TargetCoreComponent.restoreIfEmpty(store, savefile, tree.fabricModules());
        cm.deliverTo(tree);
    }

    private static String name(FabricTpg t) {
        return "/" + t.fabric() + "/" + t.targetName() + "/tpg" + t.tag();
    }

    private LiveTree.Publisher.Registration publish(FabricTpg tpg, Map<String, Object> props) {
        published.add("publish " + name(tpg) + " " + new LinkedHashMap<>(props));
        return new LiveTree.Publisher.Registration() {
            @Override
            public void update(Map<String, Object> p) {
                published.add("update " + name(tpg) + " " + new LinkedHashMap<>(p));
            }

            @Override
            public void unregister() {
                published.add("unregister " + name(tpg));
            }
        };
    }

    /** Waits until the tree has every configuration Config Admin holds. */
    public void settle() {
        Map<String, Spec> expected = new LinkedHashMap<>();
        cm.persisted().forEach((pid, props) -> {
            String f = (String) props.get("service.factoryPid");
            if (f != null && Pids.FACTORIES.contains(f)) {
                try {
                    expected.put(pid, SpecProperties.parse(f, props));
                } catch (org.rdma.target.fabric.TargetException bad) {
                    // Nothing to wait for: the tree rejects it, and await cannot tell when.
                }
            }
        });
        // Deleted ones: the tree has them, Config Admin no more.
        tree.model().byPid().keySet().forEach(pid -> expected.putIfAbsent(pid, null));
        tree.await(expected, java.time.Duration.ofSeconds(10));
    }

    @Override
    public void close() throws InterruptedException {
        cm.close();
        tree.close();
    }
}
