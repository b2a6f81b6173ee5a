package org.rdma.shell.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.ClientDTO;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.PortDTO;
import org.rdma.verbs.runtime.ResourceDTO;

/**
 * Text shared by the {@code rdma:*} commands: the line formats of iproute2's {@code rdma} tool
 * ({@code rdma/dev.c}, {@code rdma/res.c}, {@code rdma/res-*.c}), plain tables, and the device
 * lookup every command does on its arguments. Pure functions of the runtime DTOs, so they are
 * tested without a framework.
 *
 * <p>Like iproute2, a line is a sequence of {@code key value} items separated by single spaces
 * (iproute2 leaves a trailing space; these lines do not).
 */
final class RdmaFormat {
    /**
     * Resource types in the order the kernel reports them in {@code rdma res show}
     * ({@code fill_res_info()} in {@code nldev.c}: pd cq qp cm_id mr ctx srq), followed by the
     * types this platform tracks beyond the kernel's summary.
     */
    static final List<String> RESOURCE_ORDER =
            List.of("pd", "cq", "qp", "cm_id", "mr", "ctx", "srq", "wq", "mw", "ah");

    /** The types {@code rdma:res TYPE} lists ({@link org.rdma.verbs.runtime.IbRuntime#resources}). */
    static final List<String> RESOURCE_TYPES = List.of("qp", "cq", "pd", "mr", "cm_id", "srq", "mw", "ah", "wq");

    /** Column separator of {@link #table}. */
    private static final String GAP = "  ";

    private RdmaFormat() {
    }

    // ---------------------------------------------------------------- values

    /**
     * A GUID as iproute2 prints {@code node_guid} and {@code sys_image_guid}: four groups of
     * four hex digits, most significant first, e.g. {@code 0002:c903:00a1:b2c0}.
     */
    static String guid(long guid) {
        return String.format(Locale.ROOT, "%04x:%04x:%04x:%04x",
                (guid >>> 48) & 0xffff, (guid >>> 32) & 0xffff, (guid >>> 16) & 0xffff, guid & 0xffff);
    }

    /**
     * The firmware version string a driver's {@code get_dev_fw_str()} makes from {@code fw_ver},
     * as mlx4 does: major (bits 63..32), minor (31..16), sub-minor (15..0), e.g.
     * {@code 2.42.5000}. {@code null} for 0: a driver without firmware (rxe) reports none, and
     * iproute2 then prints no {@code fw} item.
     */
    static String firmware(long fwVer) {
        if (fwVer == 0) {
            return null;
        }
        return (fwVer >>> 32) + "." + ((fwVer >>> 16) & 0xffff) + "." + (fwVer & 0xffff);
    }

    /**
     * The node type as iproute2's {@code node_type_to_str()} spells it: {@code ca},
     * {@code switch}, {@code router}, {@code rnic}, {@code usnic}, {@code usnic_udp},
     * {@code unspecified}; {@code unknown} when missing.
     */
    static String nodeType(String name) {
        return name == null || name.isEmpty() ? "unknown" : name.toLowerCase(Locale.ROOT);
    }

    /** The name of a {@code FailedDTO.FAILURE_REASON_*} constant, e.g. {@code DUPLICATE_GUID}. */
    static String failureReason(int reason) {
        switch (reason) {
            case FailedDTO.FAILURE_REASON_BAD_NAME_TEMPLATE:
                return "BAD_NAME_TEMPLATE";
            case FailedDTO.FAILURE_REASON_MISSING_OPERATION:
                return "MISSING_OPERATION";
            case FailedDTO.FAILURE_REASON_DUPLICATE_GUID:
                return "DUPLICATE_GUID";
            case FailedDTO.FAILURE_REASON_NAME_IN_USE:
                return "NAME_IN_USE";
            case FailedDTO.FAILURE_REASON_DRIVER_ERROR:
                return "DRIVER_ERROR";
            case FailedDTO.FAILURE_REASON_UNREGISTERED:
                return "UNREGISTERED";
            case FailedDTO.FAILURE_REASON_BAD_CLIENT:
                return "BAD_CLIENT";
            default:
                return "REASON_" + reason;
        }
    }

