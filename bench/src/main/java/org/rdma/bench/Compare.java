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
import java.util.Arrays;
import java.util.Locale;

/**
 * Compares two builds of the datapath in one JVM: each benchmark jar is loaded by a class loader
 * of its own, and the two run a {@link Workload} in alternating rounds, so both see the same
 * moments of a shared machine. On these machines separate runs of one build differ by up to 2x;
 * the ratio of neighbouring rounds does not drift with them, which is what lets a change of a
 * few per cent be seen. The figure is thread CPU time per message; the verdict is the median of
 * the per-round ratios with their range.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.rdma.bench.Compare OLD.jar NEW.jar [workload [rounds [seconds]]]</pre>
 *
 * The {@code Workload} class is taken from the jar running the comparison and defined anew in each
 * loader, so an old jar built before it existed can be compared too (it needs {@code Writer},
 * {@code Subnet} and {@code Wire} as they are today).
 */
public final class Compare {
    private Compare() {
    }

    /**
     * Entry point.
     *
     * @param args old jar, new jar, workload (default {@code write8list}), rounds (default 12), seconds
     *     per round (default 1)
     * @throws Exception when a jar cannot be loaded or a workload fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Compare OLD.jar NEW.jar [workload [rounds [seconds]]]; workloads: "
                    + String.join(", ", Workload.NAMES));
            System.exit(2);
        }
        String name = args.length > 2 ? args[2] : "write8list";
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 12;
        long roundNanos = (long) ((args.length > 4 ? Double.parseDouble(args[4]) : 1.0) * 1e9);
        Build[] builds = {new Build(Path.of(args[0]), name), new Build(Path.of(args[1]), name)};
        for (int k = 0; k < 4; k++) {
            for (Build b : builds) {
                b.round(roundNanos);
            }
        }
        double[][] ns = new double[2][rounds];
        double[] ratio = new double[rounds];
        for (int k = 0; k < rounds; k++) {
            // Alternate which build goes first, so neither always follows the other's warm caches.
            for (int j = 0; j < 2; j++) {
                int i = (k & 1) ^ j;
                ns[i][k] = builds[i].round(roundNanos);
            }
            ratio[k] = ns[1][k] / ns[0][k];
        }
        for (Build b : builds) {
            b.close();
        }
        System.out.printf(Locale.ROOT, "%s, CPU ns per message in %d alternating rounds of %.1f s%n", name, rounds,
                roundNanos / 1e9);
        System.out.printf(Locale.ROOT, "  old %s: %s (median %.1f)%n", args[0], list(ns[0]), median(ns[0]));
        System.out.printf(Locale.ROOT, "  new %s: %s (median %.1f)%n", args[1], list(ns[1]), median(ns[1]));
        double[] r = ratio.clone();
        Arrays.sort(r);
        System.out.printf(Locale.ROOT, "  new/old: median %.3f, rounds %.3f .. %.3f%n", median(ratio), r[0], r[rounds - 1]);
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static String list(double[] x) {
        StringBuilder b = new StringBuilder();
        for (double v : x) {
            b.append(b.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.0f", v));
        }
        return b.toString();
    }

    /** One jar, its loader and its workload. */
    private static final class Build {
        private final Object workload;
        private final Method round;

        Build(Path jar, String name) throws Exception {
            WorkloadLoader loader = new WorkloadLoader(jar);
            Class<?> c = loader.loadClass(Workload.class.getName());
            workload = c.getConstructor(String.class).newInstance(name);
            round = c.getMethod("run", long.class);
        }

        double round(long nanos) throws Exception {
            return (double) round.invoke(workload, nanos);
        }

        void close() throws Exception {
            ((AutoCloseable) workload).close();
        }
    }

    /** Everything from the jar, except {@link Workload}, whose bytes come from this jar. */
    private static final class WorkloadLoader extends URLClassLoader {
        WorkloadLoader(Path jar) throws MalformedURLException {
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
            try (InputStream in = Compare.class.getClassLoader().getResourceAsStream(res)) {
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
