package org.rdma.verbs.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The seed corpora of the fuzz tests ({@code @FuzzTest}), shared by every module through this
 * module's test jar. A fuzz test makes its seeds with the real encoders and checks with
 * {@link #check} that the committed corpus holds them, so the corpus follows the encoders; with
 * {@code -Dfuzz.writeSeeds=true} the check (re)writes them first. The corpus lives where Jazzer
 * looks in regression mode and writes new findings in fuzzing mode:
 * {@code src/test/resources/<package>/<TestClass>Inputs/<method>/}.
 */
public final class FuzzSeeds {
    private FuzzSeeds() {
    }

    /**
     * The committed corpus directory of {@code method} of {@code test}, relative to the module
     * (the working directory of the tests).
     */
    public static Path inputs(Class<?> test, String method) {
        return Path.of("src", "test", "resources").resolve(test.getPackageName().replace('.', '/'))
                .resolve(test.getSimpleName() + "Inputs").resolve(method);
    }

    /**
     * Asserts that every seed is committed byte for byte under {@link #inputs}.
     *
     * @param seeds file name to content
     */
    public static void check(Class<?> test, String method, Map<String, byte[]> seeds) throws IOException {
        Path dir = inputs(test, method);
        for (Map.Entry<String, byte[]> e : seeds.entrySet()) {
            Path f = dir.resolve(e.getKey());
            if (Boolean.getBoolean("fuzz.writeSeeds")) {
                Files.createDirectories(dir);
                Files.write(f, e.getValue());
            }
            assertTrue(Files.isRegularFile(f), () -> f + " is missing: run the test with -Dfuzz.writeSeeds=true");
            assertArrayEquals(e.getValue(), Files.readAllBytes(f),
                    () -> f + " is not what the encoders make now: run the test with -Dfuzz.writeSeeds=true");
        }
    }
}
