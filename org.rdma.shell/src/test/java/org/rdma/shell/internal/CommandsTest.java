package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.ResourceDTO;
import org.rdma.verbs.runtime.RuntimeDTO;

/** The commands against a fixed {@link IbRuntime}: what they print for each argument form. */
class CommandsTest {
    private final DevCommand dev = new DevCommand(Fixtures.runtime());
    private final ResCommand res = new ResCommand(Fixtures.runtime());
    private final ClientsCommand clients = new ClientsCommand(Fixtures.runtime());

    private static final String MLX4_0 = "0: mlx4_0: node_type ca fw 2.42.5000 node_guid 0002:c903:00a1:b2c0"
            + " sys_image_guid 0002:c903:00a1:b2c3";
    private static final String RXE0 =
            "2: rxe0: node_type ca node_guid 0050:54ff:fe12:3456 sys_image_guid 0050:54ff:fe12:3456";

    @Test
    void devShowsEveryDeviceOrOne() {
        assertEquals(List.of(MLX4_0, RXE0), Fixtures.lines(out -> dev.show(out)));
        assertEquals(List.of(MLX4_0, RXE0), Fixtures.lines(out -> dev.show(out, "show")));
        assertEquals(List.of(RXE0), Fixtures.lines(out -> dev.show(out, "rxe0")));
        assertEquals(List.of(RXE0), Fixtures.lines(out -> dev.show(out, "show", "rxe0")));
    }

    @Test
    void devUnknownNameIsEnodev() {
        RdmaException e = assertThrows(RdmaException.class, () -> dev.show(System.out, "mlx4_7"));
        assertEquals(Errno.ENODEV, e.errno());
        assertEquals("ENODEV: no RDMA device named 'mlx4_7'", e.getMessage());
    }

    @Test
    void devWithNoDevicesPrintsNothingAsIproute2() {
        DevCommand empty = new DevCommand(new Empty());
        assertEquals(List.of(), Fixtures.lines(out -> empty.show(out)));
    }

    @Test
    void resSummaryPerDevice() {
        assertEquals(List.of(
                "0: mlx4_0: pd 1 cq 0 qp 3 cm_id 0 mr 0 ctx 0 srq 0 wq 0 mw 0 ah 0 counter 0",
                "2: rxe0: pd 1 cq 0 qp 0 cm_id 0 mr 0 ctx 0 srq 0 wq 0 mw 0 ah 0 counter 0"),
                Fixtures.lines(out -> res.show(out)));
        assertEquals(List.of("2: rxe0: pd 1 cq 0 qp 0 cm_id 0 mr 0 ctx 0 srq 0 wq 0 mw 0 ah 0 counter 0"),
                Fixtures.lines(out -> res.show(out, "show", "rxe0")));
    }

    @Test
    void resSummarySkipsADeviceUnregisteredSinceTheSnapshotButNotANamedOne() {
        IbRuntime fixed = Fixtures.runtime();
        IbRuntime racing = new IbRuntime() {
            @Override
            public RuntimeDTO getRuntimeDTO() {
                return fixed.getRuntimeDTO();
            }

            @Override
            public ResourceDTO[] resources(String device, String type) {
                return fixed.resources(device, type);
            }

            @Override
            public java.util.Map<String, Integer> resourceCounts(String device) {
                if (device.equals("mlx4_0")) {
                    throw new RdmaException(Errno.ENODEV, "no device " + device);
                }
                return fixed.resourceCounts(device);
            }

            @Override
            public java.util.Map<String, Long> hwStats(String device, int port) {
                return fixed.hwStats(device, port);
            }
        };
        ResCommand cmd = new ResCommand(racing);
        assertEquals(List.of("2: rxe0: pd 1 cq 0 qp 0 cm_id 0 mr 0 ctx 0 srq 0 wq 0 mw 0 ah 0 counter 0"),
                Fixtures.lines(out -> cmd.show(out)));
        assertEquals(Errno.ENODEV, assertThrows(RdmaException.class, () -> cmd.show(System.out, "mlx4_0")).errno());
    }

    @Test
    void resListsObjectsOfAType() {
        assertEquals(List.of(
                "link mlx4_0/1 lqpn 0 type SMI state RTS sq-psn 0 comm [ib_core]",
                "link mlx4_0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]",
                "link mlx4_0/2 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]"),
                Fixtures.lines(out -> res.show(out, "qp")));
        assertEquals(List.of(
                "dev mlx4_0 pdn 1 local_dma_lkey 0x8000 users 4 comm [ib_core]",
                "dev rxe0 pdn 1 comm [org.rdma.cm]"),
                Fixtures.lines(out -> res.show(out, "show", "pd")));
        assertEquals(List.of("dev rxe0 pdn 1 comm [org.rdma.cm]"), Fixtures.lines(out -> res.show(out, "pd", "rxe0")));
        assertEquals(List.of("dev rxe0 pdn 1 comm [org.rdma.cm]"),
                Fixtures.lines(out -> res.show(out, "pd", "dev", "rxe0")));
        assertEquals(List.of(), Fixtures.lines(out -> res.show(out, "mw")));
    }

    @Test
    void resQpLinkFiltersByPort() {
        assertEquals(List.of("link mlx4_0/2 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]"),
                Fixtures.lines(out -> res.show(out, "qp", "link", "mlx4_0/2")));
    }

    @Test
    void resUnknownDeviceIsEnodevAndBadArgumentsEinval() {
        assertEquals(Errno.ENODEV, assertThrows(RdmaException.class, () -> res.show(System.out, "mlx4_9")).errno());
        assertEquals(Errno.ENODEV,
                assertThrows(RdmaException.class, () -> res.show(System.out, "qp", "mlx4_9/1")).errno());
        RdmaException e = assertThrows(RdmaException.class, () -> res.show(System.out, "qpx", "mlx4_0"));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("EINVAL: unknown resource type 'qpx'; usage: " + ResCommand.USAGE, e.getMessage());
        assertTrue(ResCommand.USAGE.contains(" " + String.join("|", RdmaFormat.RESOURCE_TYPES) + " "),
                "the usage line (also the command's help) names every type rdma:res lists: " + ResCommand.USAGE);
    }

    @Test
    void clientsShowsClientsThenFailures() {
        assertEquals(List.of(
                "ID  NAME  SERVICE.ID  DEVICES",
                "0   umad  41          mlx4_0,rxe0",
                "1   cma   52          mlx4_0",
                "2   srpt  107         -",
                "FAILED    SERVICE.ID  NAME   REASON             MESSAGE",
                "provider  63          mlx4_  BAD_NAME_TEMPLATE  EINVAL: name template 'mlx4_' has no %d"),
                Fixtures.lines(clients::show));
    }

    @Test
    void clientsWithNothingRegisteredSaysSo() {
        ClientsCommand empty = new ClientsCommand(new Empty());
        assertEquals(List.of("ID  NAME  SERVICE.ID  DEVICES", "failed providers and clients: none"),
                Fixtures.lines(empty::show));
    }

    /** A runtime with nothing registered; its arrays are null, which the commands accept. */
    private static final class Empty implements IbRuntime {
        @Override
        public RuntimeDTO getRuntimeDTO() {
            return new RuntimeDTO();
        }

        @Override
        public ResourceDTO[] resources(String device, String type) {
            return new ResourceDTO[0];
        }

        @Override
        public java.util.Map<String, Integer> resourceCounts(String device) {
            return java.util.Map.of();
        }

        @Override
        public java.util.Map<String, Long> hwStats(String device, int port) {
            return java.util.Map.of();
        }
    }
}