    // ---------------------------------------------------------------- rdma dev / rdma res lines

    /**
     * One line of {@code rdma dev show} ({@code dev_parse_cb()}):
     * {@code 0: mlx4_0: node_type ca fw 2.42.5000 node_guid 0002:c903:00a1:b2c0 sys_image_guid 0002:c903:00a1:b2c3}.
     */
    static String devLine(int index, DeviceDTO device) {
        Line line = new Line().head(index, device.name).item("node_type", nodeType(device.nodeType));
        line.item("fw", firmware(device.fwVer));
        line.item("node_guid", guid(device.nodeGuid)).item("sys_image_guid", guid(device.sysImageGuid));
        return line.toString();
    }

    /**
     * One line of {@code rdma res show} ({@code res_no_args_parse_cb()}):
     * {@code 0: mlx4_0: pd 3 cq 4 qp 4 cm_id 0 mr 0 ctx 0 srq 2}. The counts appear in the
     * kernel's order ({@link #RESOURCE_ORDER}), then any other type the core reports, in its
     * order; a type the core does not report is not invented.
     */
    static String resSummaryLine(int index, String device, Map<String, Integer> counts) {
        Line line = new Line().head(index, device);
        Map<String, Integer> rest = new LinkedHashMap<>(counts == null ? Map.of() : counts);
        for (String type : RESOURCE_ORDER) {
            Integer n = rest.remove(type);
            if (n != null) {
                line.item(type, String.valueOf(n));
            }
        }
        rest.forEach((type, n) -> line.item(type, String.valueOf(n)));
        return line.toString();
    }

    /**
     * One line of {@code rdma res show TYPE} ({@code res_qp_line()} and its siblings): the
     * attributes in the order the core recorded them, then {@code comm [owner]}, as iproute2
     * prints a kernel owner ({@code print_comm()}), e.g.
     * {@code link mlx4_0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]}. When the core
     * gives neither {@code link} nor {@code dev}, the line starts with {@code dev NAME} as
     * {@code print_dev()} does, so no line lacks its device.
     */
    static String resLine(ResourceDTO resource) {
        Map<String, String> attrs = resource.attrs == null ? Map.of() : resource.attrs;
        Line line = new Line();
        if (!attrs.containsKey("link") && !attrs.containsKey("dev")) {
            line.item("dev", resource.device);
        }
        attrs.forEach(line::item);
        if (resource.owner != null && !resource.owner.isEmpty()) {
            line.item("comm", "[" + resource.owner + "]");
        }
        return line.toString();
    }

    // ---------------------------------------------------------------- rdma link lines

    /**
     * The names of the PortInfo:CapabilityMask bits as iproute2 prints them in
     * {@code rdma link show -d} ({@code caps_to_str()} in {@code rdma/link.c}), bit 0 first.
     */
    static final List<String> PORT_CAP_NAMES = List.of("RESERVED", "SM", "NOTICE", "TRAP", "OPT_IPD",
            "AUTO_MIGR", "SL_MAP", "MKEY_NVRAM", "PKEY_NVRAM", "LED_INFO", "SM_DISABLED", "SYS_IMAGE_GUID",
            "PKEY_SW_EXT_PORT_TRAP", "CABLE_INFO", "EXTENDED_SPEEDS", "CAP_MASK2", "CM", "SNMP_TUNNEL", "REINIT",
            "DEVICE_MGMT", "VENDOR_CLASS", "DR_NOTICE", "CAP_MASK_NOTICE", "BOOT_MGMT", "LINK_LATENCY",
            "CLIENT_REG", "OTHER_LOCAL_CHANGES", "LINK_SPPED_WIDTH", "VENDOR_SPECIFIC_MADS", "MULT_PKER_TRAP",
            "MULT_FDB", "HIERARCHY_INFO");

