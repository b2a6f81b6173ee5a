package org.rdma.core.internal.restrack;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.rdma.verbs.runtime.ResourceDTO;

/**
 * The resource tracker of one device ({@code drivers/infiniband/core/restrack.c}): every verbs
 * object is added when it is complete and deleted when destroyed, with its owner
 * ({@code kern_name}) and a supplier of the attributes {@code rdma res show} prints.
 */
public final class Restrack {
    /** {@code enum rdma_restrack_type}, in the order {@code rdma res} prints counts. */
    public enum Type {
        PD, CQ, QP, CM_ID, MR, CTX, SRQ, WQ, MW, AH;

        /** The name {@code rdma res} uses. */
        public String resName() {
            return name().toLowerCase();
        }

        /** The type named {@code name} ({@code qp}, {@code cm_id}, ...), or null. */
        public static Type of(String name) {
            for (Type t : values()) {
                if (t.resName().equals(name)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** One tracked object ({@code struct rdma_restrack_entry}). */
    public static final class Entry {
        final Type type;
        final long id;
        final String owner;
        final Supplier<Map<String, String>> attrs;

        Entry(Type type, long id, String owner, Supplier<Map<String, String>> attrs) {
            this.type = type;
            this.id = id;
            this.owner = owner;
            this.attrs = attrs;
        }

        /** The restrack id. */
        public long id() {
            return id;
        }
    }

    private final String device;
    private final EnumMap<Type, ConcurrentSkipListMap<Long, Entry>> tables = new EnumMap<>(Type.class);
    private final EnumMap<Type, AtomicLong> ids = new EnumMap<>(Type.class);

    /** A tracker for {@code device}. */
    public Restrack(String device) {
        this.device = device;
        for (Type t : Type.values()) {
            tables.put(t, new ConcurrentSkipListMap<>());
            ids.put(t, new AtomicLong());
        }
    }

    /** {@code rdma_restrack_add()}: tracks a complete object. */
    public Entry add(Type type, String owner, Supplier<Map<String, String>> attrs) {
        Entry e = new Entry(type, ids.get(type).getAndIncrement(), owner, attrs);
        tables.get(type).put(e.id, e);
        return e;
    }

    /** {@code rdma_restrack_del()}. */
    public void del(Entry e) {
        if (e != null) {
            tables.get(e.type).remove(e.id);
        }
    }

    /** Per type, how many objects are tracked (every type, zeros included). */
    public Map<String, Integer> counts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (Type t : Type.values()) {
            m.put(t.resName(), tables.get(t).size());
        }
        return m;
    }

    /** Total tracked objects. */
    public int total() {
        int n = 0;
        for (ConcurrentSkipListMap<Long, Entry> t : tables.values()) {
            n += t.size();
        }
        return n;
    }

    /** DTOs of the tracked objects of {@code type} ({@code null}: all), in id order. */
    public List<ResourceDTO> dtos(Type type) {
        List<ResourceDTO> out = new ArrayList<>();
        for (Type t : Type.values()) {
            if (type != null && t != type) {
                continue;
            }
            for (Entry e : tables.get(t).values()) {
                ResourceDTO d = new ResourceDTO();
                d.device = device;
                d.type = t.resName();
                d.id = e.id;
                d.owner = e.owner;
                d.attrs = e.attrs.get();
                out.add(d);
            }
        }
        return out;
    }
}
