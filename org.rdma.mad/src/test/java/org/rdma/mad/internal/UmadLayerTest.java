package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.mad.MadCounter;
import org.rdma.mad.Rmpp;
import org.rdma.mad.internal.umad.UmadLayer;
import org.rdma.mad.internal.umad.UmadWaiter;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.umad.UmadAddr;
import org.rdma.mad.umad.UmadCa;
import org.rdma.mad.umad.UmadPort;
import org.rdma.mad.umad.UmadPortAttr;
import org.rdma.mad.umad.UmadRegAttr;
import org.rdma.mad.umad.UserMad;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Smp;

/**
 * ib_umad and libibumad over the MAD layer: a switch with three mlx4sim HCAs in virtual time,
 * readers driving the simulation instead of blocking ({@link UmadWaiter#driving}).
 */
class UmadLayerTest {
    static final int VENDOR = MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_START;
    static final int OUI = 0x001405;
    Net net;
    UmadLayer umad;

    @BeforeEach
    void setUp() {
        net = new Net("A", "B", "C");
        umad = new UmadLayer(net.mad, net.clock, UmadWaiter.driving(net.clock, net::settle));
        for (String h : List.of("A", "B", "C")) {
            assertEquals(0, umad.add(net.dev(h)));
        }
    }

    @AfterEach
    void tearDown() {
        umad.deactivate();
        net.close();
    }

    static Errno errno(Runnable r) {
        return assertThrows(RdmaException.class, r::run).errno();
    }

    /** A Get of a vendor-class attribute ({@code 0x30}, OUI in bytes 37..39) with TID {@code lo}. */
    static byte[] vendorGet(int lo) {
        byte[] m = new byte[MadHdr.IB_MGMT_MAD_SIZE];
        MadHdr.of(VENDOR, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 7, lo).pack(m, 0);
        m[37] = (byte) (OUI >>> 16);
        m[38] = (byte) (OUI >>> 8);
        m[39] = (byte) OUI;
        m[100] = 0x33;
        return m;
    }

    @Test
    void casAndPortsReadAsSysfsShowsThem() {
        net.bringUp("A", "B", "C");
        assertEquals(List.of("mlx4_0", "mlx4_1", "mlx4_2"), umad.getCasNames());
        UmadCa ca = umad.getCa("mlx4_1");
        assertEquals(1, ca.nodeType());
        assertEquals(net.dev("B").nodeGuid(), ca.nodeGuid());
        assertEquals("2.42.5000", ca.fwVer());
        assertEquals("MT" + net.dev("B").attrs().vendorPartId, ca.caType());
        assertEquals(net.dev("B").endPort(), ca.numports());
        assertEquals(ca.numports(), ca.ports().size());
        UmadPortAttr p = ca.port(1);
        assertEquals(11, p.baseLid());
        assertEquals(10, p.smLid());
        assertEquals(4, p.state());
        assertEquals(5, p.physState());
        assertEquals(40, p.rate(), "4X QDR is 40 Gb/s");
        assertEquals("InfiniBand", p.linkLayer());
        assertEquals(net.dev("B").queryGid(1, 0).interfaceId(), p.portGuid());
        assertEquals(0xffff, p.pkeys().get(0));
        assertEquals(net.dev("B").queryPort(1).portCapFlags, p.capmask());
        long[] guids = umad.getCaPortguids("mlx4_1");
        assertEquals(0, guids[0]);
        assertEquals(p.portGuid(), guids[1]);
        // libibumad's defaults: the first CA with an ACTIVE port, and its first ACTIVE port
        assertEquals("mlx4_0", umad.getPort(null, 0).caName());
        assertEquals(1, umad.getPort("mlx4_2", 0).portnum());
        assertEquals(Errno.ENODEV, errno(() -> umad.getCa("mlx4_9")));
        assertEquals(Errno.ENODEV, errno(() -> umad.getCaPortguids("mlx4_9")));
        assertEquals(Errno.EINVAL, errno(() -> umad.getPort("mlx4_0", 3)));
        assertEquals(Errno.EINVAL, errno(() -> umad.openPort("mlx4_0", 7)));
    }