    /**
     * The lines of {@code rdma link show} for one port ({@code link_parse_cb()}):
     * {@code link mlx4_0/1 subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP}
     * on InfiniBand (the kernel sends subnet prefix, LID, SM LID and LMC only for IB ports),
     * {@code link mlx4_0/2 state ACTIVE physical_state LINK_UP netdev eth2} on Ethernet. With
     * {@code details}, a second line {@code     caps: <SM, CM, ...>} as {@code rdma link show -d}
     * prints, then one line per non-empty GID, {@code     gid 0 fe80:0000:0000:0000:0002:c903:00a1:b2c1}
     * (this platform's addition: iproute2 shows no GIDs).
     */
    static List<String> linkLines(DeviceDTO device, PortDTO port, boolean details) {
        Line line = new Line().item("link", device.name + "/" + port.port);
        if ("InfiniBand".equalsIgnoreCase(port.linkLayer)) {
            line.item("subnet_prefix", subnetPrefix(port.gids));
            line.item("lid", String.valueOf(port.lid)).item("sm_lid", String.valueOf(port.smLid));
            line.item("lmc", String.valueOf(port.lmc));
        }
        line.item("state", port.state == null ? "UNKNOWN" : port.state);
        line.item("physical_state", port.physState == null ? "UNKNOWN" : port.physState);
        line.item("netdev", port.netdev);
        List<String> lines = new ArrayList<>();
        lines.add(line.toString());
        if (details) {
            lines.add("    caps: <" + portCaps(port.capabilityMask & 0xffff_ffffL) + ">");
            for (String g : list(port.gids)) {
                int eq = g.indexOf('=');
                lines.add("    gid " + (eq < 0 ? g : g.substring(0, eq) + " " + g.substring(eq + 1)));
            }
        }
        return lines;
    }

