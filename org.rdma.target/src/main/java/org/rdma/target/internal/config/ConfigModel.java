package org.rdma.target.internal.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A snapshot of the configured tree: every spec by its configuration's PID, and lookups by
 * LIO's keys. Two configurations of the same object (two {@code fileio} named {@code disk0})
 * are a conflict: the one with the smaller PID is the object, the other is listed in
 * {@link #conflicts()} and otherwise ignored.
 */
public final class ConfigModel {
    /** A configured object and the PID of its configuration. */
    public record Entry<S extends Spec>(String pid, S spec) {
    }

    public static final ConfigModel EMPTY = new ConfigModel(Map.of());

    private final Map<String, Spec> byPid;
    private final Map<Object, Entry<? extends Spec>> byKey = new LinkedHashMap<>();
    private final Map<String, String> conflicts = new TreeMap<>();

    public ConfigModel(Map<String, ? extends Spec> specs) {
        this.byPid = Collections.unmodifiableMap(new TreeMap<>(specs));
        this.byPid.forEach((pid, s) -> {
            Object k = key(s);
            Entry<? extends Spec> first = byKey.putIfAbsent(k, new Entry<>(pid, s));
            if (first != null) {
                conflicts.put(pid, "EEXIST: " + s.path() + " is configured by " + first.pid() + " already");
            }
        });
    }

    /** The identity of an object in the tree: what LIO's configfs path names. */
    private static Object key(Spec s) {
        if (s instanceof Spec.Backstore b) {
            return List.of("so", b.plugin(), b.name());
        } else if (s instanceof Spec.Target t) {
            return List.of("target", t.fabric(), t.wwn());
        } else if (s instanceof Spec.Tpg t) {
            return t.key();
        } else if (s instanceof Spec.Portal p) {
            return List.of(p.tpg(), "np", p.address(), p.port());
        } else if (s instanceof Spec.Lun l) {
            return List.of(l.tpg(), "lun", l.index());
        } else {
            Spec.Acl a = (Spec.Acl) s;
            return List.of(a.tpg(), "acl", a.nodeWwn());
        }
    }

    public Map<String, Spec> byPid() {
        return byPid;
    }

    /** PID to the reason its configuration is ignored. */
    public Map<String, String> conflicts() {
        return Collections.unmodifiableMap(conflicts);
    }

    public boolean isEmpty() {
        return byPid.isEmpty();
    }

    @SuppressWarnings("unchecked")
    private <S extends Spec> List<Entry<S>> all(Class<S> type, Comparator<S> order) {
        List<Entry<S>> l = new ArrayList<>();
        for (Entry<? extends Spec> e : byKey.values()) {
            if (type.isInstance(e.spec())) {
                l.add((Entry<S>) e);
            }
        }
        l.sort(Comparator.comparing(Entry::spec, order));
        return l;
    }

    @SuppressWarnings("unchecked")
    private <S extends Spec> Optional<Entry<S>> get(Object key) {
        return Optional.ofNullable((Entry<S>) byKey.get(key));
    }

    private static <S> Comparator<S> by(Function<S, String> f) {
        return Comparator.comparing(f);
    }

    public List<Entry<Spec.Backstore>> backstores() {
        return all(Spec.Backstore.class, by(Spec.Backstore::plugin).thenComparing(Spec.Backstore::name));
    }

    public Optional<Entry<Spec.Backstore>> backstore(String plugin, String name) {
        return get(List.of("so", plugin, name));
    }

    /** The storage object a path {@code /backstores/PLUGIN/NAME} names. */
    public Optional<Entry<Spec.Backstore>> backstore(String path) {
        String[] p = path.split("/", -1);
        return p.length == 4 ? backstore(p[2], p[3]) : Optional.empty();
    }

    public List<Entry<Spec.Target>> targets() {
        return all(Spec.Target.class, by(Spec.Target::fabric).thenComparing(Spec.Target::wwn));
    }

    public Optional<Entry<Spec.Target>> target(String fabric, String wwn) {
        return get(List.of("target", fabric, wwn));
    }

    public List<Entry<Spec.Tpg>> tpgs() {
        return all(Spec.Tpg.class, Comparator.comparing((Spec.Tpg t) -> t.key().fabric())
                .thenComparing(t -> t.key().wwn()).thenComparingInt(t -> t.key().tag()));
    }

    public List<Entry<Spec.Tpg>> tpgs(String fabric, String wwn) {
        return tpgs().stream().filter(e -> e.spec().key().fabric().equals(fabric) && e.spec().key().wwn().equals(wwn))
                .toList();
    }

    public Optional<Entry<Spec.Tpg>> tpg(Spec.TpgKey key) {
        return get(key);
    }

    public List<Entry<Spec.Portal>> portals(Spec.TpgKey key) {
        return all(Spec.Portal.class, by((Spec.Portal p) -> p.address()).thenComparingInt(Spec.Portal::port)).stream()
                .filter(e -> e.spec().tpg().equals(key)).toList();
    }

    public Optional<Entry<Spec.Portal>> portal(Spec.TpgKey key, String address, int port) {
        return get(List.of(key, "np", address, port));
    }

    public List<Entry<Spec.Lun>> luns(Spec.TpgKey key) {
        return all(Spec.Lun.class, Comparator.comparingInt(Spec.Lun::index)).stream()
                .filter(e -> e.spec().tpg().equals(key)).toList();
    }

    public Optional<Entry<Spec.Lun>> lun(Spec.TpgKey key, int index) {
        return get(List.of(key, "lun", index));
    }

    /** Every LUN of every TPG that exports a storage object. */
    public List<Entry<Spec.Lun>> lunsOf(String storageObject) {
        return all(Spec.Lun.class, Comparator.comparing((Spec.Lun l) -> l.tpg().path()).thenComparingInt(Spec.Lun::index))
                .stream().filter(e -> e.spec().storageObject().equals(storageObject)).toList();
    }

    public List<Entry<Spec.Acl>> acls(Spec.TpgKey key) {
        return all(Spec.Acl.class, by(Spec.Acl::nodeWwn)).stream().filter(e -> e.spec().tpg().equals(key)).toList();
    }

    public Optional<Entry<Spec.Acl>> acl(Spec.TpgKey key, String nodeWwn) {
        return get(List.of(key, "acl", nodeWwn));
    }

    /** Every configuration under a TPG (portals, LUNs, ACLs), for deleting it. */
    public List<Entry<? extends Spec>> children(Spec.TpgKey key) {
        List<Entry<? extends Spec>> l = new ArrayList<>();
        l.addAll(portals(key));
        l.addAll(luns(key));
        l.addAll(acls(key));
        return l;
    }
}
