package org.rdma.core.internal.restrack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.rdma.verbs.runtime.ResourceDTO;

/**
 * The resource tracker of one device ({@code drivers/infiniband/core/restrack.c}): every verbs
 * object is added when it is complete and deleted when destroyed, with its owner
 * ({@code kern_name}), a supplier of the attributes {@code rdma res show} prints, and the object
 * itself (what the kernel reaches with {@code container_of()}), so that device removal finds
 * what the clients left behind.
 *
 * <p>Each type's table is a list in id order (ids only grow, and an entry is appended when its
 * id is taken): adding and deleting are constant time with no allocation besides the entry, as
 * they run for every AH of a MAD response and every QP of a connection. Each table is its own
 * lock; no lock is held while attribute suppliers run.
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
        final Object object;
        // guarded by the type's table
        Entry prev;
        Entry next;
        boolean listed;

        Entry(Type type, long id, String owner, Supplier<Map<String, String>> attrs, Object object) {
            this.type = type;
            this.id = id;
            this.owner = owner;
            this.attrs = attrs;
            this.object = object;
        }

        /** The restrack id. */
        public long id() {
            return id;
        }
    }

    /** One type's entries, oldest first ({@code rt->xa}). */
    private static final class Table {
        Entry head;
        Entry tail;
        int size;
        long nextId;
    }

    private final String device;
    private final Table[] tables = new Table[Type.values().length];

    /** A tracker for {@code device}. */
    public Restrack(String device) {
        this.device = device;
        for (int i = 0; i < tables.length; i++) {
            tables[i] = new Table();
        }
    }

    /** {@code rdma_restrack_add()}: tracks a complete object that has no Java object of its own here. */
    public Entry add(Type type, String owner, Supplier<Map<String, String>> attrs) {
        return add(type, owner, attrs, null);
    }

    /** {@code rdma_restrack_add()}: tracks {@code object}, complete. */
    public Entry add(Type type, String owner, Supplier<Map<String, String>> attrs, Object object) {
        Table t = tables[type.ordinal()];
        synchronized (t) {
            Entry e = new Entry(type, t.nextId++, owner, attrs, object);
            e.prev = t.tail;
            if (t.tail == null) {
                t.head = e;
            } else {
                t.tail.next = e;
            }
            t.tail = e;
            e.listed = true;
            t.size++;
            return e;
        }
    }

    /** {@code rdma_restrack_del()}; deleting twice is harmless. */
    public void del(Entry e) {
        if (e == null) {
            return;
        }
        Table t = tables[e.type.ordinal()];
        synchronized (t) {
            if (!e.listed) {
                return;
            }
            if (e.prev == null) {
                t.head = e.next;
            } else {
                e.prev.next = e.next;
            }
            if (e.next == null) {
                t.tail = e.prev;
            } else {
                e.next.prev = e.prev;
            }
            e.prev = null;
            e.next = null;
            e.listed = false;
            t.size--;
        }
    }

    /** Per type, how many objects are tracked (every type, zeros included). */
    public Map<String, Integer> counts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (Type t : Type.values()) {
            Table table = tables[t.ordinal()];
            synchronized (table) {
                m.put(t.resName(), table.size);
            }
        }
        return m;
    }

    /** Total tracked objects. */
    public int total() {
        int n = 0;
        for (Table t : tables) {
            synchronized (t) {
                n += t.size;
            }
        }
        return n;
    }

    /** The tracked objects of every type that were added with one, oldest first per type. */
    public List<Object> objects() {
        List<Object> out = new ArrayList<>();
        for (Entry e : entries(null)) {
            if (e.object != null) {
                out.add(e.object);
            }
        }
        return out;
    }

    /** DTOs of the tracked objects of {@code type} ({@code null}: all), in id order. */
    public List<ResourceDTO> dtos(Type type) {
        List<ResourceDTO> out = new ArrayList<>();
        for (Entry e : entries(type)) {
            ResourceDTO d = new ResourceDTO();
            d.device = device;
            d.type = e.type.resName();
            d.id = e.id;
            d.owner = e.owner;
            d.attrs = e.attrs.get();
            out.add(d);
        }
        return out;
    }

    /** A snapshot of the entries of {@code type} ({@code null}: all, by type), in id order. */
    private List<Entry> entries(Type type) {
        List<Entry> out = new ArrayList<>();
        for (Type t : Type.values()) {
            if (type != null && t != type) {
                continue;
            }
            Table table = tables[t.ordinal()];
            synchronized (table) {
                for (Entry e = table.head; e != null; e = e.next) {
                    out.add(e);
                }
            }
        }
        return out;
    }
}
