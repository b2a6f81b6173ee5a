package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/** {@code rdma:link}: iproute2's {@code rdma link show} lines from fixed port DTOs. */
class LinkCommandTest {
    private final LinkCommand link = new LinkCommand(Fixtures.runtime());

    private static final String IB = "link mlx4_0/1 subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0"
            + " state ACTIVE physical_state LINK_UP";
    private static final String ROCE = "link mlx4_0/2 state ACTIVE physical_state LINK_UP netdev eth2";
    private static final String RXE = "link rxe0/1 state DOWN physical_state DISABLED netdev eth0";

    @Test
    void everyPortOfEveryDevice() {
        assertEquals(List.of(IB, ROCE, RXE), Fixtures.lines(out -> link.show(out)));
        assertEquals(List.of(IB, ROCE, RXE), Fixtures.lines(out -> link.show(out, "show")));
    }

    @Test
    void oneDeviceOrOnePort() {
        assertEquals(List.of(IB, ROCE), Fixtures.lines(out -> link.show(out, "mlx4_0")));
        assertEquals(List.of(ROCE), Fixtures.lines(out -> link.show(out, "show", "mlx4_0/2")));
    }

    @Test
    void detailsAddCapsAndGids() {
        assertEquals(List.of(IB,
                "    caps: <TRAP, AUTO_MIGR, SL_MAP, SYS_IMAGE_GUID, EXTENDED_SPEEDS, CM, VENDOR_CLASS,"
                        + " CAP_MASK_NOTICE, CLIENT_REG>",
                "    gid 0 fe80:0000:0000:0000:0002:c903:00a1:b2c1"),
                Fixtures.lines(out -> link.show(out, "-d", "mlx4_0/1")));
        assertEquals(List.of(ROCE, "    caps: <CM, OTHER_LOCAL_CHANGES>",
                "    gid 0 fe80:0000:0000:0000:0202:c9ff:fea1:b2c2",
                "    gid 1 0000:0000:0000:0000:0000:ffff:c0a8:0102"),
                Fixtures.lines(out -> link.show(out, "show", "mlx4_0/2", "--details")));
    }

    @Test
    void errors() {
        RdmaException e = assertThrows(RdmaException.class, () -> link.show(System.out, "mlx4_7/1"));
        assertEquals("ENODEV: no RDMA device named 'mlx4_7'", e.getMessage());
        e = assertThrows(RdmaException.class, () -> link.show(System.out, "mlx4_0/3"));
        assertEquals("EINVAL: device mlx4_0 has no port 3", e.getMessage());
        e = assertThrows(RdmaException.class, () -> link.show(System.out, "mlx4_0/x"));
        assertEquals("EINVAL: wrong port 'x'; usage: " + LinkCommand.USAGE, e.getMessage());
        e = assertThrows(RdmaException.class, () -> link.show(System.out, "mlx4_0", "rxe0"));
        assertEquals(Errno.EINVAL, e.errno());
    }
}
