package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;

/** {@code ibv_devinfo}: rdma-core's layout from a fixed two-port device (IB and RoCE). */
class DevinfoTest {
    /** References taken and put on the fake device. */
    private final int[] refs = new int[2];

    private IbDevice device() {
        DeviceAttr a = new DeviceAttr();
        a.fwVer = Fixtures.FW;
        a.sysImageGuid = 0x0002c90300a1b2c3L;
        a.vendorId = 0x02c9;
        a.vendorPartId = 4099;
        a.hwVer = 0x1;
        a.maxMrSize = 0xffffffffffffffffL;
        a.pageSizeCap = 0xfffffe00L;
        a.maxQp = 65456;
        a.maxQpWr = 16384;
        a.deviceCapFlags = DeviceCapFlags.BAD_PKEY_CNTR | DeviceCapFlags.BAD_QKEY_CNTR
                | DeviceCapFlags.CHANGE_PHY_PORT | DeviceCapFlags.PORT_ACTIVE_EVENT | DeviceCapFlags.SYS_IMAGE_GUID
                | DeviceCapFlags.RC_RNR_NAK_GEN | DeviceCapFlags.MEM_MGT_EXTENSIONS | (1L << 30)
                | DeviceCapFlags.RAW_SCATTER_FCS;
        a.maxSendSge = 32;
        a.maxRecvSge = 30;
        a.maxSgeRd = 30;
        a.maxCq = 65408;
        a.maxCqe = 4194303;
        a.maxMr = 524032;
        a.maxPd = 32764;
        a.maxQpRdAtom = 16;
        a.maxResRdAtom = 1047296;
        a.maxQpInitRdAtom = 128;
        a.atomicCap = 1;
        a.maxMw = 0;
        a.maxMcastGrp = 131072;
        a.maxMcastQpAttach = 244;
        a.maxTotalMcastQpAttach = 31981568;
        a.maxAh = Integer.MAX_VALUE;
        a.maxSrq = 65472;
        a.maxSrqWr = 16383;
        a.maxSrqSge = 31;
        a.maxPkeys = 128;
        a.localCaAckDelay = 15;
        a.numCompVectors = 2;
        return (IbDevice) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {IbDevice.class},
                (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "name":
                            return "mlx4_0";
                        case "nodeType":
                            return NodeType.CA;
                        case "nodeGuid":
                            return 0x0002c90300a1b2c0L;
                        case "endPort":
                            return 2;
                        case "attrs":
                            return a.copy();
                        case "queryPort":
                            return port((Integer) args[0]);
                        case "queryGid":
                            return gid((Integer) args[0], (Integer) args[1]);
                        case "getGidAttr":
                            return gidAttr((Integer) args[0], (Integer) args[1]);
                        case "put":
                            refs[1]++;
                            return null;
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    private static PortAttr port(int p) {
        PortAttr a = new PortAttr();
        a.state = p == 1 ? PortState.ACTIVE : PortState.DOWN;
        a.maxMtu = Mtu.MTU_4096;
        a.activeMtu = p == 1 ? Mtu.MTU_4096 : Mtu.MTU_1024;
        a.smLid = p == 1 ? 1 : 0;
        a.lid = p == 1 ? 3 : 0;
        a.lmc = 0;
        a.linkLayer = p == 1 ? LinkLayer.INFINIBAND : LinkLayer.ETHERNET;
        a.maxMsgSz = 0x40000000;
        a.portCapFlags = p == 1 ? 0x02514868 : 0x04010000;
        a.maxVlNum = p == 1 ? 4 : 1;
        a.smSl = 0;
        a.pkeyTblLen = p == 1 ? 128 : 1;
        a.gidTblLen = p == 1 ? 128 : 4;
        a.subnetTimeout = p == 1 ? 18 : 0;
        a.activeWidth = PortWidth.WIDTH_4X;
        a.activeSpeed = p == 1 ? PortSpeed.FDR10 : PortSpeed.QDR;
        a.physState = p == 1 ? PhysPortState.LINK_UP : PhysPortState.DISABLED;
        return a;
    }

    private static Gid gid(int p, int i) {
        if (p == 1 && i == 0) {
            return Gid.linkLocal(0x0002c90300a1b2c1L);
        }
        if (p == 2 && i == 0) {
            return Gid.linkLocal(0x0202c9fffea1b2c2L);
        }
        if (p == 2 && i == 1) {
            return Gid.parse("192.168.1.2");
        }
        if (p == 2 && i == 2) {
            return Gid.of(0xfe80_0000_0000_0000L, 0); // interface id 0: the tool's null_gid()
        }
        throw new RdmaException(Errno.ENOENT, "empty");
    }

    private GidAttr gidAttr(int p, int i) {
        GidType type = i == 1 ? GidType.ROCE_UDP_ENCAP : GidType.ROCE;
        return (GidAttr) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {GidAttr.class},
                (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "gidType":
                            return type;
                        case "put":
                            return null;
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    private IbCore core() {
        IbDevice dev = device();
        return (IbCore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {IbCore.class},
                (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "getByName":
                            if (!"mlx4_0".equals(args[0])) {
                                return null;
                            }
                            refs[0]++;
                            return dev;
                        case "devices":
                            return List.of(dev);
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    private static final List<String> HEAD = List.of(
            "hca_id:\tmlx4_0",
            "\ttransport:\t\t\tInfiniBand (0)",
            "\tfw_ver:\t\t\t\t2.42.5000",
            "\tnode_guid:\t\t\t0002:c903:00a1:b2c0",
            "\tsys_image_guid:\t\t\t0002:c903:00a1:b2c3",
            "\tvendor_id:\t\t\t0x02c9",
            "\tvendor_part_id:\t\t\t4099",
            "\thw_ver:\t\t\t\t0x1",
            "\tphys_port_cnt:\t\t\t2");
    private static final List<String> PORT1 = List.of(
            "\t\tport:\t1",
            "\t\t\tstate:\t\t\tPORT_ACTIVE (4)",
            "\t\t\tmax_mtu:\t\t4096 (5)",
            "\t\t\tactive_mtu:\t\t4096 (5)",
            "\t\t\tsm_lid:\t\t\t1",
            "\t\t\tport_lid:\t\t3",
            "\t\t\tport_lmc:\t\t0x00",
            "\t\t\tlink_layer:\t\tInfiniBand");
    private static final List<String> PORT2 = List.of(
            "\t\tport:\t2",
            "\t\t\tstate:\t\t\tPORT_DOWN (1)",
            "\t\t\tmax_mtu:\t\t4096 (5)",
            "\t\t\tactive_mtu:\t\t1024 (3)",
            "\t\t\tsm_lid:\t\t\t0",
            "\t\t\tport_lid:\t\t0",
            "\t\t\tport_lmc:\t\t0x00",
            "\t\t\tlink_layer:\t\tEthernet");

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> p : parts) {
            all.addAll(p);
        }
        return all;
    }

    @Test
    void shortFormEveryPort() {
        DevinfoCommand cmd = new DevinfoCommand(core());
        assertEquals(concat(HEAD, PORT1, List.of(""), PORT2, List.of("")), Fixtures.lines(out -> cmd.show(out)));
        assertEquals(refs[0], refs[1], "every getByName is put");
        assertEquals(1, refs[0]);
    }

    @Test
    void onePort() {
        DevinfoCommand cmd = new DevinfoCommand(core());
        assertEquals(concat(HEAD, PORT2, List.of("")),
                Fixtures.lines(out -> cmd.show(out, "-d", "mlx4_0", "--ib-port=2")));
    }

    @Test
    void verboseLongList() {
        DevinfoCommand cmd = new DevinfoCommand(core());
        List<String> device = List.of(
                "\tmax_mr_size:\t\t\t0xffffffffffffffff",
                "\tpage_size_cap:\t\t\t0xfffffe00",
                "\tmax_qp:\t\t\t\t65456",
                "\tmax_qp_wr:\t\t\t16384",
                "\tdevice_cap_flags:\t\t0x40201c26",
                "\t\t\t\t\tBAD_PKEY_CNTR",
                "\t\t\t\t\tBAD_QKEY_CNTR",
                "\t\t\t\t\tCHANGE_PHY_PORT",
                "\t\t\t\t\tPORT_ACTIVE_EVENT",
                "\t\t\t\t\tSYS_IMAGE_GUID",
                "\t\t\t\t\tRC_RNR_NAK_GEN",
                "\t\t\t\t\tMEM_MGT_EXTENSIONS",
                "\t\t\t\t\tUnknown flags: 0x40000000",
                "\tmax_sge:\t\t\t30",
                "\tmax_sge_rd:\t\t\t30",
                "\tmax_cq:\t\t\t\t65408",
                "\tmax_cqe:\t\t\t4194303",
                "\tmax_mr:\t\t\t\t524032",
                "\tmax_pd:\t\t\t\t32764",
                "\tmax_qp_rd_atom:\t\t\t16",
                "\tmax_ee_rd_atom:\t\t\t0",
                "\tmax_res_rd_atom:\t\t1047296",
                "\tmax_qp_init_rd_atom:\t\t128",
                "\tmax_ee_init_rd_atom:\t\t0",
                "\tatomic_cap:\t\t\tATOMIC_HCA (1)",
                "\tmax_ee:\t\t\t\t0",
                "\tmax_rdd:\t\t\t0",
                "\tmax_mw:\t\t\t\t0",
                "\tmax_raw_ipv6_qp:\t\t0",
                "\tmax_raw_ethy_qp:\t\t0",
                "\tmax_mcast_grp:\t\t\t131072",
                "\tmax_mcast_qp_attach:\t\t244",
                "\tmax_total_mcast_qp_attach:\t31981568",
                "\tmax_ah:\t\t\t\t2147483647",
                "\tmax_fmr:\t\t\t0",
                "\tmax_srq:\t\t\t65472",
                "\tmax_srq_wr:\t\t\t16383",
                "\tmax_srq_sge:\t\t\t31",
                "\tmax_pkeys:\t\t\t128",
                "\tlocal_ca_ack_delay:\t\t15",
                "\tgeneral_odp_caps:",
                "\trc_odp_caps:",
                "\t\t\t\t\tNO SUPPORT",
                "\tuc_odp_caps:",
                "\t\t\t\t\tNO SUPPORT",
                "\tud_odp_caps:",
                "\t\t\t\t\tNO SUPPORT",
                "\txrc_odp_caps:",
                "\t\t\t\t\tNO SUPPORT",
                "\tcompletion_timestamp_mask not supported",
                "\tcore clock not supported",
                "\tdevice_cap_flags_ex:\t\t0x440201C26",
                "\t\t\t\t\tRAW_SCATTER_FCS",
                "\ttso_caps:",
                "\t\tmax_tso:\t\t\t0",
                "\trss_caps:",
                "\t\tmax_rwq_indirection_tables:\t\t\t0",
                "\t\tmax_rwq_indirection_table_size:\t\t\t0",
                "\t\trx_hash_function:\t\t\t\t0x0",
                "\t\trx_hash_fields_mask:\t\t\t\t0x0",
                "\tmax_wq_type_rq:\t\t\t0",
                "\tpacket_pacing_caps:",
                "\t\tqp_rate_limit_min:\t0kbps",
                "\t\tqp_rate_limit_max:\t0kbps",
                "\ttag matching not supported",
                "\tnum_comp_vectors:\t\t2");
        List<String> port1 = List.of(
                "\t\t\tmax_msg_sz:\t\t0x40000000",
                "\t\t\tport_cap_flags:\t\t0x02514868",
                "\t\t\tport_cap_flags2:\t0x0000",
                "\t\t\tmax_vl_num:\t\t8 (4)",
                "\t\t\tbad_pkey_cntr:\t\t0x0",
                "\t\t\tqkey_viol_cntr:\t\t0x0",
                "\t\t\tsm_sl:\t\t\t0",
                "\t\t\tpkey_tbl_len:\t\t128",
                "\t\t\tgid_tbl_len:\t\t128",
                "\t\t\tsubnet_timeout:\t\t18",
                "\t\t\tinit_type_reply:\t0",
                "\t\t\tactive_width:\t\t4X (2)",
                "\t\t\tactive_speed:\t\t10.0 Gbps (8)",
                "\t\t\tphys_state:\t\tLINK_UP (5)",
                "\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:0002:c903:00a1:b2c1",
                "");
        List<String> port2 = List.of(
                "\t\t\tmax_msg_sz:\t\t0x40000000",
                "\t\t\tport_cap_flags:\t\t0x04010000",
                "\t\t\tport_cap_flags2:\t0x0000",
                "\t\t\tmax_vl_num:\t\t1 (1)",
                "\t\t\tbad_pkey_cntr:\t\t0x0",
                "\t\t\tqkey_viol_cntr:\t\t0x0",
                "\t\t\tsm_sl:\t\t\t0",
                "\t\t\tpkey_tbl_len:\t\t1",
                "\t\t\tgid_tbl_len:\t\t4",
                "\t\t\tsubnet_timeout:\t\t0",
                "\t\t\tinit_type_reply:\t0",
                "\t\t\tactive_width:\t\t4X (2)",
                "\t\t\tactive_speed:\t\t10.0 Gbps (4)",
                "\t\t\tphys_state:\t\tDISABLED (3)",
                "\t\t\tGID[  0]:\t\tfe80:0000:0000:0000:0202:c9ff:fea1:b2c2, RoCE v1",
                "\t\t\tGID[  1]:\t\t::ffff:192.168.1.2, RoCE v2",
                "");
        assertEquals(concat(HEAD, device, PORT1, port1, PORT2, port2),
                Fixtures.lines(out -> cmd.show(out, "-v", "-d", "mlx4_0")));
    }

    @Test
    void listAndErrors() {
        DevinfoCommand cmd = new DevinfoCommand(core());
        assertEquals(List.of("1 HCA found:", "\tmlx4_0", ""), Fixtures.lines(out -> cmd.show(out, "-l")));
        RdmaException e = assertThrows(RdmaException.class, () -> cmd.show(System.out, "-d", "mlx4_9"));
        assertEquals("ENODEV: IB device 'mlx4_9' wasn't found", e.getMessage());
        e = assertThrows(RdmaException.class, () -> cmd.show(System.out, "-i", "0"));
        assertEquals("EINVAL: --ib-port must be within [1, 255], got 0; usage: " + DevinfoCommand.USAGE,
                e.getMessage());
        e = assertThrows(RdmaException.class, () -> cmd.show(System.out, "-i", "3"));
        assertEquals("EINVAL: Invalid port requested for device", e.getMessage());
        assertEquals(refs[0], refs[1], "put after a failure too");
        e = assertThrows(RdmaException.class, () -> cmd.show(System.out, "-q"));
        assertEquals("EINVAL: invalid option -- 'q'; usage: " + DevinfoCommand.USAGE, e.getMessage());
    }
}
