package org.rdma.target.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JSON as rtslib writes saveconfig.json (Python's json.dump with sort_keys and indent 2), through Gson. */
class JsonTest {
    @Test
    void writesAsPythonJsonDumpWithSortedKeysAndIndentTwo() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("b", List.of(1L, true, "x"));
        inner.put("a", Map.of());
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("z", List.of());
        root.put("k", inner);
        root.put("n", null);
        // Laid out by hand from Python 3: json.dumps(v, sort_keys=True, indent=2).
        assertEquals("""
                {
                  "k": {
                    "a": {},
                    "b": [
                      1,
                      true,
                      "x"
                    ]
                  },
                  "n": null,
                  "z": []
                }""", Json.write(root));
    }

    /** JSON's escapes for quotes, backslashes and control characters; other text stays as it is (UTF-8). */
    @Test
    void escapesWhatJsonRequires() {
        assertEquals("\"q\\\" b\\\\ n\\n t\\t \\u0001 \u007f \u00e9 \u20ac / <&>\"",
                Json.write("q\" b\\ n\n t\t \u0001 \u007f \u00e9 \u20ac / <&>"));
    }

    @Test
    void refusesAKeyTwice() {
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1, \"a\": 2}"));
    }

    @Test
    void parsesWhatItWrites() {
        Object v = Json.parse("""
                 {"a": [1, -2, 3.5e1, "s\\u00e9\\n", true, false, null], "b": {"c": {}}, "d": []}
                """);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("a", java.util.Arrays.asList(1L, -2L, 35.0, "s\u00e9\n", true, false, null));
        expected.put("b", Map.of("c", Map.of()));
        expected.put("d", List.of());
        assertEquals(expected, v);
        assertEquals(v, Json.parse(Json.write(v)));
    }

    @Test
    void refusesWhatIsNotJson() {
        for (String bad : new String[] {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\u0001\"", "\"\\x\"", "tru",
                "[1] 2", "99999999999999999999", "{1: 2}", "\"\\u12\""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
            assertEquals("EINVAL: JSON: ", e.getMessage().substring(0, 14), bad);
        }
    }

    @Test
    void refusesNestingDeeperThanTheLimit() {
        String deep = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Json.parse(deep)).getMessage()
                .startsWith("EINVAL: JSON: Nesting limit 64 reached"));
        String ok = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        Json.parse(ok);
    }
}
