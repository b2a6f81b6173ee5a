package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/** {@code rdma:statistic} prints what iproute2's {@code rdma statistic show} prints, for each argument form. */
class StatisticCommandTest {
    private final StatisticCommand stat = new StatisticCommand(Fixtures.runtime());

    private static final String RXE0 = "link rxe0/1 sent_pkts 12 rcvd_pkts 11 icrc_err 18446744073709551615";

    @Test
    void everyLinkOrOne() {
        List<String> all = List.of("link mlx4_0/1", "link mlx4_0/2", RXE0);
        assertEquals(all, Fixtures.lines(out -> stat.show(out)));
        assertEquals(all, Fixtures.lines(out -> stat.show(out, "show")));
        assertEquals(all, Fixtures.lines(out -> stat.show(out, "show", "link")));
        assertEquals(List.of(RXE0), Fixtures.lines(out -> stat.show(out, "show", "link", "rxe0")));
        assertEquals(List.of(RXE0), Fixtures.lines(out -> stat.show(out, "link", "rxe0/1")));
        assertEquals(List.of("link mlx4_0/2"), Fixtures.lines(out -> stat.show(out, "link", "mlx4_0/2")));
    }

    @Test
    void badArgumentsNameTheErrno() {
        assertEquals(Errno.ENODEV, assertThrows(RdmaException.class, () -> stat.show(System.out, "link", "rxe9")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> stat.show(System.out, "link", "rxe0/2")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> stat.show(System.out, "link", "rxe0/x")).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> stat.show(System.out, "qp")).errno());
    }
}
