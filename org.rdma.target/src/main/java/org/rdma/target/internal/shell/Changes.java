package org.rdma.target.internal.shell;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.config.ConfigStore;
import org.rdma.target.internal.config.ConfigTree;
import org.rdma.target.internal.config.Spec;

/**
 * The configuration changes of one targetcli command, written to Config Admin and then waited
 * for until the live tree has them. If an object it created does not come alive (a fileio file
 * that cannot be opened), everything it created is deleted again and the object's error thrown,
 * so a failed command leaves the configuration as it was, as a failed configfs mkdir does.
 */
final class Changes {
    /** How long Config Admin and the components may take to deliver a change. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ConfigStore store;
    private final ConfigTree tree;
    private final List<String> created = new ArrayList<>();
    private final Map<String, Spec> expected = new LinkedHashMap<>();

    Changes(ConfigStore store, ConfigTree tree) {
        this.store = store;
        this.tree = tree;
    }

    void create(Spec s) {
        String pid = store.create(s);
        created.add(pid);
        expected.put(pid, s);
    }

    void update(String pid, Spec s) {
        store.update(pid, s);
        expected.put(pid, s);
    }

    void delete(String pid) {
        store.delete(pid);
        expected.put(pid, null);
    }

    /** Waits for the live tree; undoes the creations and throws when one of them failed. */
    void commit() {
        tree.await(expected, TIMEOUT);
        for (String pid : created) {
            Optional<String> error = tree.error(pid);
            if (error.isPresent()) {
                Map<String, Spec> undone = new LinkedHashMap<>();
                for (String c : created) {
                    store.delete(c);
                    undone.put(c, null);
                }
                tree.await(undone, TIMEOUT);
                String m = error.get();
                int colon = m.indexOf(": ");
                throw m.matches("E[A-Z]+: .*") ? new TargetException(m.substring(0, colon), m.substring(colon + 2))
                        : new TargetException("EIO", m);
            }
        }
    }
}
