package org.rdma.shell.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.shell.internal.perf.PerfFormat;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;

/**
 * The text of rdma-core's {@code ibv_devinfo} ({@code libibverbs/examples/devinfo.c},
 * {@code print_hca_cap()}) for one device, from {@link IbDevice#attrs()},
 * {@link IbDevice#queryPort} and {@link IbDevice#queryGid}: the same fields in the same order,
 * the same tabs, the same value spellings ({@code PORT_ACTIVE (4)}, {@code 4096 (5)},
 * {@code InfiniBand}). What the kernel API here does not model (EE contexts, raw QPs, FMRs, ODP,
 * TSO, RSS, packet pacing, tag matching, timestamps, {@code board_id}) is printed as the tool
 * prints an absent capability: zero, {@code NO SUPPORT}, {@code not supported}, or omitted.
 */
final class Devinfo {
    /** rdma-core's {@code IBV_DEVICE_INIT_TYPE}: known to {@code ibv_devinfo}, not to the kernel enum. */
    private static final long INIT_TYPE = 1L << 9;

    /** {@code print_device_cap_flags()}: bit, name, in the tool's order. */
    private static final long[] CAP_BITS = {
        DeviceCapFlags.RESIZE_MAX_WR, DeviceCapFlags.BAD_PKEY_CNTR, DeviceCapFlags.BAD_QKEY_CNTR,
        DeviceCapFlags.RAW_MULTI, DeviceCapFlags.AUTO_PATH_MIG, DeviceCapFlags.CHANGE_PHY_PORT,
        DeviceCapFlags.UD_AV_PORT_ENFORCE, DeviceCapFlags.CURR_QP_STATE_MOD, DeviceCapFlags.SHUTDOWN_PORT,
        INIT_TYPE, DeviceCapFlags.PORT_ACTIVE_EVENT, DeviceCapFlags.SYS_IMAGE_GUID, DeviceCapFlags.RC_RNR_NAK_GEN,
        DeviceCapFlags.SRQ_RESIZE, DeviceCapFlags.N_NOTIFY_CQ, DeviceCapFlags.MEM_WINDOW, DeviceCapFlags.UD_IP_CSUM,
        DeviceCapFlags.XRC, DeviceCapFlags.MEM_MGT_EXTENSIONS, DeviceCapFlags.MEM_WINDOW_TYPE_2A,
        DeviceCapFlags.MEM_WINDOW_TYPE_2B, DeviceCapFlags.RC_IP_CSUM, DeviceCapFlags.RAW_IP_CSUM,
        DeviceCapFlags.MANAGED_FLOW_STEERING,
    };
    private static final String[] CAP_NAMES = {
        "RESIZE_MAX_WR", "BAD_PKEY_CNTR", "BAD_QKEY_CNTR", "RAW_MULTI", "AUTO_PATH_MIG", "CHANGE_PHY_PORT",
        "UD_AV_PORT_ENFORCE", "CURR_QP_STATE_MOD", "SHUTDOWN_PORT", "INIT_TYPE", "PORT_ACTIVE_EVENT",
        "SYS_IMAGE_GUID", "RC_RNR_NAK_GEN", "SRQ_RESIZE", "N_NOTIFY_CQ", "MEM_WINDOW", "UD_IP_CSUM", "XRC",
        "MEM_MGT_EXTENSIONS", "MEM_WINDOW_TYPE_2A", "MEM_WINDOW_TYPE_2B", "RC_IP_CSUM", "RAW_IP_CSUM",
        "MANAGED_FLOW_STEERING",
    };
    /** Indentation of flag names under a {@code *_flags} line. */
    private static final String FLAG = "\t\t\t\t\t";

    private Devinfo() {
    }

