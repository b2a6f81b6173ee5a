package org.rdma.target.internal.config;

import java.util.Map;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.rdma.target.fabric.TargetException;

/**
 * One factory configuration of LIO's tree as a DS component: it hands its object to the
 * {@link ConfigTree} when created or changed and takes it back when deleted. A bad value does
 * not fail the component: the tree records it as the configuration's error, which targetcli and
 * the log name.
 */
abstract class SpecComponent {
    private final ConfigTree tree;
    private final String factoryPid;
    private final String pid;

    SpecComponent(ConfigTree tree, String factoryPid, Map<String, Object> properties) {
        this.tree = tree;
        this.factoryPid = factoryPid;
        this.pid = (String) properties.get("service.pid");
        modified(properties);
    }

    @Modified
    void modified(Map<String, Object> properties) {
        try {
            tree.put(pid, SpecProperties.parse(factoryPid, properties));
        } catch (TargetException e) {
            tree.reject(pid, e.getMessage());
        }
    }

    @Deactivate
    void deactivate() {
        tree.remove(pid);
    }
}
