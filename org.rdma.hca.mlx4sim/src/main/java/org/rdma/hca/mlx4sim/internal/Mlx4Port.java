package org.rdma.hca.mlx4sim.internal;

import org.rdma.fabric.EthernetPort;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.PortEvent;
import org.rdma.fabric.PortListener;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortCapFlags;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.wire.GuidInfo;
import org.rdma.verbs.wire.PKeyTable;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.VlArbitrationTable;

/**
 * One physical port of the HCA ({@code struct mlx4_ib_dev} per-port state plus the firmware's
 * port context): the PortInfo components the embedded SMA owns, the P_Key, GUID, SL-to-VL and
 * VL arbitration tables, the link I/O ({@link IbLink} or {@link RoceLink}), and the translation of
 * the fabric's port change events into IB events, as {@code mlx4_ib_event()} does for
 * {@code MLX4_DEV_EVENT_PORT_UP}/{@code PORT_DOWN} and {@code handle_port_mgmt_change_event()}
 * (drivers/infiniband/hw/mlx4/main.c, mad.c).
 *
 * <p>SMA-owned fields are written under this object's monitor by {@link Sma} and read lock-free.
 */
final class Mlx4Port implements PortListener {
    /** Number of GUIDInfo entries (one block of 8, mlx4 reports 128 GIDs per IB port). */
    static final int GUID_CAP = GuidInfo.IB_GUID_BLOCK_SIZE;

    final Mlx4Device dev;
    final int num;
    final FabricPort fport;
    final LinkLayer linkLayer;
    final Mlx4Params.PortParams params;
    final LinkIo io;
    final Sma sma;
    final Pma pma;
    final RoceGids roce;

    // ---- PortInfo components the SMA stores (IBTA 14.2.5.6)
    volatile long mkey;
    volatile long gidPrefix = Gid.DEFAULT_SUBNET_PREFIX;
    volatile int smLid;
    volatile int smSl;
    volatile int mkeyLeasePeriod;
    volatile int mkeyProtectBits;
    volatile int subnetTimeout = 18;
    volatile int neighborMtu = PortInfo.MTU_4096;
    volatile int vlHighLimit;
    volatile int vlStallCount;
    volatile int hoqLife;
    volatile int linkDownDefaultState = PortInfo.PHYS_STATE_POLLING;
    volatile boolean partitionEnforcementInbound;
    volatile boolean partitionEnforcementOutbound;
    volatile int capMask;
    volatile int pkeyViolations;
    volatile int qkeyViolations;
    volatile int mkeyViolations;
    /** P_Key table ({@code pkey_table_len} = 128): the default full-member P_Key at index 0. */
    final int[] pkeys = new int[Mlx4Identity.PKEY_TABLE_LEN];
    /** GUIDInfo: the port GUID at index 0 ({@code mlx4_ib_guid} / alias GUIDs). */
    final long[] guids = new long[GUID_CAP];
    /** SL-to-VL mapping table (IBTA 14.2.5.8). */
    final int[] sl2vl = new int[16];
    /** VL arbitration table blocks 1..4 (low 0-31, low 32-63, high 0-31, high 32-63). */
    final VlArbitrationTable[] vlArb = new VlArbitrationTable[4];

    Mlx4Port(Mlx4Device dev, int num, FabricPort fport, Mlx4Params.PortParams params) {
        this.dev = dev;
        this.num = num;
        this.fport = fport;
        this.linkLayer = fport.linkLayer();
        this.params = params;
        pkeys[0] = PKeyTable.IB_DEFAULT_PKEY_FULL;
        guids[0] = fport.portGuid();
        for (int i = 0; i < 4; i++) {
            vlArb[i] = new VlArbitrationTable();
        }
        for (int sl = 0; sl < 16; sl++) {
            sl2vl[sl] = sl & 7;
        }
        if (linkLayer == LinkLayer.ETHERNET) {
            this.capMask = PortCapFlags.IP_BASED_GIDS | PortCapFlags.CM_SUP;
            this.roce = new RoceGids(this, (EthernetPort) fport);
            this.io = new RoceLink(this, (EthernetPort) fport);
            this.sma = null;
            this.pma = null;
        } else {
            this.capMask = Mlx4Identity.IB_PORT_CAP_MASK;
            this.roce = null;
            this.sma = new Sma(this);
            this.pma = new Pma(this);
            this.io = new IbLink(this);
        }
    }

    /** Plugs the port into the fabric: sink and listener ({@code mlx4_ib_add()} arming the port events). */
    void open() {
        fport.addListener(this);
        fport.setSink(io);
        if (roce != null) {
            roce.open();
        }
    }

    /** Unplugs the port ({@code mlx4_ib_remove()}). */
    void close() {
        fport.setSink(null);
        fport.removeListener(this);
        if (roce != null) {
            roce.close();
        }
    }

    /** @return whether this is an InfiniBand port */
    boolean isIb() {
        return linkLayer == LinkLayer.INFINIBAND;
    }

    /** @return the VL an SL maps to on transmit ({@code sl_to_vl} of {@code mlx4_ib_sl2vl_update()}) */
    int vlOf(int sl) {
        return sl2vl[sl & 15];
    }

