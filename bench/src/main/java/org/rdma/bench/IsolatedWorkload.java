package org.rdma.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link Workload} in a class loader of its own, over the classes of a benchmark jar: two of them
 * share no class, so neither the JIT's profiles nor its compiled code of one workload shape the
 * other's, as if each ran in a JVM of its own, while both run in alternating rounds on one thread.
 * The {@code Workload} class itself is taken from the jar running this code, so an old jar built
 * before it existed can be loaded too (it needs {@code Writer}, {@code Subnet} and {@code Wire} as
 * they are today).
 */
final class IsolatedWorkload implements AutoCloseable {
    private final Object workload;
    private final Method round;

    /**
     * Workload {@code name} (one of {@link Workload#NAMES}) over the classes of {@code jar}.
     *
     * @throws Exception when the jar cannot be loaded or the workload cannot be set up
     */
    IsolatedWorkload(Path jar, String name) throws Exception {
        Loader loader = new Loader(jar);
        Class<?> c = loader.loadClass(Workload.class.getName());
        workload = c.getConstructor(String.class).newInstance(name);
        round = c.getMethod("run", long.class);
    }

    /** The benchmark jar this code runs from. */
    static Path runningJar() throws Exception {
        return Path.of(IsolatedWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** {@link Workload#run(long)}: thread CPU nanoseconds per message over about {@code nanos} of wall time. */
    double round(long nanos) throws Exception {
        return (double) round.invoke(workload, nanos);
    }

    @Override
    public void close() throws Exception {
        ((AutoCloseable) workload).close();
    }

    /** Everything from the jar, except {@link Workload}, whose bytes come from the running jar. */
    private static final class Loader extends URLClassLoader {
        Loader(Path jar) throws MalformedURLException {
            super(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("no such jar: " + jar);
            }
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(Workload.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] b = bytesOf(name);
                    c = defineClass(name, b, 0, b.length);
                }
                return c;
            }
        }

        private static byte[] bytesOf(String name) {
            String res = name.replace('.', '/') + ".class";
            try (InputStream in = IsolatedWorkload.class.getClassLoader().getResourceAsStream(res)) {
                if (in == null) {
                    throw new IllegalStateException(res + " is not in the running jar");
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
