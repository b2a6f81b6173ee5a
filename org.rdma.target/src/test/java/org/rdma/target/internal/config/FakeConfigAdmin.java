package org.rdma.target.internal.config;

import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Enumeration;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Filter;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/**
 * Config Admin without a framework: configurations in memory, and each factory configuration of
 * the target delivered to a {@link ConfigTree} on a thread of its own, after {@code update()}
 * returned, as Felix's Config Admin hands updates to SCR and SCR to the configuration
 * components ({@link SpecComponent}). What survives a "restart" is {@link #persisted()}.
 */
public final class FakeConfigAdmin implements ConfigurationAdmin, AutoCloseable {
    private final Map<String, FakeConfiguration> configs = new LinkedHashMap<>();
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fake-cm");
        t.setDaemon(true);
        return t;
    });
    private volatile ConfigTree tree;
    private int next;

    /** Delivers the configurations (those already there first) to {@code t}. */
    public synchronized void deliverTo(ConfigTree t) {
        tree = t;
        for (FakeConfiguration c : configs.values()) {
            if (c.factoryPid != null && c.props != null) {
                deliver(c.pid, c.factoryPid, c.map());
            }
        }
    }

    private void deliver(String pid, String factoryPid, Map<String, Object> props) {
        if (factoryPid == null || !Pids.FACTORIES.contains(factoryPid)) {
            return;
        }
        delivery.execute(() -> {
            ConfigTree t = tree;
            if (t == null) {
                return;
            }
            if (props == null) {
                t.remove(pid);
                return;
            }
            try {
                t.put(pid, SpecProperties.parse(factoryPid, props));
            } catch (org.rdma.target.fabric.TargetException e) {
                t.reject(pid, e.getMessage());
            }
        });
    }

    /** Every configuration's properties by PID, as a persistent store would keep them. */
    public synchronized Map<String, Map<String, Object>> persisted() {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        configs.forEach((pid, c) -> {
            if (c.props != null) {
                m.put(pid, c.map());
            }
        });
        return m;
    }

    @Override
    public void close() throws InterruptedException {
        delivery.shutdown();
        delivery.awaitTermination(10, TimeUnit.SECONDS);
    }

    final class FakeConfiguration implements Configuration {
        final String pid;
        final String factoryPid;
        Hashtable<String, Object> props;
        long changeCount;

        FakeConfiguration(String pid, String factoryPid) {
            this.pid = pid;
            this.factoryPid = factoryPid;
        }

        Map<String, Object> map() {
            return new LinkedHashMap<>(props);
        }

        @Override
        public String getPid() {
            return pid;
        }

        @Override
        public Dictionary<String, Object> getProperties() {
            synchronized (FakeConfigAdmin.this) {
                return props == null ? null : new Hashtable<>(props);
            }
        }

        @Override
        public Dictionary<String, Object> getProcessedProperties(org.osgi.framework.ServiceReference<?> reference) {
            return getProperties();
        }

        @Override
        public void update(Dictionary<String, ?> properties) {
            Map<String, Object> copy;
            synchronized (FakeConfigAdmin.this) {
                props = new Hashtable<>();
                for (Enumeration<String> k = properties.keys(); k.hasMoreElements();) {
                    String key = k.nextElement();
                    props.put(key, properties.get(key));
                }
                props.put("service.pid", pid);
                if (factoryPid != null) {
                    props.put("service.factoryPid", factoryPid);
                }
                changeCount++;
                configs.putIfAbsent(pid, this);
                copy = map();
                deliver(pid, factoryPid, copy);
            }
        }

        @Override
        public boolean updateIfDifferent(Dictionary<String, ?> properties) {
            update(properties);
            return true;
        }

        @Override
        public void delete() {
            synchronized (FakeConfigAdmin.this) {
                if (configs.remove(pid) != null) {
                    deliver(pid, factoryPid, null);
                }
                props = null;
            }
        }

        @Override
        public String getFactoryPid() {
            return factoryPid;
        }

        @Override
        public void update() {
        }

        @Override
        public void setBundleLocation(String location) {
        }

        @Override
        public String getBundleLocation() {
            return "?";
        }

        @Override
        public long getChangeCount() {
            return changeCount;
        }

        @Override
        public void addAttributes(Configuration.ConfigurationAttribute... attrs) {
        }

        @Override
        public Set<Configuration.ConfigurationAttribute> getAttributes() {
            return Set.of();
        }

        @Override
        public void removeAttributes(Configuration.ConfigurationAttribute... attrs) {
        }
    }

    @Override
    public synchronized Configuration createFactoryConfiguration(String factoryPid) {
        return new FakeConfiguration(factoryPid + "~" + next++, factoryPid);
    }

    @Override
    public Configuration createFactoryConfiguration(String factoryPid, String location) {
        return createFactoryConfiguration(factoryPid);
    }

    @Override
    public synchronized Configuration getConfiguration(String pid, String location) {
        FakeConfiguration c = configs.get(pid);
        return c != null ? c : new FakeConfiguration(pid, null);
    }

    @Override
    public Configuration getConfiguration(String pid) {
        return getConfiguration(pid, null);
    }

    @Override
    public synchronized Configuration getFactoryConfiguration(String factoryPid, String name, String location) {
        String pid = factoryPid + "~" + name;
        FakeConfiguration c = configs.get(pid);
        return c != null ? c : new FakeConfiguration(pid, factoryPid);
    }

    @Override
    public Configuration getFactoryConfiguration(String factoryPid, String name) {
        return getFactoryConfiguration(factoryPid, name, null);
    }

    @Override
    public synchronized Configuration[] listConfigurations(String filter) throws InvalidSyntaxException {
        Filter f = filter == null ? null : FrameworkUtil.createFilter(filter);
        List<Configuration> l = new ArrayList<>();
        for (FakeConfiguration c : configs.values()) {
            if (c.props != null && (f == null || f.matches(c.props))) {
                l.add(c);
            }
        }
        return l.isEmpty() ? null : l.toArray(new Configuration[0]);
    }
}
