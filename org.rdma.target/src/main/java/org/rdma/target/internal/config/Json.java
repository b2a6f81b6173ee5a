package org.rdma.target.internal.config;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * saveconfig.json's values as plain Java, read and written with Gson's streaming API: objects are
 * {@code Map<String, Object>} in file order, arrays {@code List<Object>}, numbers {@code Long}
 * (integers) or {@code Double}, and {@code String}, {@code Boolean}, {@code null}. {@link #write}
 * lays values out as rtslib does (Python's {@code json.dump(obj, f, sort_keys=True, indent=2)}),
 * except that text beyond ASCII stays UTF-8 rather than {@code \\uXXXX} escapes; Python reads both.
 */
public final class Json {
    /** Deeper nesting is refused rather than risking the stack on hostile input. */
    static final int MAX_DEPTH = 64;

    private Json() {
    }

    /**
     * Parses one JSON text (RFC 8259, strictly).
     *
     * @throws IllegalArgumentException {@code EINVAL} saying what is wrong and where
     */
    public static Object parse(String text) {
        try (JsonReader r = new JsonReader(new StringReader(text))) {
            r.setStrictness(Strictness.STRICT);
            r.setNestingLimit(MAX_DEPTH);
            Object v = read(r);
            if (r.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("EINVAL: JSON: text after the value " + r.getPath());
            }
            return v;
        } catch (IOException | IllegalStateException | NumberFormatException e) {
            throw new IllegalArgumentException("EINVAL: JSON: " + e.getMessage(), e);
        }
    }

    private static Object read(JsonReader r) throws IOException {
        switch (r.peek()) {
            case BEGIN_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                r.beginObject();
                while (r.hasNext()) {
                    String k = r.nextName();
                    if (m.containsKey(k)) {
                        throw new IllegalArgumentException("EINVAL: JSON: key \"" + k + "\" twice at " + r.getPath());
                    }
                    m.put(k, read(r));
                }
                r.endObject();
                return m;
            }
            case BEGIN_ARRAY: {
                List<Object> l = new ArrayList<>();
                r.beginArray();
                while (r.hasNext()) {
                    l.add(read(r));
                }
                r.endArray();
                return l;
            }
            case STRING:
                return r.nextString();
            case NUMBER: {
                String n = r.nextString();
                boolean integer = n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0;
                return integer ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
            }
            case BOOLEAN:
                return r.nextBoolean();
            case NULL:
                r.nextNull();
                return null;
            default:
                throw new IllegalArgumentException("EINVAL: JSON: value expected at " + r.getPath());
        }
    }

    /** Writes {@code v} with sorted keys and an indent of two, as rtslib's saveconfig does. */
    public static String write(Object v) {
        StringWriter out = new StringWriter();
        try (JsonWriter w = new JsonWriter(out)) {
            w.setIndent("  ");
            w.setHtmlSafe(false);
            w.setSerializeNulls(true);
            write(w, v);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonWriter w, Object v) throws IOException {
        if (v == null) {
            w.nullValue();
        } else if (v instanceof Map<?, ?> m) {
            w.beginObject();
            for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
                w.name((String) e.getKey());
                write(w, e.getValue());
            }
            w.endObject();
        } else if (v instanceof List<?> l) {
            w.beginArray();
            for (Object o : l) {
                write(w, o);
            }
            w.endArray();
        } else if (v instanceof String s) {
            w.value(s);
        } else if (v instanceof Boolean b) {
            w.value(b);
        } else if (v instanceof Double || v instanceof Float) {
            w.value(((Number) v).doubleValue());
        } else if (v instanceof Number n) {
            w.value(n.longValue());
        } else {
            throw new IllegalArgumentException("EINVAL: JSON: cannot write a " + v.getClass().getName());
        }
    }
}
