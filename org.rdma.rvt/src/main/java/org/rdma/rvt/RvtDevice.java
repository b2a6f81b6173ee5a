package org.rdma.rvt;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import org.rdma.rvt.internal.qp.DeviceVerbs;
import org.rdma.rvt.internal.qp.RvtContext;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.HwStats;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.spi.IbDeviceProvider;
import org.rdma.verbs.spi.ProviderAh;
import org.rdma.verbs.spi.ProviderCq;
import org.rdma.verbs.spi.ProviderMr;
import org.rdma.verbs.spi.ProviderMw;
import org.rdma.verbs.spi.ProviderPd;
import org.rdma.verbs.spi.ProviderQp;
import org.rdma.verbs.spi.ProviderSrq;
import org.rdma.verbs.time.IbClock;

/**
 * One software RDMA device ({@code struct rvt_dev_info}): every verb of the driver SPI on top of
 * the transport, for a driver that supplies ports and packet transmission through an
 * {@link RvtDriver}. The driver publishes this object (or a wrapper delegating to it) as its
 * {@link IbDeviceProvider} service and calls {@link #receive} for every transport packet that
 * passed its link-level checks.
 *
 * <h2>What it implements</h2>
 * PD; AH; CQ (ring, SOLICITED / NEXT_COMP / REPORT_MISSED_EVENTS arming); QP of type RC, UC, UD,
 * GSI (QP1) and SMI (QP0); SRQ with the limit event; MR ({@code reg_user_mr} over the buffer,
 * {@code get_dma_mr} through the core's DMA space, {@code alloc_mr} MEM_REG and SG_GAPS with
 * {@code map_mr_sg}), INTEGRITY ({@code alloc_mr_integrity}, {@code map_mr_sg_pi}, REG_MR_INTEGRITY
 * and {@code check_mr_status}: T10-PI inserted, stripped, passed and checked as data moves; see
 * {@code org.rdma.rvt.internal.mem.SigRegion}); MW type 1 and 2; multicast attach/detach.
 *
 * <h2>BIND_MW work requests</h2>
 * {@link org.rdma.verbs.SendWr} has no {@code ib_bind_mw_wr} fields, so a bind is described as:
 * {@code rkey} the window's current rkey, {@code key} the new rkey (same index, new key byte),
 * {@code sgList[0]} the bound range as {@code (addr, length, lkey of the MR)} (no element or length
 * 0 unbinds a type 1 window), {@code access} the window's access flags.
 *
 * <h2>Loopback</h2>
 * Every packet goes through {@link RvtDriver#transmit}, including packets to this device's own
 * ports; the driver (or its fabric) loops them back, and may call {@link #receive} directly.
 *
 * <h2>Threads</h2>
 * Any thread may post, poll, modify and receive. Each QP runs its requester, completer and
 * responder as one rxe-style task, so a synchronous {@code transmit} that delivers straight into
 * the peer (or back into this device) neither recurses without bound nor deadlocks. Completion
 * handlers and asynchronous events are delivered once the calling thread has left the transport.
 * Timers use only the injected {@link IbClock}.
 */
public class RvtDevice implements IbDeviceProvider {
    private final DeviceInfo info;
    private final DeviceAttr attr;
    private final RvtDriver driver;
    private final DeviceVerbs verbs;
    private final RvtContext dev;

    /**
     * A device with the driver's identity, capabilities (see {@link #defaultAttr()}), port
     * callbacks and clock.
     */
    public RvtDevice(DeviceInfo info, DeviceAttr attr, RvtDriver driver, IbClock clock) {
        this.info = info;
        this.attr = attr.copy();
        this.driver = driver;
        this.verbs = new DeviceVerbs(info, this.attr, driver, clock);
        this.dev = verbs.context();
    }