    /**
     * The lines {@code ibv_devinfo [-i port] [-v]} prints for {@code dev}; {@code port} 0 for
     * every port. {@code EINVAL} ("Invalid port requested for device") for a port beyond
     * {@code phys_port_cnt}.
     */
    static List<String> lines(IbDevice dev, int port, boolean verbose) {
        DeviceAttr a = dev.attrs();
        int ports = dev.endPort();
        RdmaException.check(port <= ports, org.rdma.verbs.Errno.EINVAL, "Invalid port requested for device");
        List<String> out = new ArrayList<>();
        out.add("hca_id:\t" + dev.name());
        out.add("\ttransport:\t\t\t" + transport(dev.nodeType()));
        String fw = RdmaFormat.firmware(a.fwVer);
        if (fw != null) {
            out.add("\tfw_ver:\t\t\t\t" + fw);
        }
        out.add("\tnode_guid:\t\t\t" + RdmaFormat.guid(dev.nodeGuid()));
        out.add("\tsys_image_guid:\t\t\t" + RdmaFormat.guid(a.sysImageGuid));
        out.add("\tvendor_id:\t\t\t" + f("0x%04x", a.vendorId));
        out.add("\tvendor_part_id:\t\t\t" + a.vendorPartId);
        out.add("\thw_ver:\t\t\t\t" + f("0x%X", a.hwVer));
        out.add("\tphys_port_cnt:\t\t\t" + ports);
        if (verbose) {
            verboseDevice(out, a);
        }
        for (int p = 1; p <= ports; p++) {
            if (port == 0 || p == port) {
                port(out, dev, p, verbose);
            }
        }
        return out;
    }

    private static void verboseDevice(List<String> out, DeviceAttr a) {
        out.add("\tmax_mr_size:\t\t\t0x" + Long.toHexString(a.maxMrSize));
        out.add("\tpage_size_cap:\t\t\t0x" + Long.toHexString(a.pageSizeCap));
        out.add("\tmax_qp:\t\t\t\t" + a.maxQp);
        out.add("\tmax_qp_wr:\t\t\t" + a.maxQpWr);
        int flags = (int) a.deviceCapFlags;
        out.add("\tdevice_cap_flags:\t\t" + f("0x%08x", flags));
        long known = 0;
        for (int i = 0; i < CAP_BITS.length; i++) {
            known |= CAP_BITS[i];
            if ((flags & CAP_BITS[i]) != 0) {
                out.add(FLAG + CAP_NAMES[i]);
            }
        }
        long unknown = flags & 0xffff_ffffL & ~known;
        if (unknown != 0) {
            out.add(FLAG + "Unknown flags: 0x" + Long.toHexString(unknown).toUpperCase(Locale.ROOT));
        }
        out.add("\tmax_sge:\t\t\t" + Math.min(a.maxSendSge, a.maxRecvSge));
        out.add("\tmax_sge_rd:\t\t\t" + a.maxSgeRd);
        out.add("\tmax_cq:\t\t\t\t" + a.maxCq);
        out.add("\tmax_cqe:\t\t\t" + a.maxCqe);
        out.add("\tmax_mr:\t\t\t\t" + a.maxMr);
        out.add("\tmax_pd:\t\t\t\t" + a.maxPd);
        out.add("\tmax_qp_rd_atom:\t\t\t" + a.maxQpRdAtom);
        out.add("\tmax_ee_rd_atom:\t\t\t0");
        out.add("\tmax_res_rd_atom:\t\t" + a.maxResRdAtom);
        out.add("\tmax_qp_init_rd_atom:\t\t" + a.maxQpInitRdAtom);
        out.add("\tmax_ee_init_rd_atom:\t\t0");
        out.add("\tatomic_cap:\t\t\t" + atomicCap(a.atomicCap) + " (" + a.atomicCap + ")");
        out.add("\tmax_ee:\t\t\t\t0");
        out.add("\tmax_rdd:\t\t\t0");
        out.add("\tmax_mw:\t\t\t\t" + a.maxMw);
        out.add("\tmax_raw_ipv6_qp:\t\t0");
        out.add("\tmax_raw_ethy_qp:\t\t0");
        out.add("\tmax_mcast_grp:\t\t\t" + a.maxMcastGrp);
        out.add("\tmax_mcast_qp_attach:\t\t" + a.maxMcastQpAttach);
        out.add("\tmax_total_mcast_qp_attach:\t" + a.maxTotalMcastQpAttach);
        out.add("\tmax_ah:\t\t\t\t" + a.maxAh);
        out.add("\tmax_fmr:\t\t\t0");
        out.add("\tmax_srq:\t\t\t" + a.maxSrq);
        if (a.maxSrq != 0) {
            out.add("\tmax_srq_wr:\t\t\t" + a.maxSrqWr);
            out.add("\tmax_srq_sge:\t\t\t" + a.maxSrqSge);
        }
        out.add("\tmax_pkeys:\t\t\t" + a.maxPkeys);
        out.add("\tlocal_ca_ack_delay:\t\t" + a.localCaAckDelay);
        out.add("\tgeneral_odp_caps:");
        for (String t : new String[] {"rc", "uc", "ud", "xrc"}) {
            out.add("\t" + t + "_odp_caps:");
            out.add(FLAG + "NO SUPPORT");
        }
        out.add("\tcompletion_timestamp_mask not supported");
        out.add("\tcore clock not supported");
        long ex = a.deviceCapFlags;
        out.add("\tdevice_cap_flags_ex:\t\t0x" + Long.toHexString(ex).toUpperCase(Locale.ROOT));
        long high = ex & 0xffff_ffff_0000_0000L;
        if ((high & DeviceCapFlags.RAW_SCATTER_FCS) != 0) {
            out.add(FLAG + "RAW_SCATTER_FCS");
        }
        if ((high & DeviceCapFlags.PCI_WRITE_END_PADDING) != 0) {
            out.add(FLAG + "PCI_WRITE_END_PADDING");
        }
        long unknownEx = high & ~(DeviceCapFlags.RAW_SCATTER_FCS | DeviceCapFlags.PCI_WRITE_END_PADDING);
        if (unknownEx != 0) {
            out.add(FLAG + "Unknown flags: 0x" + Long.toHexString(unknownEx).toUpperCase(Locale.ROOT));
        }
        out.add("\ttso_caps:");
        out.add("\t\tmax_tso:\t\t\t0");
        out.add("\trss_caps:");
        out.add("\t\tmax_rwq_indirection_tables:\t\t\t0");
        out.add("\t\tmax_rwq_indirection_table_size:\t\t\t0");
        out.add("\t\trx_hash_function:\t\t\t\t0x0");
        out.add("\t\trx_hash_fields_mask:\t\t\t\t0x0");
        out.add("\tmax_wq_type_rq:\t\t\t" + a.maxWqTypeRq);
        out.add("\tpacket_pacing_caps:");
        out.add("\t\tqp_rate_limit_min:\t0kbps");
        out.add("\t\tqp_rate_limit_max:\t0kbps");
        out.add("\ttag matching not supported");
        out.add("\tnum_comp_vectors:\t\t" + a.numCompVectors);
    }

