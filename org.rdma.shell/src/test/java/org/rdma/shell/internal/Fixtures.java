package org.rdma.shell.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rdma.verbs.runtime.ClientDTO;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.PortDTO;
import org.rdma.verbs.runtime.ResourceDTO;
import org.rdma.verbs.runtime.RuntimeDTO;

/** Fixed DTOs: two devices, two clients, one failed provider, a few tracked objects. */
final class Fixtures {
    private Fixtures() {
    }

    static DeviceDTO device(String name, String nodeType, long fw, long guid, long sysGuid) {
        DeviceDTO d = new DeviceDTO();
        d.name = name;
        d.driverId = "mlx4sim";
        d.nodeType = nodeType;
        d.fwVer = fw;
        d.nodeGuid = guid;
        d.sysImageGuid = sysGuid;
        d.state = "REGISTERED";
        return d;
    }

    static PortDTO port(int n, String linkLayer, String state, String phys, int lid, int smLid, int lmc,
            String netdev, int caps, String... gids) {
        PortDTO p = new PortDTO();
        p.port = n;
        p.linkLayer = linkLayer;
        p.state = state;
        p.physState = phys;
        p.lid = lid;
        p.smLid = smLid;
        p.lmc = lmc;
        p.netdev = netdev;
        p.capabilityMask = caps;
        p.gids = gids;
        return p;
    }

    static ClientDTO client(int id, String name, long serviceId, String... devices) {
        ClientDTO c = new ClientDTO();
        c.clientId = id;
        c.name = name;
        c.serviceId = serviceId;
        c.devices = devices;
        return c;
    }

    static FailedDTO failed(long serviceId, String name, int reason, String message) {
        FailedDTO f = new FailedDTO();
        f.serviceId = serviceId;
        f.name = name;
        f.failureReason = reason;
        f.message = message;
        return f;
    }

    static ResourceDTO resource(String device, String type, long id, String owner, String... attrs) {
        ResourceDTO r = new ResourceDTO();
        r.device = device;
        r.type = type;
        r.id = id;
        r.owner = owner;
        r.attrs = new LinkedHashMap<>();
        for (int i = 0; i < attrs.length; i += 2) {
            r.attrs.put(attrs[i], attrs[i + 1]);
        }
        return r;
    }

    /** {@code 2.42.5000} as mlx4 encodes it. */
    static final long FW = (2L << 32) | (42L << 16) | 5000L;

    static RuntimeDTO runtimeDto() {
        RuntimeDTO dto = new RuntimeDTO();
        dto.devices = new DeviceDTO[] {
            device("mlx4_0", "CA", FW, 0x0002c90300a1b2c0L, 0x0002c90300a1b2c3L),
            device("rxe0", "CA", 0, 0x5054fffe123456L, 0x5054fffe123456L),
        };
        dto.devices[0].ports = new PortDTO[] {
            port(1, "InfiniBand", "ACTIVE", "LINK_UP", 1, 1, 0, null, 0x02514868,
                    "0=fe80:0000:0000:0000:0002:c903:00a1:b2c1"),
            port(2, "Ethernet", "ACTIVE", "LINK_UP", 0, 0, 0, "eth2", 0x04010000,
                    "0=fe80:0000:0000:0000:0202:c9ff:fea1:b2c2", "1=0000:0000:0000:0000:0000:ffff:c0a8:0102"),
        };
        dto.devices[1].ports = new PortDTO[] {
            port(1, "Ethernet", "DOWN", "DISABLED", 0, 0, 0, "eth0", 0x00010000),
        };
        // Index 1 was a device since removed: the kernel never reuses an index.
        dto.devices[1].index = 2;
        dto.clients = new ClientDTO[] {
            client(0, "umad", 41, "mlx4_0", "rxe0"),
            client(1, "cma", 52, "mlx4_0"),
            client(2, "srpt", 107),
        };
        dto.failedProviders = new FailedDTO[] {
            failed(63, "mlx4_", FailedDTO.FAILURE_REASON_BAD_NAME_TEMPLATE,
                    "EINVAL: name template 'mlx4_' has no %d"),
        };
        dto.failedClients = new FailedDTO[0];
        return dto;
    }

    static List<ResourceDTO> resources() {
        return List.of(
                resource("mlx4_0", "qp", 1, "ib_core", "link", "mlx4_0/1", "lqpn", "0", "type", "SMI",
                        "state", "RTS", "sq-psn", "0"),
                resource("mlx4_0", "qp", 2, "ib_core", "link", "mlx4_0/1", "lqpn", "1", "type", "GSI",
                        "state", "RTS", "sq-psn", "0"),
                resource("mlx4_0", "qp", 3, "ib_core", "link", "mlx4_0/2", "lqpn", "1", "type", "GSI",
                        "state", "RTS", "sq-psn", "0"),
                resource("mlx4_0", "pd", 1, "ib_core", "dev", "mlx4_0", "pdn", "1", "local_dma_lkey", "0x8000",
                        "users", "4"),
                resource("rxe0", "pd", 1, "org.rdma.cm", "pdn", "1"));
    }

    /** An {@link IbRuntime} over the fixed DTOs. */
    static IbRuntime runtime() {
        return new IbRuntime() {
            @Override
            public RuntimeDTO getRuntimeDTO() {
                return runtimeDto();
            }

            @Override
            public ResourceDTO[] resources(String device, String type) {
                List<ResourceDTO> out = new ArrayList<>();
                for (ResourceDTO r : Fixtures.resources()) {
                    if ((device == null || device.equals(r.device)) && (type == null || type.equals(r.type))) {
                        out.add(r);
                    }
                }
                return out.toArray(new ResourceDTO[0]);
            }

            @Override
            public Map<String, Integer> resourceCounts(String device) {
                Map<String, Integer> m = new LinkedHashMap<>();
                // deliberately not in the kernel's order, with an extra type at the end
                for (String t : new String[] {"qp", "srq", "ah", "pd", "cq", "mr", "mw", "wq", "cm_id", "ctx"}) {
                    m.put(t, 0);
                }
                for (ResourceDTO r : Fixtures.resources()) {
                    if (r.device.equals(device)) {
                        m.merge(r.type, 1, Integer::sum);
                    }
                }
                m.put("counter", 0);
                return m;
            }

            @Override
            public Map<String, Long> hwStats(String device, int port) {
                return Fixtures.hwStats(device, port);
            }
        };
    }

    /** rxe0's one port counts; mlx4_0's ports have no counters; a count past 2^63 prints unsigned. */
    static Map<String, Long> hwStats(String device, int port) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (device.equals("rxe0") && port == 1) {
            m.put("sent_pkts", 12L);
            m.put("rcvd_pkts", 11L);
            m.put("icrc_err", -1L);
        }
        return m;
    }

    /** What {@code command} prints, line by line. */
    static List<String> lines(Consumer<PrintStream> command) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            command.accept(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