    /** Capabilities in the spirit of rxe's defaults, for drivers to adjust. */
    public static DeviceAttr defaultAttr() {
        DeviceAttr a = new DeviceAttr();
        a.fwVer = 1;
        a.maxMrSize = Long.MAX_VALUE;
        a.pageSizeCap = 0xfffff000L;
        a.maxQp = 1024;
        a.maxQpWr = 16384;
        a.deviceCapFlags = DeviceCapFlags.BAD_PKEY_CNTR | DeviceCapFlags.BAD_QKEY_CNTR
                | DeviceCapFlags.AUTO_PATH_MIG | DeviceCapFlags.CHANGE_PHY_PORT | DeviceCapFlags.UD_AV_PORT_ENFORCE
                | DeviceCapFlags.PORT_ACTIVE_EVENT | DeviceCapFlags.SYS_IMAGE_GUID | DeviceCapFlags.RC_RNR_NAK_GEN
                | DeviceCapFlags.SRQ_RESIZE | DeviceCapFlags.MEM_MGT_EXTENSIONS | DeviceCapFlags.MEM_WINDOW
                | DeviceCapFlags.MEM_WINDOW_TYPE_2A | DeviceCapFlags.MEM_WINDOW_TYPE_2B;
        a.kernelCapFlags = DeviceCapFlags.IBK_SG_GAPS_REG | DeviceCapFlags.IBK_INTEGRITY_HANDOVER;
        a.maxSendSge = 32;
        a.maxRecvSge = 32;
        a.maxSgeRd = 32;
        a.maxCq = 16384;
        a.maxCqe = (1 << 16) - 1;
        a.maxMr = 65536;
        a.maxPd = 65536;
        a.maxQpRdAtom = 128;
        a.maxResRdAtom = 128 * 1024;
        a.maxQpInitRdAtom = 128;
        a.atomicCap = 1;
        a.maxMw = 4096;
        a.maxMcastGrp = 8192;
        a.maxMcastQpAttach = 56;
        a.maxTotalMcastQpAttach = 8192 * 56;
        a.maxAh = 65536;
        a.maxSrq = 960;
        a.maxSrqWr = 16384;
        a.maxSrqSge = 27;
        a.maxFastRegPageListLen = 512;
        a.maxPiFastRegPageListLen = 256;
        a.maxPkeys = 64;
        a.localCaAckDelay = 15;
        a.maxInlineData = 256;
        a.numCompVectors = 1;
        return a;
    }

    // ================================================================== driver side

    /**
     * Receives one transport packet ({@code rxe_rcv()}); see {@link RvtPacket} for what the driver
     * fills and for ownership. Never throws for a bad packet: it is dropped and counted.
     */
    public void receive(int port, RvtPacket pkt) {
        verbs.receiver().receive(port, pkt);
    }

    /**
     * Re-reads a port's attributes and P_Key table; the driver calls it after it changed them
     * (the datapath uses a cached copy).
     */
    public void refreshPort(int port) {
        dev.refreshPort(port);
    }

    /** A transport counter. */
    public long counter(RvtCounter c) {
        return dev.counter(c);
    }

    /** The transport's counters as Linux rxe names them ({@code rxe_counter_descs}), in its order. */
    private static final String[] HW_STAT_NAMES = {
        "sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request", "rcvd_rnr_err",
        "send_rnr_err", "rcvd_seq_err", "ack_deferred", "retry_exceeded_err",
        "retry_rnr_exceeded_err", "completer_retry_err", "send_err", "link_downed", "rdma_sends",
        "rdma_recvs",
    };
    private static final RvtCounter[] HW_STATS = {
        RvtCounter.SENT_PKTS, RvtCounter.RCVD_PKTS, RvtCounter.DUPLICATE_REQUEST,
        RvtCounter.OUT_OF_SEQUENCE, RvtCounter.RCV_RNR_ERR, RvtCounter.SND_RNR,
        RvtCounter.RCV_SEQ_ERR, RvtCounter.ACK_DEFERRED, RvtCounter.RETRY_EXCEEDED,
        RvtCounter.RNR_RETRY_EXCEEDED, RvtCounter.COMP_RETRY, RvtCounter.SEND_ERR,
        RvtCounter.LINK_DOWNED, RvtCounter.RDMA_SENDS, RvtCounter.RDMA_RECVS,
    };

