package org.rdma.hca.rxe.internal;

import java.net.InetAddress;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.rdma.rvt.RvtDevice;
import org.rdma.rvt.RvtDriver;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbEvent;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.Mtu;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PhysPortState;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortSpeed;
import org.rdma.verbs.PortState;
import org.rdma.verbs.PortWidth;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.DeviceContext;
import org.rdma.verbs.spi.DeviceInfo;
import org.rdma.verbs.spi.GidEntry;
import org.rdma.verbs.time.IbClock;

/**
 * One Soft-RoCE device ({@code rxe_add()} / {@code rxe_net_add()}): a single Ethernet port on a
 * host interface, the GID table from its addresses, RoCEv2 over UDP ({@link RxeNet}) and the rvt
 * transport, which this class serves as {@link RvtDriver}.
 *
 * <h2>Identity</h2>
 * Node GUID and system image GUID are the interface's MAC as EUI-64 ({@code rxe_init_device_param}
 * uses {@code addrconf_addr_eui48}); an interface without a MAC gets the synthetic MAC of
 * {@link RxeWire#syntheticMac}. Device attributes are rvt's rxe defaults; one P_Key, 0xFFFF.
 *
 * <h2>Address changes</h2>
 * The interface is re-read every {@link RxeParams#pollMs} on the injected clock (one timer per
 * device, nothing on the datapath). When the GIDs change the port is refreshed and GID_CHANGE
 * dispatched; when the MTU or up state change the port is refreshed and PORT_ACTIVE/PORT_ERR
 * dispatched; the receive sockets follow the addresses.
 *
 * <h2>Locking</h2>
 * The interface reading is one immutable snapshot in a volatile field; the datapath reads it
 * without locks. Events are dispatched from the timer thread with no lock held.
 */
public final class RxeDevice implements RvtDriver {
    private final RxeParams params;
    private final IbClock clock;
    private final RxeGids reader;
    private volatile RxeGids.Snapshot snap;
    private final long nodeGuid;
    private final Rvt rvt;
    private final RxeNet net;
    private volatile DeviceContext ctx;
    private volatile IbClock.Timer poll;
    private volatile boolean closed;

    /** Datagrams received and handed to the transport. */
    final AtomicLong rxPackets = new AtomicLong();
    /** Datagrams dropped before the transport (malformed, unsupported opcode, wrong family). */
    final AtomicLong rxDropped = new AtomicLong();
    /** Datagrams dropped for a bad ICRC. */
    final AtomicLong rxCrcErrors = new AtomicLong();
    /** Datagrams sent. */
    final AtomicLong txPackets = new AtomicLong();
    /** Packets not sent (no source GID, wrong family, too long). */
    final AtomicLong txDropped = new AtomicLong();
    /** Transmit calls answered -EAGAIN (send queue full). */
    final AtomicLong txBusy = new AtomicLong();
    /** Socket send errors. */
    final AtomicLong txErrors = new AtomicLong();
    /** Receive sockets that could not be bound after an address change. */
    final AtomicLong bindErrors = new AtomicLong();
    /** GID_CHANGE events dispatched. */
    final AtomicLong gidChanges = new AtomicLong();
    /** Datagrams dropped by the fault hook ({@link RxeParams#rxDropProbability}). */
    final AtomicLong rxFaultDrops = new AtomicLong();
    /** IPv4 UD datagrams accepted with the Identification recovered from their ICRC ({@link Ipv4Ident}). */
    final AtomicLong rxIdentRecovered = new AtomicLong();
    /** Multicast groups joined on the interface ({@link #mcastAdd}). */
    final AtomicLong mcastJoins = new AtomicLong();
    /** Multicast groups left ({@link #mcastDel}). */
    final AtomicLong mcastLeaves = new AtomicLong();

    /** The transport device, keeping the core's context for events. */
    private final class Rvt extends RvtDevice {
        Rvt(DeviceInfo info, DeviceAttr attr) {
            super(info, attr, RxeDevice.this, params.clock);
        }

        @Override
        public void attach(DeviceContext context) {
            ctx = context;
            super.attach(context);
            context.setNetdev(1, params.netdev);
        }

        @Override
        public void detach() {
            super.detach();
            ctx = null;
        }
    }