    /** @return whether {@code dlid} addresses this port (base LID with the LMC path bits, IBTA 7.11.1) */
    boolean ownsLid(int dlid) {
        int lid = fport.lid();
        if (lid == 0) {
            return false;
        }
        int mask = ~((1 << fport.lmc()) - 1);
        return (dlid & mask) == (lid & mask);
    }

    /** @return the SLID of a packet with path bits {@code srcPathBits} ({@code build_mlx_header()}) */
    int slid(int srcPathBits) {
        return fport.lid() | (srcPathBits & ((1 << fport.lmc()) - 1));
    }

    // ================================================================== verbs

    /** {@code mlx4_ib_query_port()} ({@code ib_link_query_port()} / {@code eth_link_query_port()}). */
    PortAttr queryPort() {
        PortAttr a = new PortAttr();
        a.linkLayer = linkLayer;
        a.maxMtu = Mtu.MTU_4096;
        a.maxMsgSz = Integer.MAX_VALUE;
        a.physState = fport.physState();
        a.portCapFlags = capMask;
        a.maxVlNum = PortInfo.VL_CAP_VL0_7;
        a.qkeyViolCntr = qkeyViolations;
        a.badPkeyCntr = pkeyViolations;
        if (isIb()) {
            a.state = fport.portState();
            a.lid = fport.lid();
            a.lmc = fport.lmc();
            a.smLid = smLid;
            a.smSl = smSl;
            a.subnetPrefix = gidPrefix;
            a.subnetTimeout = subnetTimeout;
            a.gidTblLen = Mlx4Identity.IB_GID_TABLE_LEN;
            a.pkeyTblLen = Mlx4Identity.PKEY_TABLE_LEN;
            a.activeMtu = Mtu.of(Math.min(neighborMtu, PortInfo.MTU_4096));
            PortWidth w = fport.linkWidthActive();
            PortSpeed s = fport.linkSpeedActive();
            a.activeWidth = w != null ? w : PortWidth.WIDTH_4X;
            a.activeSpeed = s != null ? s : PortSpeed.SDR;
        } else {
            a.state = fport.portState() == PortState.ACTIVE ? PortState.ACTIVE : PortState.DOWN;
            a.gidTblLen = Mlx4Identity.ROCE_GID_TABLE_LEN;
            a.pkeyTblLen = 1;
            a.ipGids = true;
            a.subnetPrefix = Gid.DEFAULT_SUBNET_PREFIX;
            // iboe_get_mtu(1500): the largest IB MTU fitting the netdev MTU with the RoCE headers
            a.activeMtu = Mtu.MTU_1024;
            a.activeWidth = PortWidth.WIDTH_4X;
            a.activeSpeed = PortSpeed.QDR;
        }
        return a;
    }

    /** {@code mlx4_ib_query_gid()}: SubnetPrefix:GUID on IB, the RoCE GID table on Ethernet. */
    GidEntry queryGid(int index) {
        if (!isIb()) {
            return roce.entry(index);
        }
        if (index < 0 || index >= GUID_CAP) {
            return null;
        }
        long guid = guids[index];
        return guid == 0 ? null : new GidEntry(Gid.of(gidPrefix, guid), GidType.IB, null);
    }

    /** {@code mlx4_ib_query_pkey()}. */
    int queryPkey(int index) {
        if (!isIb()) {
            return index == 0 ? PKeyTable.IB_DEFAULT_PKEY_FULL : 0;
        }
        return index >= 0 && index < pkeys.length ? pkeys[index] : 0;
    }

    /** @return the GID at {@code index} ({@code rdma_query_gid()}), {@code null} if empty */
    Gid gid(int index) {
        GidEntry e = queryGid(index);
        return e == null ? null : e.gid;
    }

    // ================================================================== events

    /**
     * The hardware's port change event ({@code MLX4_EVENT_TYPE_PORT_CHANGE} and the port
     * management change EQE): refreshes rvt's cached port and raises the IB event, as
     * {@code mlx4_ib_event()} does; a PortState change also sends Trap 128 to the SM.
     */
    @Override
    public void portChanged(PortEvent e) {
        dev.refreshPort(num);
        switch (e.type()) {
            case LINK_DOWN:
                dev.dispatch(IbEventType.PORT_ERR, num);
                break;
            case LINK_UP:
                if (!isIb()) {
                    dev.dispatch(IbEventType.PORT_ACTIVE, num);
                } else {
                    sma.linkStateTrap();
                }
                break;
            case PORT_STATE_CHANGE:
                if (e.newState() == PortState.ACTIVE && e.oldState() != PortState.ACTIVE) {
                    dev.dispatch(IbEventType.PORT_ACTIVE, num);
                } else if (e.oldState() == PortState.ACTIVE && e.newState() != PortState.ACTIVE) {
                    dev.dispatch(IbEventType.PORT_ERR, num);
                }
                if (sma != null) {
                    sma.linkStateTrap();
                }
                break;
            case LID_CHANGE:
                dev.dispatch(IbEventType.LID_CHANGE, num);
                break;
            default:
                break;
        }
    }

    @Override
    public String toString() {
        return dev.name() + "/" + num;
    }

    /** Physical state helper for PortInfo. */
    int physStateValue() {
        PhysPortState s = fport.physState();
        return s == null ? PortInfo.PHYS_STATE_POLLING : s.value;
    }
}