    /**
     * {@code rxe_ib_alloc_hw_port_stats()}: the transport's counters (device-wide, as rxe's are),
     * then the driver's own for the port.
     */
    @Override
    public HwStats allocHwPortStats(int port) {
        String[] extra = driver.hwStatNames(port);
        String[] names = Arrays.copyOf(HW_STAT_NAMES, HW_STAT_NAMES.length + extra.length);
        System.arraycopy(extra, 0, names, HW_STAT_NAMES.length, extra.length);
        return new HwStats(names);
    }

    /** {@code rxe_ib_get_hw_stats()}. */
    @Override
    public int getHwStats(HwStats stats, int port, int index) {
        int n = Math.min(index, stats.numCounters());
        for (int i = 0; i < Math.min(n, HW_STATS.length); i++) {
            stats.value[i] = counter(HW_STATS[i]);
        }
        if (n > HW_STATS.length) {
            driver.getHwStats(port, stats.value, HW_STATS.length);
        }
        return n;
    }

    /** {@code rvt_qp_iter()}: calls {@code cb} for every live QP. */
    public void forEachQp(Consumer<? super ProviderQp> cb) {
        verbs.forEachQp(cb);
    }

    // ================================================================== IbDeviceProvider

    @Override
    public DeviceInfo info() {
        return info;
    }

    @Override
    public void attach(DeviceContext ctx) {
        dev.setDeviceContext(ctx);
        for (int p = 1; p <= info.physPortCnt; p++) {
            dev.refreshPort(p);
        }
    }

    @Override
    public void detach() {
        dev.setDeviceContext(null);
    }

    @Override
    public DeviceAttr queryDevice() {
        return attr.copy();
    }

    @Override
    public PortAttr queryPort(int port) {
        return driver.queryPort(port);
    }

    @Override
    public GidEntry queryGid(int port, int index) {
        return driver.queryGid(port, index);
    }

    @Override
    public int queryPkey(int port, int index) {
        return driver.queryPkey(port, index);
    }

    @Override
    public void modifyPort(int port, int mask, PortModify modify) {
        driver.modifyPort(port, mask, modify);
        dev.refreshPort(port);
    }

    @Override
    public ProviderPd allocPd(IbPd pd) {
        return verbs.allocPd(pd);
    }

    @Override
    public ProviderAh createAh(IbAh ah, AhAttr attr, int flags) {
        return verbs.createAh(ah, attr);
    }

    @Override
    public ProviderCq createCq(IbCq cq, CqInitAttr attr) {
        return verbs.createCq(cq, attr);
    }

    @Override
    public ProviderQp createQp(IbQp qp, ProviderPd pd, QpInitAttr init) {
        return verbs.createQp(qp, pd, init);
    }

    @Override
    public ProviderMr getDmaMr(IbMr mr, ProviderPd pd, int access) {
        return verbs.getDmaMr(mr, pd, access);
    }

    @Override
    public ProviderSrq createSrq(IbSrq srq, ProviderPd pd, SrqInitAttr init) {
        return verbs.createSrq(srq, pd, init);
    }

    @Override
    public ProviderMr regUserMr(IbMr mr, ProviderPd pd, ByteBuffer buffer, long iova, int access) {
        return verbs.regUserMr(mr, pd, buffer, iova, access);
    }

    @Override
    public ProviderMr allocMr(IbMr mr, ProviderPd pd, MrType type, int maxNumSg) {
        return verbs.allocMr(mr, pd, type, maxNumSg);
    }

    @Override
    public ProviderMr allocMrIntegrity(IbMr mr, ProviderPd pd, int maxNumDataSg, int maxNumMetaSg) {
        return verbs.allocMrIntegrity(mr, pd, maxNumDataSg, maxNumMetaSg);
    }

    @Override
    public ProviderMw allocMw(IbMw mw, ProviderPd pd, MwType type) {
        return verbs.allocMw(mw, pd, type);
    }
}
