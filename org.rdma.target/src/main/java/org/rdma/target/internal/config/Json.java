package org.rdma.target.internal.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON (RFC 8259) as saveconfig.json needs it: objects are {@code Map<String, Object>} in file
 * order, arrays {@code List<Object>}, numbers {@code Long} (integers) or {@code Double}, and
 * {@code String}, {@code Boolean}, {@code null}. {@link #write} lays values out as Python's
 * {@code json.dump(obj, f, sort_keys=True, indent=2)} does, which is how rtslib writes the file.
 */
public final class Json {
    /** Deeper nesting is refused rather than risking the stack on hostile input. */
    static final int MAX_DEPTH = 64;

    private final String s;
    private int pos;

    private Json(String s) {
        this.s = s;
    }

    /**
     * Parses one JSON text.
     *
     * @throws IllegalArgumentException {@code EINVAL} naming the offset of the first error
     */
    public static Object parse(String text) {
        Json p = new Json(text);
        p.blank();
        Object v = p.value(0);
        p.blank();
        if (p.pos != text.length()) {
            throw p.error("text after the value");
        }
        return v;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("EINVAL: JSON: " + what + " at offset " + pos);
    }

    private void blank() {
        while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t' || s.charAt(pos) == '\n'
                || s.charAt(pos) == '\r')) {
            pos++;
        }
    }

    private void expect(char c) {
        if (pos >= s.length() || s.charAt(pos) != c) {
            throw error("'" + c + "' expected");
        }
        pos++;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
        if (pos >= s.length()) {
            throw error("value expected");
        }
        char c = s.charAt(pos);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                throw error("value expected");
        }
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, pos)) {
            throw error(word + " expected");
        }
        pos += word.length();
        return v;
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        blank();
        if (pos < s.length() && s.charAt(pos) == '}') {
            pos++;
            return m;
        }
        while (true) {
            blank();
            if (pos >= s.length() || s.charAt(pos) != '"') {
                throw error("member name expected");
            }
            String k = string();
            blank();
            expect(':');
            blank();
            m.put(k, value(depth + 1));
            blank();
            if (pos < s.length() && s.charAt(pos) == ',') {
                pos++;
                continue;
            }
            expect('}');
            return m;
        }
    }

    private List<Object> array(int depth) {
        List<Object> l = new ArrayList<>();
        pos++;
        blank();
        if (pos < s.length() && s.charAt(pos) == ']') {
            pos++;
            return l;
        }
        while (true) {
            blank();
            l.add(value(depth + 1));
            blank();
            if (pos < s.length() && s.charAt(pos) == ',') {
                pos++;
                continue;
            }
            expect(']');
            return l;
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("control character in string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (pos >= s.length()) {
                throw error("unterminated escape");
            }
            char e = s.charAt(pos++);
            switch (e) {
                case '"', '\\', '/':
                    b.append(e);
                    break;
                case 'b':
                    b.append('\b');
                    break;
                case 'f':
                    b.append('\f');
                    break;
                case 'n':
                    b.append('\n');
                    break;
                case 'r':
                    b.append('\r');
                    break;
                case 't':
                    b.append('\t');
                    break;
                case 'u':
                    if (pos + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    int v = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(s.charAt(pos++), 16);
                        if (d < 0) {
                            throw error("bad \\u escape");
                        }
                        v = v << 4 | d;
                    }
                    b.append((char) v);
                    break;
                default:
                    throw error("bad escape \\" + e);
            }
        }
    }

    private Object number() {
        int start = pos;
        if (s.charAt(pos) == '-') {
            pos++;
        }
        int intStart = pos;
        while (pos < s.length() && Character.isDigit(s.charAt(pos)) && s.charAt(pos) < 0x80) {
            pos++;
        }
        if (pos == intStart || s.charAt(intStart) == '0' && pos - intStart > 1) {
            throw error("bad number");
        }
        boolean integer = true;
        if (pos < s.length() && s.charAt(pos) == '.') {
            integer = false;
            pos++;
            digits();
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            integer = false;
            pos++;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                pos++;
            }
            digits();
        }
        String n = s.substring(start, pos);
        if (integer) {
            try {
                return Long.parseLong(n);
            } catch (NumberFormatException e) {
                throw error("integer " + n + " out of range");
            }
        }
        return Double.parseDouble(n);
    }

    private void digits() {
        int d = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == d) {
            throw error("digit expected");
        }
    }

    /** The text of a value as Python's {@code json.dump(v, f, sort_keys=True, indent=2)} writes it. */
    public static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v, 0);
        return b.toString();
    }

    private static void indent(StringBuilder b, int level) {
        b.append('\n');
        b.append(" ".repeat(2 * level));
    }

    private static void write(StringBuilder b, Object v, int level) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                b.append("{}");
                return;
            }
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
                b.append(first ? "" : ",");
                first = false;
                indent(b, level + 1);
                quote(b, (String) e.getKey());
                b.append(": ");
                write(b, e.getValue(), level + 1);
            }
            indent(b, level);
            b.append('}');
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                b.append("[]");
                return;
            }
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : ",");
                indent(b, level + 1);
                write(b, l.get(i), level + 1);
            }
            indent(b, level);
            b.append(']');
        } else if (v instanceof String str) {
            quote(b, str);
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer) {
            b.append(v);
        } else if (v instanceof Double d && !d.isNaN() && !d.isInfinite()) {
            b.append(d);
        } else {
            throw new IllegalArgumentException("EINVAL: JSON cannot hold " + v.getClass().getSimpleName());
        }
    }

    /** A string with Python's escapes (ensure_ascii: everything outside printable ASCII as \\uXXXX). */
    private static void quote(StringBuilder b, String str) {
        b.append('"');
        for (int i = 0; i < str.length(); i++) {
            char c = str.charAt(i);
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                case '\b':
                    b.append("\\b");
                    break;
                case '\f':
                    b.append("\\f");
                    break;
                default:
                    if (c < 0x20 || c > 0x7E) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        b.append('"');
    }
}
