package org.rdma.hca.mlx4sim.itest.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.ResourceDTO;

/**
 * A well-behaved ULP: on {@code add} it allocates its {@link Side} (PD, softirq CQ, MR) on the
 * device and keeps it as client data; the test makes RC QPs on it. On {@code remove} it does what
 * the kernel asks of a client: fences its posting, drains and destroys its QPs, then frees the MR,
 * CQ and PD — and records which objects the resource tracker still lists for the device at that
 * moment (they must all belong to other owners). Devices whose name does not start with the
 * test's prefix are accepted silently.
 */
public final class UlpClient implements IbClient {
    private final String name;
    private final String prefix;
    private final IbRuntime runtime;
    private final List<String> log = new ArrayList<>();
    private final Map<String, Side> sides = new ConcurrentHashMap<>();

    public UlpClient(String name, String prefix, IbRuntime runtime) {
        this.name = name;
        this.prefix = prefix;
        this.runtime = runtime;
    }

    /** The owner string of everything this client allocates. */
    public String owner() {
        return name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int add(IbDevice device) {
        if (!device.name().startsWith(prefix)) {
            return 0;
        }
        try {
            Side s = new Side(device, name);
            device.setClientData(this, s);
            log("add " + device.name());
            // Last: a test that sees the side goes on at once and reads the log.
            sides.put(device.name(), s);
            return 0;
        } catch (RuntimeException e) {
            log("add " + device.name() + " FAILED " + e);
            return -12;
        }
    }

    @Override
    public void remove(IbDevice device, Object clientData) {
        if (!device.name().startsWith(prefix)) {
            return;
        }
        log("remove " + device.name());
        if (!(clientData instanceof Side)) {
            log("BAD client data for " + device.name() + ": " + clientData);
            return;
        }
        Side s = (Side) clientData;
        try {
            s.destroy();
            sides.remove(device.name());
            List<String> mine = new ArrayList<>();
            List<String> others = new ArrayList<>();
            for (ResourceDTO r : runtime.resources(device.name(), null)) {
                (name.equals(r.owner) ? mine : others).add(r.type + ":" + r.owner);
            }
            log("cleaned " + device.name() + " mine=" + mine + " others=" + others);
        } catch (RuntimeException e) {
            log("cleanup of " + device.name() + " FAILED " + e);
        }
    }

    /** The side this client holds on {@code device}, or null. */
    public Side side(String device) {
        return sides.get(device);
    }

    private synchronized void log(String entry) {
        log.add(entry);
    }

    /** The log, in order. */
    public synchronized List<String> log() {
        return new ArrayList<>(log);
    }

    /** The entries accepted by {@code filter}. */
    public synchronized List<String> log(Predicate<String> filter) {
        List<String> l = new ArrayList<>();
        for (String e : log) {
            if (filter.test(e)) {
                l.add(e);
            }
        }
        return l;
    }

    @Override
    public String toString() {
        return "UlpClient[" + name + "]";
    }
}
