package org.rdma.target.internal.config;

import java.io.IOException;
import java.util.Dictionary;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import java.util.TreeMap;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.rdma.target.fabric.TargetException;

/**
 * The target's configurations in Config Admin, read as a {@link ConfigModel} and written from
 * specs: what targetcli and a restore change. Factory configurations are created with the
 * location {@code "?"} so that whichever bundle runs the configuration components may use them.
 */
public final class ConfigStore {
    private final ConfigurationAdmin cm;

    public ConfigStore(ConfigurationAdmin cm) {
        this.cm = cm;
    }

    private static final String FILTER;

    static {
        StringBuilder f = new StringBuilder("(|");
        Pids.FACTORIES.forEach(p -> f.append('(').append(ConfigurationAdmin.SERVICE_FACTORYPID).append('=').append(p).append(')'));
        FILTER = f.append(')').toString();
    }

    private Configuration[] list() {
        try {
            Configuration[] c = cm.listConfigurations(FILTER);
            return c == null ? new Configuration[0] : c;
        } catch (IOException | InvalidSyntaxException e) {
            throw new TargetException("EIO", "cannot list the target's configurations: " + e);
        }
    }

    /**
     * Every target configuration as a spec; one that does not parse is left out and its error
     * kept in {@code invalid} (PID to message) when that is not null.
     */
    public ConfigModel read(Map<String, String> invalid) {
        Map<String, Spec> specs = new HashMap<>();
        for (Configuration c : list()) {
            Dictionary<String, Object> d = c.getProperties();
            if (d == null) {
                continue;
            }
            try {
                specs.put(c.getPid(), SpecProperties.parse(c.getFactoryPid(), map(d)));
            } catch (TargetException e) {
                if (invalid != null) {
                    invalid.put(c.getPid(), e.getMessage());
                }
            }
        }
        return new ConfigModel(specs);
    }

    /** Whether no target configuration exists, valid or not. */
    public boolean isEmpty() {
        return list().length == 0;
    }

    static Map<String, Object> map(Dictionary<String, ?> d) {
        Map<String, Object> m = new TreeMap<>();
        for (Enumeration<String> k = d.keys(); k.hasMoreElements();) {
            String key = k.nextElement();
            m.put(key, d.get(key));
        }
        return m;
    }

    private static Dictionary<String, Object> dictionary(Map<String, Object> m) {
        return new Hashtable<>(m);
    }

    /** Creates the configuration of a new object; returns its PID. */
    public String create(Spec s) {
        try {
            Configuration c = cm.createFactoryConfiguration(s.factoryPid(), "?");
            c.update(dictionary(SpecProperties.toProperties(s)));
            return c.getPid();
        } catch (IOException e) {
            throw new TargetException("EIO", "cannot create the configuration of " + s.path() + ": " + e);
        }
    }

    /** Replaces the properties of an existing object's configuration. */
    public void update(String pid, Spec s) {
        try {
            cm.getConfiguration(pid, "?").update(dictionary(SpecProperties.toProperties(s)));
        } catch (IOException e) {
            throw new TargetException("EIO", "cannot update the configuration of " + s.path() + ": " + e);
        }
    }

    public void delete(String pid) {
        try {
            cm.getConfiguration(pid, "?").delete();
        } catch (IOException e) {
            throw new TargetException("EIO", "cannot delete configuration " + pid + ": " + e);
        }
    }

    /** Deletes every target configuration, valid or not (clearconfig). */
    public void deleteAll() {
        for (Configuration c : list()) {
            try {
                c.delete();
            } catch (IOException e) {
                throw new TargetException("EIO", "cannot delete configuration " + c.getPid() + ": " + e);
            }
        }
    }

    /** The properties of a singleton configuration (empty when it has none). */
    public Map<String, Object> singleton(String pid) {
        try {
            Configuration[] c = cm.listConfigurations("(" + Constants.SERVICE_PID + "=" + pid + ")");
            Dictionary<String, Object> d = c == null ? null : c[0].getProperties();
            return d == null ? Map.of() : map(d);
        } catch (IOException | InvalidSyntaxException e) {
            throw new TargetException("EIO", "cannot read configuration " + pid + ": " + e);
        }
    }

    /** Sets one key of a singleton configuration, keeping the others. */
    public void setSingleton(String pid, String key, Object value) {
        try {
            Configuration c = cm.getConfiguration(pid, "?");
            Dictionary<String, Object> d = c.getProperties();
            Map<String, Object> m = d == null ? new HashMap<>() : map(d);
            m.put(key, value);
            c.update(dictionary(m));
        } catch (IOException e) {
            throw new TargetException("EIO", "cannot update configuration " + pid + ": " + e);
        }
    }
}