    /**
     * {@code rdma link add}: reads the interface, opens the sockets, starts the threads and the
     * address poll.
     *
     * @throws RdmaException ENODEV (no such interface), EADDRINUSE (UDP port taken), EINVAL
     */
    public RxeDevice(RxeParams params) {
        if (params.clock == null) {
            throw new RdmaException(Errno.EINVAL, "rxe needs a clock");
        }
        if (params.udpPort < 1 || params.udpPort > 65535 || params.remoteUdpPort < 0 || params.remoteUdpPort > 65535) {
            throw new RdmaException(Errno.EINVAL, "bad UDP port");
        }
        if (!(params.rxDropProbability >= 0 && params.rxDropProbability <= 1)) {
            throw new RdmaException(Errno.EINVAL, "drop probability " + params.rxDropProbability + " is not in [0, 1]");
        }
        this.params = params;
        this.clock = params.clock;
        this.reader = new RxeGids(params.netdev, params.udpPort);
        this.snap = reader.read();
        this.nodeGuid = RxeWire.eui64(snap.mac);
        DeviceAttr attr = RvtDevice.defaultAttr();
        attr.sysImageGuid = nodeGuid;
        attr.vendorId = 0xFFFFFF;
        DeviceInfo info = new DeviceInfo();
        info.nameTemplate = params.nameTemplate;
        info.driverId = "rxe";
        info.nodeType = NodeType.CA;
        info.nodeGuid = nodeGuid;
        info.nodeDesc = "rxe";
        info.physPortCnt = 1;
        this.rvt = new Rvt(info, attr);
        this.net = new RxeNet(this, params, bindable(snap), params.netdev + ":" + params.udpPort);
        schedulePoll();
    }

    /** The snapshot's addresses that get receive sockets. */
    private List<InetAddress> bindable(RxeGids.Snapshot s) {
        List<InetAddress> l = new ArrayList<>();
        for (InetAddress a : s.addresses) {
            if (a == null || l.contains(a)) {
                continue;
            }
            if (params.bindAddresses.isEmpty() || matches(a)) {
                l.add(a);
            }
        }
        return l;
    }

    private boolean matches(InetAddress a) {
        for (String b : params.bindAddresses) {
            try {
                if (InetAddress.getByName(b).equals(a)) {
                    return true;
                }
            } catch (java.net.UnknownHostException e) {
                // not an address: ignore
            }
        }
        return false;
    }

    private void schedulePoll() {
        if (!closed) {
            poll = clock.schedule(this::pollNow, params.pollMs, TimeUnit.MILLISECONDS);
        }
    }

    /** Re-reads the interface; dispatches GID_CHANGE / port events on change. */
    void pollNow() {
        if (closed) {
            return;
        }
        try {
            RxeGids.Snapshot n;
            try {
                n = reader.read();
            } catch (RdmaException gone) {
                n = new RxeGids.Snapshot(snap.entries, snap.addresses, snap.mac, snap.mtu, false);
            }
            RxeGids.Snapshot old = snap;
            if (n.differs(old)) {
                snap = n;
                if (!n.sameGids(old)) {
                    net.rebind(bindable(n));
                }
                refreshPort();
                if (!n.sameGids(old)) {
                    gidChanges.incrementAndGet();
                    dispatch(IbEventType.GID_CHANGE);
                }
                if (n.up != old.up) {
                    dispatch(n.up ? IbEventType.PORT_ACTIVE : IbEventType.PORT_ERR);
                }
            }
        } finally {
            schedulePoll();
        }
    }

    private void refreshPort() {
        if (ctx != null) {
            rvt.refreshPort(1);
        }
    }

    private void dispatch(IbEventType t) {
        DeviceContext c = ctx;
        if (c != null) {
            c.dispatchEvent(IbEvent.port(c.device(), t, 1));
        }
    }

    /** Hands a received packet to the transport (called by the receive thread). */
    void deliver(RvtPacket pkt) {
        rvt.receive(1, pkt);
    }

