package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.ClientDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.ResourceDTO;
import org.rdma.verbs.runtime.RuntimeDTO;

class RdmaFormatTest {

    @Test
    void guidIsFourGroupsOfFourHexDigitsMostSignificantFirst() {
        assertEquals("0002:c903:00a1:b2c0", RdmaFormat.guid(0x0002c90300a1b2c0L));
        assertEquals("0000:0000:0000:0000", RdmaFormat.guid(0));
        assertEquals("ffff:ffff:ffff:ffff", RdmaFormat.guid(-1L));
    }

    @Test
    void firmwareIsMajorMinorSubminorAsMlx4PrintsIt() {
        assertEquals("2.42.5000", RdmaFormat.firmware(Fixtures.FW));
        assertEquals("65535.65535.65535", RdmaFormat.firmware(0xffffffffffffL));
        assertNull(RdmaFormat.firmware(0));
    }

    @Test
    void nodeTypeIsSpelledAsIproute2() {
        assertEquals("ca", RdmaFormat.nodeType("CA"));
        assertEquals("usnic_udp", RdmaFormat.nodeType("USNIC_UDP"));
        assertEquals("unknown", RdmaFormat.nodeType(null));
    }

    @Test
    void devLineMatchesRdmaDevShow() {
        RuntimeDTO dto = Fixtures.runtimeDto();
        assertEquals("0: mlx4_0: node_type ca fw 2.42.5000 node_guid 0002:c903:00a1:b2c0"
                + " sys_image_guid 0002:c903:00a1:b2c3", RdmaFormat.devLine(0, dto.devices[0]));
        // no firmware: no fw item, as for rxe
        assertEquals("1: rxe0: node_type ca node_guid 0050:54ff:fe12:3456 sys_image_guid 0050:54ff:fe12:3456",
                RdmaFormat.devLine(1, dto.devices[1]));
    }

    @Test
    void resSummaryUsesTheKernelOrderThenTheRest() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("srq", 2);
        counts.put("wq", 1);
        counts.put("qp", 4);
        counts.put("ctx", 0);
        counts.put("xrcd", 7);
        counts.put("pd", 3);
        counts.put("cq", 4);
        counts.put("mr", 0);
        counts.put("cm_id", 0);
        assertEquals("0: mlx4_0: pd 3 cq 4 qp 4 cm_id 0 mr 0 ctx 0 srq 2 wq 1 xrcd 7",
                RdmaFormat.resSummaryLine(0, "mlx4_0", counts));
        assertEquals("3: rxe0:", RdmaFormat.resSummaryLine(3, "rxe0", Map.of()));
    }

    @Test
    void resLinePrintsAttrsInOrderThenComm() {
        List<ResourceDTO> r = Fixtures.resources();
        assertEquals("link mlx4_0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]", RdmaFormat.resLine(r.get(1)));
        assertEquals("dev mlx4_0 pdn 1 local_dma_lkey 0x8000 users 4 comm [ib_core]", RdmaFormat.resLine(r.get(3)));
    }

    @Test
    void resLineWithoutDeviceAttrStartsWithDevAndWithoutOwnerHasNoComm() {
        assertEquals("dev rxe0 pdn 1 comm [org.rdma.cm]", RdmaFormat.resLine(Fixtures.resources().get(4)));
        ResourceDTO bare = Fixtures.resource("rxe0", "cq", 5, null);
        bare.attrs = null;
        assertEquals("dev rxe0", RdmaFormat.resLine(bare));
    }

    @Test
    void clientTableListsClientsInRegistrationOrder() {
        assertEquals(List.of(
                "ID  NAME  SERVICE.ID  DEVICES",
                "0   umad  41          mlx4_0,rxe0",
                "1   cma   52          mlx4_0",
                "2   srpt  107         -"),
                RdmaFormat.clientTable(Fixtures.runtimeDto().clients));
        assertEquals(List.of("ID  NAME  SERVICE.ID  DEVICES"), RdmaFormat.clientTable(null));
        assertEquals(List.of("ID  NAME  SERVICE.ID  DEVICES"), RdmaFormat.clientTable(new ClientDTO[0]));
    }

    @Test
    void failedTableShowsProvidersThenClientsWithTheReason() {
        FailedDTO[] clients = {Fixtures.failed(88, null, FailedDTO.FAILURE_REASON_BAD_CLIENT, "EINVAL: no name")};
        assertEquals(List.of(
                "FAILED    SERVICE.ID  NAME   REASON             MESSAGE",
                "provider  63          mlx4_  BAD_NAME_TEMPLATE  EINVAL: name template 'mlx4_' has no %d",
                "client    88          -      BAD_CLIENT         EINVAL: no name"),
                RdmaFormat.failedTable(Fixtures.runtimeDto().failedProviders, clients));
        assertEquals(List.of(), RdmaFormat.failedTable(null, new FailedDTO[0]));
    }

    @Test
    void everyFailureReasonHasItsConstantName() {
        assertEquals("BAD_NAME_TEMPLATE", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_BAD_NAME_TEMPLATE));
        assertEquals("MISSING_OPERATION", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_MISSING_OPERATION));
        assertEquals("DUPLICATE_GUID", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_DUPLICATE_GUID));
        assertEquals("NAME_IN_USE", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_NAME_IN_USE));
        assertEquals("DRIVER_ERROR", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_DRIVER_ERROR));
        assertEquals("UNREGISTERED", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_UNREGISTERED));
        assertEquals("BAD_CLIENT", RdmaFormat.failureReason(FailedDTO.FAILURE_REASON_BAD_CLIENT));
        assertEquals("REASON_99", RdmaFormat.failureReason(99));
    }

    @Test
    void tablePadsAllButTheLastColumn() {
        assertEquals(List.of("A    BB", "ccc  d", "e    "),
                RdmaFormat.table(List.of("A", "BB"), List.of(List.of("ccc", "d"), List.of("e", ""))));
    }

    @Test
    void unknownDeviceIsEnodevNamingIt() {
        RdmaException e = assertThrows(RdmaException.class,
                () -> RdmaFormat.deviceIndex(Fixtures.runtimeDto().devices, "mlx4_9"));
        assertEquals(Errno.ENODEV, e.errno());
        assertEquals("ENODEV: no RDMA device named 'mlx4_9'", e.getMessage());
        assertEquals(1, RdmaFormat.deviceIndex(Fixtures.runtimeDto().devices, "rxe0"));
    }

    @Test
    void argumentsDropALeadingShowAndRejectExtras() {
        assertEquals(List.of("mlx4_0"), RdmaFormat.arguments(new String[] {"show", "mlx4_0"}, 1, "u"));
        assertEquals(List.of(), RdmaFormat.arguments(null, 1, "u"));
        RdmaException e = assertThrows(RdmaException.class,
                () -> RdmaFormat.arguments(new String[] {"a", "b"}, 1, "rdma:dev [show] [DEV]"));
        assertEquals("EINVAL: too many arguments; usage: rdma:dev [show] [DEV]", e.getMessage());
    }
}
