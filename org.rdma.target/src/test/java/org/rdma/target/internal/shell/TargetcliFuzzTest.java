package org.rdma.target.internal.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rdma.target.fabric.TargetException;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * What a user types: sizes, and whole command lines (paths with {@code ..} and names in any
 * case, positional and keyword parameters). Only the commands that change nothing run here
 * (ls, pwd, get, help): the others write files and configurations the fuzzer must not reach.
 * Everything else either works or fails with an errno.
 */
class TargetcliFuzzTest {
    private static final Set<String> READ_ONLY = Set.of("ls", "pwd", "get", "help", "cd");
    private static Shell shell;

    private static synchronized Shell shell() {
        if (shell == null) {
            Shell s = new Shell(Path.of(System.getProperty("java.io.tmpdir"), "targetcli-fuzz-unused"));
            s.run("/backstores/ramdisk", "create", "r0", "1M");
            s.run("/iscsi", "create", "iqn.2003-01.org.example:t1");
            s.run("/iscsi/iqn.2003-01.org.example:t1/tpg1/luns", "create", "/backstores/ramdisk/r0");
            s.run("/iscsi/iqn.2003-01.org.example:t1/tpg1/acls", "create", "iqn.1994-05.com.example:h");
            shell = s;
        }
        return shell;
    }

    private static void errno(TargetException e) {
        assertTrue(e.errno().matches("E[A-Z]+"), e.getMessage());
        assertTrue(e.getMessage().startsWith(e.errno() + ": "), e.getMessage());
    }

    /** The input as a size. */
    @FuzzTest
    void size(byte[] input) {
        String s = new String(input, StandardCharsets.UTF_8);
        long n;
        try {
            n = Sizes.parse(s);
        } catch (TargetException e) {
            assertEquals("EINVAL", e.errno(), e.getMessage());
            return;
        }
        assertTrue(n >= 0, s);
        assertTrue(Sizes.human(n).matches("[0-9]+ bytes|[0-9]+\\.[0-9](KiB|MiB|GiB|TiB|PiB|EiB)"), Sizes.human(n));
    }

    /** The input as a command line, one argument per line. */
    @FuzzTest
    void commandLine(byte[] input) {
        List<String> args = Arrays.asList(new String(input, StandardCharsets.UTF_8).split("\n", -1));
        int c = !args.isEmpty() && (args.get(0).contains("/") || args.get(0).startsWith(".")) ? 1 : 0;
        if (args.size() <= c || !READ_ONLY.contains(args.get(c))) {
            return;
        }
        try {
            shell().run(args.toArray(new String[0]));
        } catch (TargetException e) {
            errno(e);
        }
    }

    private static byte[] lines(String... args) {
        return String.join("\n", args).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void seeds() throws Exception {
        Map<String, byte[]> size = new LinkedHashMap<>();
        size.put("gib", "1GiB".getBytes(StandardCharsets.US_ASCII));
        size.put("bytes", "4096".getBytes(StandardCharsets.US_ASCII));
        size.put("bad", "1.5G".getBytes(StandardCharsets.US_ASCII));
        FuzzSeeds.check(TargetcliFuzzTest.class, "size", size);
        Map<String, byte[]> cmd = new LinkedHashMap<>();
        cmd.put("ls-depth", lines("ls", "/iscsi/IQN.2003-01.org.example:T1/tpg1", "depth=2"));
        cmd.put("ls-dotdot", lines("/backstores/../iscsi/./iqn.2003-01.org.example:t1", "ls", "tpg1/acls/.."));
        cmd.put("get-attribute", lines("/iscsi/iqn.2003-01.org.example:t1/tpg1", "get", "attribute", "login_timeout"));
        cmd.put("get-auth", lines("/iscsi/iqn.2003-01.org.example:t1/tpg1/acls/iqn.1994-05.com.example:h", "get", "auth"));
        cmd.put("pwd", lines("backstores/ramdisk/r0", "pwd"));
        FuzzSeeds.check(TargetcliFuzzTest.class, "commandLine", cmd);
    }
}
