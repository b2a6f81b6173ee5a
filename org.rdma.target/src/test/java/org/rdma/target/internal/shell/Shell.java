package org.rdma.target.internal.shell;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.rdma.target.internal.config.TestTree;

/** targetcli over a test tree: each {@link #run} is one command line, its output returned. */
final class Shell implements AutoCloseable {
    static final String GENERATED = "iqn.2003-01.org.linux-iscsi.testhost.x8664:sn.0123456789ab";

    final TestTree t;

    Shell(Path dir) {
        t = new TestTree(dir.resolve("etc/target/saveconfig.json"));
    }

    String run(String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8)) {
            new Targetcli(t.tree, t.store, out, () -> GENERATED).run(List.of(args));
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        t.close();
    }
}