    /**
     * {@code rdma link delete}: stops the poll, flushes the send queue, ends both threads and
     * closes every socket. Idempotent; the provider must already be unregistered.
     */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        IbClock.Timer t = poll;
        if (t != null) {
            t.cancel();
        }
        net.close();
    }

    // ================================================================== accessors

    /** @return the {@code IbDeviceProvider} */
    public RvtDevice provider() {
        return rvt;
    }

    /** @return NodeGUID (EUI-64 of the MAC) */
    public long nodeGuid() {
        return nodeGuid;
    }

    /** @return the MAC the identity derives from */
    public byte[] mac() {
        return snap.mac.clone();
    }

    /** @return the UDP port receive sockets bind */
    public int udpPort() {
        return params.udpPort;
    }

    /** @return the addresses with a receive socket */
    public java.util.Set<InetAddress> boundAddresses() {
        return net.boundAddresses();
    }

    /** @return every socket the device holds open */
    List<DatagramChannel> channels() {
        return net.channels();
    }

    /**
     * Makes every send find the socket buffer full while {@code full} (loopback never fills one),
     * so tests can drive the send backlog and the {@code -EAGAIN} back-pressure.
     */
    void simulateFullSocket(boolean full) {
        net.simulateFullSocket(full);
    }

    /** @return whether the receive and send threads have ended */
    public boolean threadsEnded() {
        return net.threadsEnded();
    }

    /** @return datagrams dropped for a bad ICRC */
    public long rxCrcErrors() {
        return rxCrcErrors.get();
    }

    /** @return datagrams dropped before the transport */
    public long rxDropped() {
        return rxDropped.get();
    }

    /** @return datagrams received */
    public long rxPackets() {
        return rxPackets.get();
    }

    /** @return datagrams sent */
    public long txPackets() {
        return txPackets.get();
    }

    /** @return transmit calls refused with -EAGAIN */
    public long txBusy() {
        return txBusy.get();
    }

    /** @return datagrams the fault hook dropped on receive */
    public long rxFaultDrops() {
        return rxFaultDrops.get();
    }

    /** @return IPv4 UD datagrams accepted with the Identification recovered from their ICRC */
    public long rxIdentRecovered() {
        return rxIdentRecovered.get();
    }

    /** @return multicast groups joined on the interface since the device was added */
    public long mcastJoins() {
        return mcastJoins.get();
    }

    /** @return multicast groups left since the device was added */
    public long mcastLeaves() {
        return mcastLeaves.get();
    }

    /** @return the multicast GIDs whose IP groups the device has joined now */
    public java.util.Set<Gid> mcastGroups() {
        return net.groups();
    }

    /** @return GID_CHANGE events dispatched */
    public long gidChanges() {
        return gidChanges.get();
    }

    // ================================================================== RvtDriver

    /**
     * Counters beyond Linux rxe's, shown after them by {@code rdma statistic}: datagrams
     * dropped for a bad ICRC (Linux rxe drops those without a trace), datagrams dropped
     * before the transport (malformed, wrong address family) and packets not sent.
     */
    static final String[] EXTENSION_STATS = {"icrc_err", "rcvd_dropped", "send_dropped"};

    @Override
    public String[] hwStatNames(int port) {
        return EXTENSION_STATS.clone();
    }

    @Override
    public void getHwStats(int port, long[] value, int offset) {
        value[offset] = rxCrcErrors.get();
        value[offset + 1] = rxDropped.get();
        value[offset + 2] = txDropped.get();
    }

    /** {@code rxe_query_port()}. */
    @Override
    public PortAttr queryPort(int port) {
        check(port);
        RxeGids.Snapshot s = snap;
        PortAttr a = new PortAttr();
        a.linkLayer = LinkLayer.ETHERNET;
        a.state = s.up ? PortState.ACTIVE : PortState.DOWN;
        a.physState = s.up ? PhysPortState.LINK_UP : PhysPortState.DISABLED;
        a.maxMtu = Mtu.MTU_4096;
        a.activeMtu = Mtu.fromBytes(RxeWire.pathMtu(s.mtu));
        a.physMtu = s.mtu;
        a.gidTblLen = RxeGids.TABLE_LEN;
        a.pkeyTblLen = 1;
        a.ipGids = true;
        a.subnetPrefix = org.rdma.verbs.Gid.DEFAULT_SUBNET_PREFIX;
        a.maxMsgSz = Integer.MAX_VALUE;
        a.activeWidth = PortWidth.WIDTH_1X;
        a.activeSpeed = PortSpeed.EDR;
        return a;
    }

    @Override
    public GidEntry queryGid(int port, int index) {
        check(port);
        return snap.entry(index);
    }

    @Override
    public int queryPkey(int port, int index) {
        check(port);
        return index == 0 ? 0xFFFF : 0;
    }

    /** {@code rxe_av_fill_ip_info()}: a RoCE AV needs a GRH; the MAC is not used by UDP sockets. */
    @Override
    public void resolveAh(int port, AhAttr attr) {
        check(port);
        if (!attr.hasGrh()) {
            throw new RdmaException(Errno.EINVAL, "a RoCE address needs a GRH");
        }
        attr.type = AhAttrType.ROCE;
        if (snap.entry(attr.grh.sgidIndex) == null) {
            throw new RdmaException(Errno.EINVAL, "no GID at index " + attr.grh.sgidIndex);
        }
    }

    /** {@code rxe_mcast_add()}: the first QP attached to {@code mgid}; the interface joins its IP group. */
    @Override
    public void mcastAdd(int port, Gid mgid) {
        check(port);
        net.join(mgid);
        mcastJoins.incrementAndGet();
    }

    /** {@code rxe_mcast_del()}: the last QP left {@code mgid}; the interface leaves its IP group. */
    @Override
    public void mcastDel(int port, Gid mgid) {
        net.leave(mgid);
        mcastLeaves.incrementAndGet();
    }

    @Override
    public int transmit(int port, RvtPacket pkt) {
        return net.transmit(pkt, snap);
    }

    private static void check(int port) {
        if (port != 1) {
            throw new RdmaException(Errno.EINVAL, "rxe has one port, not " + port);
        }
    }
}