    private static void port(List<String> out, IbDevice dev, int p, boolean verbose) {
        PortAttr pa = dev.queryPort(p);
        out.add("\t\tport:\t" + p);
        out.add("\t\t\tstate:\t\t\t" + portState(pa.state) + " (" + pa.state.value + ")");
        out.add("\t\t\tmax_mtu:\t\t" + mtu(pa.maxMtu));
        out.add("\t\t\tactive_mtu:\t\t" + mtu(pa.activeMtu));
        out.add("\t\t\tsm_lid:\t\t\t" + pa.smLid);
        out.add("\t\t\tport_lid:\t\t" + pa.lid);
        out.add("\t\t\tport_lmc:\t\t" + f("0x%02x", pa.lmc));
        out.add("\t\t\tlink_layer:\t\t" + linkLayer(pa.linkLayer));
        if (verbose) {
            out.add("\t\t\tmax_msg_sz:\t\t0x" + Integer.toHexString(pa.maxMsgSz));
            out.add("\t\t\tport_cap_flags:\t\t" + f("0x%08x", pa.portCapFlags));
            out.add("\t\t\tport_cap_flags2:\t0x0000");
            out.add("\t\t\tmax_vl_num:\t\t" + vl(pa.maxVlNum) + " (" + pa.maxVlNum + ")");
            out.add("\t\t\tbad_pkey_cntr:\t\t0x" + Integer.toHexString(pa.badPkeyCntr));
            out.add("\t\t\tqkey_viol_cntr:\t\t0x" + Integer.toHexString(pa.qkeyViolCntr));
            out.add("\t\t\tsm_sl:\t\t\t" + pa.smSl);
            out.add("\t\t\tpkey_tbl_len:\t\t" + pa.pkeyTblLen);
            out.add("\t\t\tgid_tbl_len:\t\t" + pa.gidTblLen);
            out.add("\t\t\tsubnet_timeout:\t\t" + pa.subnetTimeout);
            out.add("\t\t\tinit_type_reply:\t" + pa.initTypeReply);
            out.add("\t\t\tactive_width:\t\t" + (pa.activeWidth == null ? "invalid width" : pa.activeWidth.lanes)
                    + "X (" + (pa.activeWidth == null ? 0 : pa.activeWidth.value) + ")");
            out.add("\t\t\tactive_speed:\t\t" + speed(pa.activeSpeed == null ? 0 : pa.activeSpeed.value)
                    + " (" + (pa.activeSpeed == null ? 0 : pa.activeSpeed.value) + ")");
            if (dev.nodeType() == NodeType.CA || dev.nodeType() == NodeType.SWITCH) {
                out.add("\t\t\tphys_state:\t\t" + physState(pa.physState.value) + " (" + pa.physState.value + ")");
            }
            gids(out, dev, p, pa);
        }
        out.add("");
    }

