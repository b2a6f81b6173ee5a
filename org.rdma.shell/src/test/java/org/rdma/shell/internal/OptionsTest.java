package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/** The getopt_long-style parser: forms, order, and EINVAL messages. */
class OptionsTest {
    private static Options opts() {
        return new Options("tool [-d DEV] [-v]").option('d', "ib-dev", true).option('v', "verbose", false)
                .option('n', "iters", true);
    }

    @Test
    void shortLongAttachedAndOrder() {
        Options o = opts().parse("-dmlx4_0", "--iters=5", "-v", "x", "--ib-dev", "mlx4_1", "--", "-v");
        assertEquals("mlx4_1", o.get("ib-dev", null));
        assertEquals(5, o.number("iters", 0, 1, 10));
        assertEquals(List.of("x", "-v"), o.operands());
        assertEquals(List.of(new Options.Occurrence("ib-dev", "mlx4_0"), new Options.Occurrence("iters", "5"),
                new Options.Occurrence("verbose", null), new Options.Occurrence("ib-dev", "mlx4_1")), o.occurrences());
        assertEquals(0x10, opts().parse("-n", "0x10").number("iters", 0, 1, 100));
    }

    @Test
    void errorsAreEinvalWithUsage() {
        assertMessage("EINVAL: invalid option -- 'x'; usage: tool [-d DEV] [-v]", "-x");
        assertMessage("EINVAL: unrecognized option '--bogus'; usage: tool [-d DEV] [-v]", "--bogus");
        assertMessage("EINVAL: option requires an argument -- 'd'; usage: tool [-d DEV] [-v]", "-d");
        assertMessage("EINVAL: option '--ib-dev' requires an argument; usage: tool [-d DEV] [-v]", "--ib-dev");
        assertMessage("EINVAL: option '--verbose' doesn't allow an argument; usage: tool [-d DEV] [-v]",
                "--verbose=1");
        RdmaException e = assertThrows(RdmaException.class, () -> opts().parse("-n", "abc").number("iters", 0, 1, 9));
        assertEquals("EINVAL: invalid value 'abc' for --iters; usage: tool [-d DEV] [-v]", e.getMessage());
        e = assertThrows(RdmaException.class, () -> opts().parse("-n", "0").number("iters", 0, 1, 9));
        assertEquals("EINVAL: --iters must be within [1, 9], got 0; usage: tool [-d DEV] [-v]", e.getMessage());
    }

    private static void assertMessage(String message, String... args) {
        RdmaException e = assertThrows(RdmaException.class, () -> opts().parse(args));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(message, e.getMessage());
    }
}