    /** The set bits of a port capability mask by name, lowest first, separated by {@code ", "}. */
    static String portCaps(long caps) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((caps & (1L << bit)) != 0) {
                names.add(bit < PORT_CAP_NAMES.size() ? PORT_CAP_NAMES.get(bit) : "UNKNOWN");
            }
        }
        return String.join(", ", names);
    }

    /**
     * The subnet prefix iproute2 prints ({@code fe80:0000:0000:0000}): the upper half of GID 0
     * in the DTO's {@code index=gid} list; {@code null} (not printed) without a GID 0.
     */
    static String subnetPrefix(String[] gids) {
        for (String g : list(gids)) {
            if (g.startsWith("0=")) {
                String[] groups = g.substring(2).split(":");
                if (groups.length == 8) {
                    return String.join(":", List.of(groups).subList(0, 4));
                }
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- tables

    /** The client table of {@code rdma:clients}: registration order, as the DTO gives it. */
    static List<String> clientTable(ClientDTO[] clients) {
        List<List<String>> rows = new ArrayList<>();
        for (ClientDTO c : list(clients)) {
            rows.add(List.of(String.valueOf(c.clientId), text(c.name), String.valueOf(c.serviceId),
                    c.devices == null || c.devices.length == 0 ? "-" : String.join(",", c.devices)));
        }
        return table(List.of("ID", "NAME", "SERVICE.ID", "DEVICES"), rows);
    }

    /**
     * The table of every provider and client service the core could not use, with the reason;
     * empty when there is none.
     */
    static List<String> failedTable(FailedDTO[] providers, FailedDTO[] clients) {
        List<List<String>> rows = new ArrayList<>();
        addFailed(rows, "provider", providers);
        addFailed(rows, "client", clients);
        if (rows.isEmpty()) {
            return List.of();
        }
        return table(List.of("FAILED", "SERVICE.ID", "NAME", "REASON", "MESSAGE"), rows);
    }

    private static void addFailed(List<List<String>> rows, String kind, FailedDTO[] failed) {
        for (FailedDTO f : list(failed)) {
            rows.add(List.of(kind, String.valueOf(f.serviceId), text(f.name), failureReason(f.failureReason),
                    text(f.message)));
        }
    }

    /**
     * A plain text table: one header line, one line per row, columns left-aligned and separated
     * by two spaces; the last column is not padded, so no line ends in blanks.
     */
    static List<String> table(List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>(all.size());
        for (List<String> row : all) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < width.length; i++) {
                String cell = row.get(i);
                sb.append(cell);
                if (i < width.length - 1) {
                    sb.append(" ".repeat(width[i] - cell.length())).append(GAP);
                }
            }
            lines.add(sb.toString());
        }
        return lines;
    }

    // ---------------------------------------------------------------- arguments

    /**
     * The position of the device named {@code name} in {@code devices} (registration order);
     * {@code ENODEV} naming the device when there is none. The number printed is the device's
     * own {@code index}, not this position.
     */
    static int deviceIndex(DeviceDTO[] devices, String name) {
        List<DeviceDTO> all = list(devices);
        for (int i = 0; i < all.size(); i++) {
            if (name != null && name.equals(all.get(i).name)) {
                return i;
            }
        }
        throw new RdmaException(Errno.ENODEV, "no RDMA device named '" + name + "'");
    }

    /**
     * The arguments without a leading {@code show}, so {@code rdma:dev show mlx4_0} works as
     * {@code rdma dev show mlx4_0} does; {@code EINVAL} when more than {@code max} remain.
     */
    static List<String> arguments(String[] args, int max, String usage) {
        List<String> list = new ArrayList<>(list(args));
        if (!list.isEmpty() && "show".equals(list.get(0))) {
            list.remove(0);
        }
        if (list.size() > max) {
            throw new RdmaException(Errno.EINVAL, "too many arguments; usage: " + usage);
        }
        return list;
    }

    /** A {@code DEV[/PORT]} argument: the device's name and the port, 0 for every port. */
    record LinkArg(String device, int port) {
    }

    /** Parses {@code DEV[/PORT]}; a port that is not a positive number is {@code EINVAL}. */
    static LinkArg linkArg(String arg, String usage) {
        int slash = arg.indexOf('/');
        if (slash < 0) {
            return new LinkArg(arg, 0);
        }
        String num = arg.substring(slash + 1);
        int port;
        try {
            port = Integer.parseInt(num);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port <= 0) {
            throw new RdmaException(Errno.EINVAL, "wrong port '" + num + "'; usage: " + usage);
        }
        return new LinkArg(arg.substring(0, slash), port);
    }

    /** The ports of {@code device} that {@code port} selects (0: all); {@code EINVAL} if it has no such port. */
    static List<PortDTO> ports(DeviceDTO device, int port) {
        List<PortDTO> out = new ArrayList<>();
        for (PortDTO p : list(device.ports)) {
            if (port == 0 || p.port == port) {
                out.add(p);
            }
        }
        if (port != 0 && out.isEmpty()) {
            throw new RdmaException(Errno.EINVAL, "device " + device.name + " has no port " + port);
        }
        return out;
    }

    /** The elements of a DTO array, which may be {@code null}. */
    static <T> List<T> list(T[] array) {
        return array == null ? List.of() : Arrays.asList(array);
    }

    private static String text(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    /** Builds an iproute2-style line of space-separated items. */
    private static final class Line {
        private final StringBuilder sb = new StringBuilder();

        Line head(int index, String name) {
            sb.append(index).append(": ").append(name).append(':');
            return this;
        }

        /** Appends {@code key value}; a {@code null} value means the attribute is absent. */
        Line item(String key, String value) {
            if (value != null) {
                if (sb.length() > 0) {
                    sb.append(' ');
                }
                sb.append(key).append(' ').append(value);
            }
            return this;
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
