package org.rdma.hca.rxe.internal;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * The UDP tunnel of one device ({@code rxe_net.c}): RoCEv2 datagrams through
 * {@link DatagramChannel}s.
 *
 * <h2>Sockets</h2>
 * <ul>
 *   <li>Receive: one non-blocking channel per local address of the interface (or per configured
 *       bind address), bound to {@code (address, udp port)}, all on one {@link Selector} served by
 *       the device's receive thread. Binding per address tells the receiver the destination
 *       address of each datagram, which the ICRC pseudo header and the DGID need.</li>
 *   <li>Multicast: one more receive channel per group a QP is attached to ({@link #join}), bound
 *       to {@code (group address, udp port)} with SO_REUSEADDR and joined on the interface, on the
 *       same selector; the group address is the DGID and the ICRC's destination, as for unicast.
 *       Linux rxe's {@code rxe_mcast_add()} only adds the group's MAC to the netdev, because the
 *       kernel's RDMA CM joins the IP group for it ({@code cma_igmp_send()}); a socket must do
 *       both here.</li>
 *   <li>Send: one blocking channel per (source address, UDP source port), opened on first use and
 *       bound with SO_REUSEADDR/SO_REUSEPORT to {@code 0xC000 | hash_32(BTH.DestQP, 14)}, so the
 *       source port on the wire is rxe's flow hash; if that port cannot be bound the packet leaves
 *       from an ephemeral port (the ICRC always covers the port actually used). A datagram to a
 *       multicast DGID leaves from the flow's unconnected socket, pointed at the interface
 *       (IP_MULTICAST_IF), with the AV's hop limit as its TTL; IP_MULTICAST_LOOP stays on, so the
 *       device's own attached QPs get it too, as with Linux rxe.</li>
 * </ul>
 *
 * <h2>Threads and back-pressure</h2>
 * {@link #transmit} builds the datagram (with its ICRC) in a direct buffer from a bounded pool and
 * sends it on the caller's thread, as {@code rxe_xmit_packet()} hands the skb to the IP stack in
 * the requester's context; the send sockets are non-blocking, so a full socket buffer never
 * stalls a transport task: the datagram then goes to the send thread, which waits for room, and
 * every later datagram queues behind it until the backlog is gone (order is kept). With every
 * buffer in flight {@link #transmit} answers {@code -EAGAIN} and rvt retries. The receive thread
 * checks the ICRC, splits header and payload and calls {@code RvtDevice.receive}; a packet the
 * transport retains keeps its buffer until released. Buffers are direct, so the JDK moves
 * datagrams between them and the kernel without a copy of its own. {@link #close()} lets the
 * send thread flush the queue, stops both threads and closes every socket.
 *
 * <h2>Fault hook</h2>
 * With {@link RxeParams#rxDropProbability} above 0 the receive thread drops each datagram with
 * that probability before looking at it, as if it had been lost on the wire, deciding from a
 * random sequence seeded with {@link RxeParams#rxDropSeed} (repeatable for a given arrival
 * order), and counts it ({@link RxeDevice#rxFaultDrops()}).
 */
final class RxeNet implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RxeNet.class.getName());
    private static final int HEADROOM = RxeWire.HEADROOM;
    private static final int MAX_DATAGRAM = RxeWire.MAX_DATAGRAM;
    private static final long JOIN_MS = 5000;
    /** How long the send thread waits for socket buffer room before trying again. */
    private static final long SEND_RETRY_NANOS = 20_000;

    private final RxeDevice dev;
    private final RxeParams params;
    private final int destPort;
    private final Selector selector;
    private final Map<InetAddress, DatagramChannel> rx = new HashMap<>();
    private final AtomicReference<List<InetAddress>> rebind = new AtomicReference<>();
    private final Map<InetAddress, SendSide> sides = new ConcurrentHashMap<>();
    private final Map<Gid, Dest> dests = new ConcurrentHashMap<>();
    /** The receive channel of each joined group; guarded by this. */
    private final Map<Gid, DatagramChannel> groups = new HashMap<>();
    private final ArrayBlockingQueue<TxBuf> txFree;
    private final ArrayBlockingQueue<TxBuf> txQueue;
    /** Serialises sending; guards {@link #txBacklog}. */
    private final Object txLock = new Object();
    /** Datagrams handed to the send thread and not yet sent: while above 0 nobody sends inline. */
    private int txBacklog;
    /** Test hook: every send finds the socket buffer full. */
    private volatile boolean fullSocket;
    private final AtomicInteger txAllocated = new AtomicInteger();
    private final ArrayDeque<RxSlot> rxFree = new ArrayDeque<>();
    private final Thread rxThread;
    private final Thread txThread;
    private final TxBuf poison = new TxBuf();
    private final Consumer<SelectionKey> onReadable = this::drain;
    /** A receive slot taken but not filled yet (receive thread only). */
    private RxSlot spare;
    /** Recovers IPv4 Identifications; used by the receive thread only. */
    private final Ipv4Ident ident = new Ipv4Ident();
    /** The fault hook's decisions; used by the receive thread only. */
    private final SplittableRandom dropRandom;
    /** Peers whose IPv4 ICRC mismatch was logged, each once; bounded, as the addresses come from the wire. */
    private final Set<InetAddress> icrcNoticed = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** Opens the receive sockets for {@code addrs} and starts the threads. */
    RxeNet(RxeDevice dev, RxeParams params, List<InetAddress> addrs, String name) {
        this.dev = dev;
        this.params = params;
        this.destPort = params.destPort();
        this.txFree = new ArrayBlockingQueue<>(params.sendQueue);
        this.txQueue = new ArrayBlockingQueue<>(params.sendQueue + 1);
        this.dropRandom = new SplittableRandom(params.rxDropSeed);
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new RdmaException(Errno.ENOMEM, "cannot open a selector: " + e.getMessage());
        }
        try {
            for (InetAddress a : addrs) {
                openRx(a);
            }
        } catch (IOException e) {
            closeSockets();
            throw new RdmaException(Errno.EADDRINUSE, "cannot bind UDP port " + params.udpPort + ": " + e.getMessage());
        }
        rxThread = new Thread(this::rxLoop, "rxe-rx-" + name);
        txThread = new Thread(this::txLoop, "rxe-tx-" + name);
        rxThread.setDaemon(true);
        txThread.setDaemon(true);
        rxThread.start();
        txThread.start();
    }

    // ================================================================== sockets

    private void openRx(InetAddress a) throws IOException {
        DatagramChannel ch = DatagramChannel.open(family(a));
        try {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            ch.bind(new InetSocketAddress(a, params.udpPort));
            ch.configureBlocking(false);
            ch.register(selector, SelectionKey.OP_READ, new Local(a, a.getAddress()));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        rx.put(a, ch);
    }

    private static ProtocolFamily family(InetAddress a) {
        return a instanceof Inet4Address ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
    }

    /** The addresses with a receive socket (read on the receive thread or after close). */
    synchronized Set<InetAddress> boundAddresses() {
        return Set.copyOf(rx.keySet());
    }

    /** Asks the receive thread to bind exactly {@code addrs} (after an address change). */
    void rebind(List<InetAddress> addrs) {
        rebind.set(addrs);
        selector.wakeup();
    }

    private synchronized void applyRebind() {
        List<InetAddress> want = rebind.getAndSet(null);
        if (want == null) {
            return;
        }
        for (Iterator<Map.Entry<InetAddress, DatagramChannel>> it = rx.entrySet().iterator(); it.hasNext();) {
            Map.Entry<InetAddress, DatagramChannel> e = it.next();
            if (!want.contains(e.getKey())) {
                quietClose(e.getValue());
                it.remove();
            }
        }
        for (InetAddress a : want) {
            if (!rx.containsKey(a)) {
                try {
                    openRx(a);
                } catch (IOException | RuntimeException e) {
                    dev.bindErrors.incrementAndGet();
                }
            }
        }
    }

    /** The send sockets of one source address. */
    private static final class SendSide {
        final InetAddress addr;
        /** {@link #addr} as bytes, for the ICRC pseudo header (InetAddress copies them on every call). */
        final byte[] addrBytes;
        final Flow[] flows = new Flow[1 << RxeWire.SPORT_BITS];
        /** The ephemeral-port socket of the flows whose source port could not be bound. */
        DatagramChannel fallback;

        SendSide(InetAddress addr) {
            this.addr = addr;
            this.addrBytes = addr.getAddress();
        }
    }

    /**
     * The sockets of one source port: one unconnected, for any destination, and one connected to
     * the first destination the port is used for. The source port is the hash of the destination
     * QP, so a flow nearly always has one peer, and a connected socket sends without the route
     * lookup and address conversion an unconnected {@code sendto()} pays for every datagram.
     */
    private static final class Flow {
        final DatagramChannel any;
        /** The source port; the connected socket is bound to it too (SO_REUSEPORT). */
        final int port;
        /** Written once under the side's monitor; {@link #peer} is published last. */
        DatagramChannel connected;
        volatile Dest peer;
        boolean connectFailed;
        /** The interface and TTL set on {@link #any} for multicast (guarded by the side's monitor); TTL -1: none yet. */
        NetworkInterface mcastIf;
        int mcastTtl = -1;

        Flow(DatagramChannel any, int port) {
            this.any = any;
            this.port = port;
        }
    }

    /** A destination: its socket address and its IP address bytes. */
    private record Dest(InetSocketAddress sa, byte[] ip) {
    }

    /** The flow of {@code src} for source port {@code sport}, its unconnected socket open. */
    private Flow flow(SendSide s, int sport) throws IOException {
        int i = sport & ((1 << RxeWire.SPORT_BITS) - 1);
        Flow f = s.flows[i];
        if (f != null) {
            return f;
        }
        synchronized (s) {
            if (closed) {
                throw new IOException("closed");
            }
            if (s.flows[i] == null) {
                DatagramChannel ch;
                try {
                    ch = openSend(s.addr, sport);
                } catch (IOException e) {
                    if (s.fallback == null) {
                        DatagramChannel fb = DatagramChannel.open(family(s.addr)).bind(new InetSocketAddress(s.addr, 0));
                        fb.configureBlocking(false);
                        s.fallback = fb;
                    }
                    ch = s.fallback;
                }
                s.flows[i] = new Flow(ch, ((InetSocketAddress) ch.getLocalAddress()).getPort());
            }
            return s.flows[i];
        }
    }

    /** A non-blocking send socket bound (shared, SO_REUSEPORT) to {@code (src, sport)}. */
    private static DatagramChannel openSend(InetAddress src, int sport) throws IOException {
        DatagramChannel ch = DatagramChannel.open(family(src));
        try {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (ch.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
                ch.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            ch.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
            ch.bind(new InetSocketAddress(src, sport));
            ch.configureBlocking(false);
            return ch;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    /** Whether {@code f} has (or now gets) a socket connected to {@code dst}. */
    private boolean connected(SendSide s, Flow f, Dest dst) {
        Dest p = f.peer;
        if (p != null) {
            return p == dst || p.sa().equals(dst.sa());
        }
        synchronized (s) {
            if (closed || f.connectFailed || f.any == s.fallback) {
                return false;
            }
            if (f.peer == null) {
                try {
                    DatagramChannel ch = openSend(s.addr, f.port);
                    try {
                        ch.connect(dst.sa());
                    } catch (IOException e) {
                        ch.close();
                        throw e;
                    }
                    f.connected = ch;
                    f.peer = dst;
                } catch (IOException e) {
                    f.connectFailed = true;
                    return false;
                }
            }
            return f.peer.sa().equals(dst.sa());
        }
    }

    private Dest destination(Gid dgid, InetAddress src) {
        Dest d = dests.get(dgid);
        if (d == null) {
            InetAddress ip = dgid.toInetAddress();
            if (dgid.isLinkLocal() && src instanceof Inet6Address && ((Inet6Address) src).getScopeId() != 0) {
                try {
                    ip = Inet6Address.getByAddress(null, dgid.bytes(), ((Inet6Address) src).getScopeId());
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
            d = new Dest(new InetSocketAddress(ip, destPort), ip.getAddress());
            if (dests.size() > 4096) {
                dests.clear();
            }
            dests.put(dgid, d);
        }
        return d;
    }

    // ================================================================== multicast

    /**
     * {@code rxe_mcast_add()}: a receive channel for the group {@code mgid}, bound to its address
     * and the UDP port and joined on the interface.
     *
     * @throws RdmaException ENODEV (the interface is gone), EADDRNOTAVAIL (the group cannot be
     *     bound or joined there)
     */
    synchronized void join(Gid mgid) {
        RdmaException.check(!closed, Errno.ENODEV, "rxe on " + params.netdev + " is closed");
        if (groups.containsKey(mgid)) {
            return;
        }
        NetworkInterface nif = netif();
        InetAddress group = groupAddress(mgid, nif);
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open(family(group));
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            ch.bind(new InetSocketAddress(group, params.udpPort));
            ch.join(group, nif);
            ch.configureBlocking(false);
            ch.register(selector, SelectionKey.OP_READ, new Local(group, group.getAddress()));
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                quietClose(ch);
            }
            throw new RdmaException(Errno.EADDRNOTAVAIL, "cannot join " + group.getHostAddress() + " port "
                    + params.udpPort + " on " + params.netdev + ": " + e.getMessage());
        }
        groups.put(mgid, ch);
        selector.wakeup();
    }

    /** {@code rxe_mcast_del()}: closes the group's channel, which leaves the group. */
    synchronized void leave(Gid mgid) {
        DatagramChannel ch = groups.remove(mgid);
        if (ch != null) {
            quietClose(ch);
        }
    }

    /** The groups joined. */
    synchronized Set<Gid> groups() {
        return Set.copyOf(groups.keySet());
    }

    private NetworkInterface netif() {
        try {
            NetworkInterface nif = NetworkInterface.getByName(params.netdev);
            if (nif != null) {
                return nif;
            }
        } catch (IOException e) {
            // as gone
        }
        throw new RdmaException(Errno.ENODEV, "no interface " + params.netdev);
    }

    /** The IP group of a multicast GID; an IPv6 one scoped to the interface (ff02:: needs it to bind). */
    private static InetAddress groupAddress(Gid mgid, NetworkInterface nif) {
        RdmaException.check(mgid.isMulticastAddr(), Errno.EINVAL, mgid + " is not a multicast GID");
        if (mgid.isV4Mapped()) {
            return mgid.toInetAddress();
        }
        try {
            return Inet6Address.getByAddress(null, mgid.bytes(), nif);
        } catch (UnknownHostException e) {
            throw new RdmaException(Errno.EINVAL, mgid + ": " + e.getMessage());
        }
    }

    /**
     * Makes a flow's unconnected socket send multicast out of the interface with TTL (hop limit)
     * {@code hopLimit}; both are set only when they change.
     */
    private void multicastOut(SendSide s, Flow f, int hopLimit) throws IOException {
        synchronized (s) {
            if (f.mcastIf == null) {
                NetworkInterface nif = netif();
                f.any.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
                f.mcastIf = nif;
            }
            if (f.mcastTtl != hopLimit) {
                f.any.setOption(StandardSocketOptions.IP_MULTICAST_TTL, hopLimit);
                f.mcastTtl = hopLimit;
            }
        }
    }

    // ================================================================== transmit

    /** A datagram: built, then sent at once or waiting for the send thread. */
    private static final class TxBuf {
        /** Pseudo IP/UDP header and transport headers, built here and copied into {@link #bb}. */
        final byte[] head = new byte[HEADROOM + RvtPacket.MAX_HDR];
        final ByteBuffer bb = ByteBuffer.allocateDirect(HEADROOM + MAX_DATAGRAM);
        int off;
        int len;
        DatagramChannel ch;
        SocketAddress dst;
    }

    /**
     * Encapsulates and queues one packet ({@code rxe_prepare()} + {@code rxe_send()}).
     *
     * @return 0 (sent or dropped), or {@code -EAGAIN} when the send queue is full
     */
    int transmit(RvtPacket pkt, RxeGids.Snapshot snap) {
        AhAttr av = pkt.av;
        if (closed || av == null || !av.hasGrh()) {
            dev.txDropped.incrementAndGet();
            return 0;
        }
        InetAddress src = snap.address(av.grh.sgidIndex);
        Gid dgid = av.grh.dgid;
        if (src == null || (src instanceof Inet4Address) != dgid.isV4Mapped()) {
            dev.txDropped.incrementAndGet();
            return 0;
        }
        int udpPayload = pkt.hdrLen + pkt.payloadLength + pkt.padCount + RxeWire.ICRC;
        if (udpPayload > MAX_DATAGRAM) {
            dev.txDropped.incrementAndGet();
            return 0;
        }
        TxBuf b = txFree.poll();
        if (b == null) {
            if (txAllocated.incrementAndGet() <= params.sendQueue) {
                b = new TxBuf();
            } else {
                txAllocated.decrementAndGet();
                dev.txBusy.incrementAndGet();
                return -Errno.EAGAIN.value;
            }
        }
        try {
            int qpn = (pkt.hdr[5] & 0xFF) << 16 | (pkt.hdr[6] & 0xFF) << 8 | pkt.hdr[7] & 0xFF;
            SendSide side = sides.computeIfAbsent(src, SendSide::new);
            Flow flow = flow(side, RxeWire.sourcePort(qpn));
            Dest dst = destination(dgid, src);
            boolean mcast = dgid.isMulticastAddr();
            if (mcast) {
                multicastOut(side, flow, av.grh.hopLimit);
            }
            boolean conn = !mcast && connected(side, flow, dst);
            int sport = flow.port;
            int at = RxeWire.encode(pkt, b.head, b.bb, side.addrBytes, dst.ip(), sport, destPort);
            b.off = at;
            b.len = udpPayload;
            b.ch = conn ? flow.connected : flow.any;
            b.dst = conn ? null : dst.sa();
        } catch (IOException | RuntimeException e) {
            txFree.offer(b);
            dev.txDropped.incrementAndGet();
            return 0;
        }
        synchronized (txLock) {
            if (txBacklog == 0 && send(b)) {
                recycle(b);
                return 0;
            }
            txBacklog++;
            txQueue.add(b);
        }
        return 0;
    }

    /**
     * One non-blocking send; counts it.
     *
     * @return false if the socket buffer had no room (nothing was sent)
     */
    private boolean send(TxBuf b) {
        if (fullSocket) {
            return false;
        }
        // Counted before the write: the peer may answer, and the answer complete a request,
        // before this thread goes on.
        dev.txPackets.incrementAndGet();
        try {
            b.bb.limit(b.off + b.len).position(b.off);
            if ((b.dst == null ? b.ch.write(b.bb) : b.ch.send(b.bb, b.dst)) == 0) {
                dev.txPackets.decrementAndGet();
                return false;
            }
        } catch (IOException | RuntimeException e) {
            dev.txPackets.decrementAndGet();
            dev.txErrors.incrementAndGet();
        }
        return true;
    }

    void simulateFullSocket(boolean full) {
        fullSocket = full;
    }

    private void recycle(TxBuf b) {
        b.ch = null;
        b.dst = null;
        txFree.offer(b);
    }

    /** Sends the backlog in order, waiting for socket buffer room (the only place that waits). */
    private void txLoop() {
        while (true) {
            TxBuf b;
            try {
                b = txQueue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (b == poison) {
                return;
            }
            while (!send(b)) {
                LockSupport.parkNanos(SEND_RETRY_NANOS);
            }
            recycle(b);
            synchronized (txLock) {
                txBacklog--;
            }
        }
    }

    // ================================================================== receive

    /** A receive buffer and the transport packet describing it. */
    private final class RxSlot implements RvtPacket.Owner {
        final RvtPacket pkt = new RvtPacket();
        /** The pseudo IP/UDP header and a copy of the transport headers, parsed from the heap. */
        final byte[] head = new byte[HEADROOM + RvtPacket.MAX_HDR];
        final ByteBuffer bb = ByteBuffer.allocateDirect(HEADROOM + MAX_DATAGRAM);
        private int refs;

        @Override
        public void retain(RvtPacket p) {
            synchronized (rxFree) {
                refs++;
            }
        }

        @Override
        public void release(RvtPacket p) {
            done();
        }

        @Override
        public void retainPayload(RvtPacket p) {
            // the payload lives in this slot's buffer, which stays ours while the packet is retained
            p.payloadStable = true;
        }

        void done() {
            synchronized (rxFree) {
                if (--refs > 0) {
                    return;
                }
                pkt.clear();
                rxFree.addFirst(this);
            }
        }
    }

    private RxSlot takeSlot() {
        RxSlot s;
        synchronized (rxFree) {
            s = rxFree.pollFirst();
            if (s == null) {
                s = new RxSlot();
            }
            s.refs = 1;
        }
        s.pkt.clear();
        s.pkt.owner = s;
        s.bb.clear().position(HEADROOM);
        return s;
    }

    private void rxLoop() {
        try {
            while (!closed) {
                // the Consumer form of select() keeps no selected-key set: nothing allocated per wake-up
                selector.select(onReadable);
                if (closed) {
                    break;
                }
                applyRebind();
            }
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            // closing
        }
    }

    /** Receives every datagram waiting on a readable socket (receive thread). */
    private void drain(SelectionKey k) {
        if (!k.isValid()) {
            return;
        }
        DatagramChannel ch = (DatagramChannel) k.channel();
        Local local = (Local) k.attachment();
        while (!closed) {
            if (spare == null) {
                spare = takeSlot();
            }
            SocketAddress from;
            try {
                from = ch.receive(spare.bb);
            } catch (IOException e) {
                dev.rxDropped.incrementAndGet();
                return;
            }
            if (from == null) {
                return;
            }
            RxSlot s = spare;
            spare = null;
            try {
                handle(s, (InetSocketAddress) from, local);
            } finally {
                s.done();
            }
        }
    }

    /** A receive socket's local address, with its bytes for the ICRC pseudo header. */
    private record Local(InetAddress addr, byte[] bytes) {
    }

    /** The last sender seen, so its address bytes are not copied out again for every datagram. */
    private InetAddress lastSender;
    private byte[] lastSenderBytes;

    private byte[] senderBytes(InetAddress a) {
        if (a != lastSender) {
            lastSenderBytes = a.getAddress();
            lastSender = a;
        }
        return lastSenderBytes;
    }

    /**
     * Says once per peer why its IPv4 packets fail: this driver computes IPv4 ICRCs as if the
     * IP Identification were 0, while Linux rxe and RoCE NICs cover the one they sent.
     */
    private void noticeIpv4Icrc(InetAddress peer) {
        if (icrcNoticed.size() < 64 && icrcNoticed.add(peer)) {
            LOG.log(System.Logger.Level.WARNING, "{0}: bad ICRC from {1} (counted as icrc_err): over IPv4 this most "
                    + "likely means the peer covered another IP Identification than 0 (Linux rxe and RoCE NICs "
                    + "do), which only UD datagrams survive here; IPv6 GIDs interoperate", params.netdev,
                    peer.getHostAddress());
        }
    }

    /** One datagram: ICRC check, header split, the RoCE fields, then the transport. */
    private void handle(RxSlot s, InetSocketAddress from, Local local) {
        if (params.rxDropProbability > 0 && dropRandom.nextDouble() < params.rxDropProbability) {
            dev.rxFaultDrops.incrementAndGet();
            return;
        }
        InetAddress srcIp = from.getAddress();
        if ((srcIp instanceof Inet4Address) != (local.addr() instanceof Inet4Address)) {
            dev.rxDropped.incrementAndGet();
            return;
        }
        RvtPacket r = s.pkt;
        int verdict = RxeWire.decode(s.bb, s.bb.position() - HEADROOM, s.head, senderBytes(srcIp), from.getPort(),
                local.bytes(), params.udpPort, r, ident);
        if (verdict == RxeWire.RX_BAD_ICRC) {
            dev.rxCrcErrors.incrementAndGet();
            if (srcIp instanceof Inet4Address) {
                noticeIpv4Icrc(srcIp);
            }
        } else if (verdict == RxeWire.RX_MALFORMED) {
            dev.rxDropped.incrementAndGet();
        } else {
            if (verdict == RxeWire.RX_OK_IDENT) {
                dev.rxIdentRecovered.incrementAndGet();
            }
            dev.rxPackets.incrementAndGet();
            dev.deliver(r);
        }
    }

    // ================================================================== close

    /** @return whether both device threads have ended */
    boolean threadsEnded() {
        return !rxThread.isAlive() && !txThread.isAlive();
    }

    /** Every socket this device has open (receive and send), for tests and diagnostics. */
    synchronized List<DatagramChannel> channels() {
        List<DatagramChannel> l = new ArrayList<>(rx.values());
        l.addAll(groups.values());
        for (SendSide s : sides.values()) {
            synchronized (s) {
                for (Flow f : s.flows) {
                    if (f != null) {
                        for (DatagramChannel c : new DatagramChannel[] {f.any, f.connected}) {
                            if (c != null && !l.contains(c)) {
                                l.add(c);
                            }
                        }
                    }
                }
            }
        }
        return l;
    }

    /**
     * Flushes the send queue, stops both threads and closes every socket. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        // the send thread drains what is queued, then meets the poison
        txQueue.add(poison);
        join(txThread);
        closed = true;
        selector.wakeup();
        join(rxThread);
        closeSockets();
    }

    private static void join(Thread t) {
        if (t == null) {
            return;
        }
        try {
            t.join(JOIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void closeSockets() {
        for (DatagramChannel c : rx.values()) {
            quietClose(c);
        }
        rx.clear();
        for (DatagramChannel c : groups.values()) {
            quietClose(c);
        }
        groups.clear();
        for (SendSide s : sides.values()) {
            synchronized (s) {
                for (int i = 0; i < s.flows.length; i++) {
                    Flow f = s.flows[i];
                    if (f != null) {
                        quietClose(f.any);
                        if (f.connected != null) {
                            quietClose(f.connected);
                        }
                        s.flows[i] = null;
                    }
                }
                if (s.fallback != null) {
                    quietClose(s.fallback);
                    s.fallback = null;
                }
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    private static void quietClose(DatagramChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