    @Test
    void directedRouteSmpGoesOutAndItsResponseComesBackToTheAgent() {
        try (UmadPort port = umad.openPort("mlx4_0", 1)) {
            int smi = port.register(MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 1, 0, null);
            assertEquals(0, smi);
            byte[] req = new byte[MadHdr.IB_MGMT_MAD_SIZE];
            Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 0x1234, 1).pack(req, 0);
            long tid = port.send(smi, UmadAddr.lid(Smp.IB_LID_PERMISSIVE, 0, 0, 0), req, req.length, 100, 2);
            assertEquals(0x1234, tid & 0xffff_ffffL);
            assertTrue(tid >>> 32 != 0, "ib_umad puts the agent's hi_tid into a request's TID");
            UserMad r = port.recv(1000);
            assertEquals(smi, r.agentId());
            assertEquals(0, r.status());
            assertEquals(MadHdr.IB_MGMT_MAD_SIZE, r.length());
            Smp resp = new Smp().unpack(r.data(), 0);
            assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, resp.method);
            assertEquals(tid, resp.tid);
            NodeInfo ni = new NodeInfo().unpack(resp.data, 0);
            assertEquals(NodeInfo.NODE_TYPE_SWITCH, ni.nodeType);
            assertEquals(Net.SW_GUID, ni.nodeGuid);
            assertEquals(0, r.addr().qpn());
        }
    }

    @Test
    void requestsReachTheRegisteredAgentWithTheirSourceAndAnswersGoBack() {
        net.bringUp("A", "B", "C");
        try (UmadPort client = umad.openPort("mlx4_0", 1); UmadPort server = umad.openPort("mlx4_1", 1)) {
            BitSet get = new BitSet();
            get.set(MadHdr.IB_MGMT_METHOD_GET);
            int srv = server.registerOui(VENDOR, 0, OUI, get);
            int cli = client.registerOui(VENDOR, 0, OUI, null);
            long tid = client.send(cli, UmadAddr.lid(11, 1, 0, MadHdr.IB_QP1_QKEY), vendorGet(9), 256, 200, 0);
            UserMad in = server.recv(1000);
            assertEquals(srv, in.agentId());
            assertEquals(new UmadAddr(1, 0, 10, 0, 0, false, 0, 0, 0, Gid.ZERO, 0, 0), in.addr());
            MadHdr h = new MadHdr().unpack(in.data(), 0);
            assertEquals(tid, h.tid);
            assertEquals(0x33, in.data()[100]);
            // the server answers to where the request came from
            byte[] resp = in.data();
            resp[3] = (byte) MadHdr.IB_MGMT_METHOD_GET_RESP;
            resp[101] = 0x44;
            assertEquals(tid, server.send(srv, in.addr(), resp, resp.length, 0, 0), "responses keep their TID");
            UserMad back = client.recv(1000);
            assertEquals(cli, back.agentId());
            assertEquals(0, back.status());
            assertEquals(0x44, back.data()[101]);
            assertEquals(11, back.addr().lid());
            assertFalse(client.poll(0));
            assertEquals(Errno.ETIMEDOUT, errno(() -> server.recv(0)));
        }
    }

    @Test
    void anUnansweredRequestComesBackWithEtimedoutAfterItsRetries() {
        net.bringUp("A", "B", "C");
        try (UmadPort port = umad.openPort("mlx4_0", 1)) {
            int cli = port.registerOui(VENDOR, 0, OUI, null);
            long start = net.clock.nanoTime();
            UmadAddr nowhere = UmadAddr.lid(99, 1, 0, 0); // no such LID: the switch drops it
            long tid = port.send(cli, nowhere, vendorGet(5), 256, 100, 2);
            UserMad t = port.recv(-1);
            assertEquals(Errno.ETIMEDOUT.value, t.status());
            assertEquals(Errno.ETIMEDOUT, t.errno());
            assertEquals(MadHdr.IB_MGMT_MAD_HDR, t.length(), "only the request's header, as ib_umad queues it");
            assertEquals(tid, new MadHdr().unpack(t.data(), 0).tid);
            assertEquals(nowhere, t.addr());
            assertEquals(300, TimeUnit.NANOSECONDS.toMillis(net.clock.nanoTime() - start), "100 ms, then two retries");
            assertEquals(2, net.mad.counter(net.dev("A"), 1, MadCounter.RETRIES));
            // nothing else comes: a bounded recv times out in virtual time, poll says no
            long before = net.clock.nanoTime();
            assertEquals(Errno.ETIMEDOUT, errno(() -> port.recv(50)));
            assertEquals(50, TimeUnit.NANOSECONDS.toMillis(net.clock.nanoTime() - before));
            assertFalse(port.poll(10));
            // an interrupted reader gets EINTR, as umad_recv() does
            Thread.currentThread().interrupt();
            try {
                assertEquals(Errno.EINTR, errno(() -> port.recv(50)));
            } finally {
                Thread.interrupted();
            }
        }
    }

    @Test
    void anSaGetTableLargerThanOneMadArrivesWholeThroughRmpp() {
        net.bringUp("A", "B", "C");
        TestSa sa = new TestSa(net.mad, net.dev("A"));
        sa.tableSize = 40;
        try (UmadPort port = umad.openPort("mlx4_1", 1)) {
            int agent = port.register(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, UmadPort.RMPP_VERSION,
                    null);
            byte[] q = new byte[MadHdr.IB_MGMT_MAD_SIZE];
            MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, 2, MadHdr.IB_SA_METHOD_GET_TABLE, SaMad.ATTR_PATH_REC, 0, 77)
                    .pack(q, 0);
            port.send(agent, UmadAddr.lid(10, 1, 0, MadHdr.IB_QP1_QKEY), q, q.length, 1000, 0);
            UserMad r = port.recv(5000);
            assertEquals(0, r.status());
            assertEquals(MadHdr.IB_SA_METHOD_GET_TABLE_RESP, r.data()[3] & 0xff);
            assertEquals(MadHdr.IB_MGMT_SA_HDR + 40 * PathRecord.BYTES, r.length());
            assertTrue(Rmpp.isActive(r.data()));
            for (int i = 0; i < 40; i++) {
                PathRecord p = new PathRecord().unpack(r.data(), MadHdr.IB_MGMT_SA_HDR + i * PathRecord.BYTES);
                assertEquals(0x100 + i, p.dlid);
            }
        }
    }

    @Test
    void registrationAndSendErrorsNameTheErrno() {
        net.bringUp("A", "B", "C");
        UmadPort port = umad.openPort("mlx4_0", 1);
        BitSet get = new BitSet();
        get.set(MadHdr.IB_MGMT_METHOD_GET);
        int a0 = port.registerOui(VENDOR, 0, OUI, get);
        assertEquals(Errno.EBUSY, errno(() -> port.registerOui(VENDOR, 0, OUI, get)));
        assertEquals(Errno.EINVAL, errno(() -> port.registerOui(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 0, OUI, null)));
        assertEquals(Errno.EINVAL, errno(() -> port.register(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 1, null)),
                "PerfMgt does not use RMPP");
        assertEquals(Errno.EINVAL, errno(() -> new UmadRegAttr(0x1ff, 1, 0, null, 0, 0)));
        assertEquals(Errno.EINVAL, errno(() -> port.send(a0, UmadAddr.lid(11, 1, 0, 0), vendorGet(1), 35, 0, 0)));
        assertEquals(Errno.EINVAL, errno(() -> port.send(a0, UmadAddr.lid(11, 1, 0, 0), vendorGet(1), 257, 0, 0)));
        assertEquals(Errno.EINVAL, errno(() -> port.send(40, UmadAddr.lid(11, 1, 0, 0), vendorGet(1), 256, 0, 0)));
        assertEquals(Errno.EIO, errno(() -> port.send(5, UmadAddr.lid(11, 1, 0, 0), vendorGet(1), 256, 0, 0)));
        assertEquals(Errno.EINVAL, errno(() -> UmadAddr.lid(0x10000, 1, 0, 0)));
        // a second request with an outstanding TID is refused, as ib_umad's is_duplicate()
        port.send(a0, UmadAddr.lid(11, 1, 0, 0), vendorGet(3), 256, 100, 0);
        assertEquals(Errno.EINVAL, errno(() -> port.send(a0, UmadAddr.lid(12, 1, 0, 0), vendorGet(3), 256, 100, 0)));
        // 32 agents per port
        for (int i = 1; i < UmadPort.MAX_AGENTS; i++) {
            port.register(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 0, null);
        }
        assertEquals(Errno.ENOMEM, errno(() -> port.register(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 0, null)));
        port.unregister(a0);
        assertEquals(Errno.EINVAL, errno(() -> port.unregister(a0)));
        assertEquals(a0, port.register(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 0, null), "a freed id is reused");
        port.close();
        port.close();
        assertEquals(Errno.EINVAL, errno(() -> port.recv(0)));
        assertEquals(Errno.EINVAL, errno(() -> port.register(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 0, null)));
    }

    @Test
    void removingTheDeviceKillsItsOpenPorts() {
        net.bringUp("A", "B", "C");
        UmadPort port = umad.openPort("mlx4_2", 1);
        int a = port.registerOui(VENDOR, 0, OUI, null);
        umad.remove(net.dev("C"), null);
        assertEquals(Errno.EIO, errno(() -> port.recv(10)));
        assertEquals(Errno.EIO, errno(() -> port.send(a, UmadAddr.lid(10, 1, 0, 0), vendorGet(1), 256, 0, 0)));
        assertEquals(List.of("mlx4_0", "mlx4_1"), umad.getCasNames());
        assertEquals(Errno.ENODEV, errno(() -> umad.openPort("mlx4_2", 1)));
        port.close();
    }

    @Test
    void receivedBytesAndAddressAreCopiesTheCallerCannotChange() {
        byte[] d = {1, 2, 3};
        UserMad m = new UserMad(0, 0, UmadAddr.lid(1, 1, 0, 0), d);
        d[0] = 9;
        m.data()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, m.data());
        assertEquals(new UserMad(0, 0, UmadAddr.lid(1, 1, 0, 0), new byte[] {1, 2, 3}), m);
        BitSet mask = new BitSet();
        UmadRegAttr attr = new UmadRegAttr(3, 2, 0, mask, 0, 1);
        mask.set(5);
        assertTrue(attr.methodMask().isEmpty());
    }

    /** Polls (bounded) until {@code t} blocks; fails with a clear message otherwise. */
    private static void awaitBlocked(Thread t) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() < end, "the reader never blocked: " + t.getState());
            Thread.onSpinWait();
        }
    }

    @Test
    void theBlockingWaiterWakesOnArrivalOnTheClocksDeadlineAndOnInterrupt() throws InterruptedException {
        VirtualClock clock = new VirtualClock();
        UmadWaiter w = UmadWaiter.blocking(clock);
        Object monitor = new Object();
        AtomicBoolean ready = new AtomicBoolean();
        Thread arrival = new Thread(() -> w.await(monitor, ready::get, Long.MAX_VALUE));
        arrival.start();
        awaitBlocked(arrival);
        synchronized (monitor) {
            ready.set(true);
            monitor.notifyAll();
        }
        arrival.join(5000);
        assertFalse(arrival.isAlive(), "woken by the arrival");

        ready.set(false);
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        Thread timeout = new Thread(() -> w.await(monitor, ready::get, deadline));
        timeout.start();
        awaitBlocked(timeout);
        clock.advance(99, TimeUnit.MILLISECONDS);
        assertTrue(timeout.isAlive(), "still waiting before the deadline");
        clock.advance(1, TimeUnit.MILLISECONDS);
        timeout.join(5000);
        assertFalse(timeout.isAlive(), "woken at the deadline by the clock's timer");
        assertEquals(0, clock.pending(), "no timer left behind");

        AtomicBoolean interrupted = new AtomicBoolean();
        Thread intr = new Thread(() -> {
            w.await(monitor, ready::get, Long.MAX_VALUE);
            interrupted.set(Thread.currentThread().isInterrupted());
        });
        intr.start();
        awaitBlocked(intr);
        intr.interrupt();
        intr.join(5000);
        assertTrue(interrupted.get(), "returns with the interrupt kept for the reader's EINTR");
    }
}