    /** {@code print_all_port_gids()}: every non-null GID of the table, with its type on Ethernet. */
    private static void gids(List<String> out, IbDevice dev, int p, PortAttr pa) {
        boolean eth = pa.linkLayer == LinkLayer.ETHERNET;
        for (int i = 0; i < pa.gidTblLen; i++) {
            Gid gid;
            GidType type = GidType.IB;
            try {
                gid = dev.queryGid(p, i);
            } catch (RdmaException e) {
                continue; // an empty slot reads as the zero GID, which is not printed
            }
            if (gid == null || gid.interfaceId() == 0) {
                continue; // null_gid(): the tool tests the interface id only
            }
            if (eth) {
                try {
                    GidAttr attr = dev.getGidAttr(p, i);
                    try {
                        type = attr.gidType();
                    } finally {
                        attr.put();
                    }
                } catch (RdmaException e) {
                    type = GidType.ROCE;
                }
            }
            String suffix = eth ? ", " + (type == GidType.ROCE_UDP_ENCAP ? "RoCE v2" : "RoCE v1") : "";
            String text = type == GidType.ROCE_UDP_ENCAP ? PerfFormat.inetNtop(gid) : gid.toString();
            out.add("\t\t\tGID[" + f("%3d", i) + "]:\t\t" + text + suffix);
        }
    }

    /** {@code transport_str()} with the number: RoCE devices are InfiniBand transport too. */
    static String transport(NodeType type) {
        switch (type) {
            case CA:
            case SWITCH:
            case ROUTER:
                return "InfiniBand (0)";
            case RNIC:
                return "iWARP (1)";
            case USNIC:
                return "usNIC (2)";
            case USNIC_UDP:
                return "usNIC UDP (3)";
            default:
                return "unspecified (4)";
        }
    }

    /** {@code port_state_str()}. */
    static String portState(PortState s) {
        switch (s) {
            case DOWN:
            case INIT:
            case ARMED:
            case ACTIVE:
                return s.displayName();
            default:
                return "invalid state";
        }
    }

    /** {@code mtu_str()} with the enum value: {@code 4096 (5)}. */
    static String mtu(Mtu m) {
        return m == null ? "invalid MTU (0)" : m.bytes + " (" + m.value + ")";
    }

    /** {@code link_layer_str()}. */
    static String linkLayer(LinkLayer l) {
        return l == LinkLayer.UNSPECIFIED ? "Unspecified" : l.displayName();
    }

    /** {@code atomic_cap_str()}. */
    static String atomicCap(int cap) {
        switch (cap) {
            case 0:
                return "ATOMIC_NONE";
            case 1:
                return "ATOMIC_HCA";
            case 2:
                return "ATOMIC_GLOB";
            default:
                return "invalid atomic capability";
        }
    }

    /** {@code vl_str()}: PortInfo:VLCap encoding to the number of data VLs. */
    static String vl(int vlNum) {
        switch (vlNum) {
            case 1:
                return "1";
            case 2:
                return "2";
            case 3:
                return "4";
            case 4:
                return "8";
            case 5:
                return "15";
            default:
                return "invalid value";
        }
    }

    /** {@code speed_str()}. */
    static String speed(int speed) {
        switch (speed) {
            case 1:
                return "2.5 Gbps";
            case 2:
                return "5.0 Gbps";
            case 4:
            case 8:
                return "10.0 Gbps";
            case 16:
                return "14.0 Gbps";
            case 32:
                return "25.0 Gbps";
            case 64:
                return "50.0 Gbps";
            case 128:
                return "100.0 Gbps";
            case 256:
                return "200.0 Gbps";
            default:
                return "invalid speed";
        }
    }

    /** {@code port_phy_state_str()}, spelled as the tool spells it. */
    static String physState(int s) {
        switch (s) {
            case 1:
                return "SLEEP";
            case 2:
                return "POLLING";
            case 3:
                return "DISABLED";
            case 4:
                return "PORT_CONFIGURATION TRAINNING";
            case 5:
                return "LINK_UP";
            case 6:
                return "LINK_ERROR_RECOVERY";
            case 7:
                return "PHY TEST";
            default:
                return "invalid physical state";
        }
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
