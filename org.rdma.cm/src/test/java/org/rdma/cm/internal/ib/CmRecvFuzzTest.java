package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmAprStatus;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmEvent;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmService;
import org.rdma.cm.ib.IbCmRepParam;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmSidrRepParam;
import org.rdma.cm.ib.IbCmSidrReqParam;
import org.rdma.cm.internal.rdma.RdmaCmComponent;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmEventType;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.FaultProfile;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaClient;
import org.rdma.sm.testkit.SmNet;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.wire.MadHdr;

/**
 * The IB CM's receive path ({@code cm_work_handler()} and the REQ, MRA, REJ, REP, RTU, DREQ,
 * DREP, LAP, APR and SIDR handlers behind it) and the RDMA CM's request handling on top of it
 * ({@code cma_ib_req_handler()}, the IP CM private-data header), fed with arbitrary CM MADs as
 * if from the peer host. The fed host has a listen, a connection of its own being set up and a
 * SIDR query out, and consumers that answer what they get; each MAD is counted as received,
 * dropped or both, no exception escapes a handler or reaches the work queue's last-resort catch, and
 * once every id is destroyed and time has passed, the CMs hold no id and no table entry.
 */
class CmRecvFuzzTest {
    /** A record: flags, live-id index, SLID, source QP, P_Key index, GRH area, MAD. */
    static final int RECORD = 48 + MadHdr.IB_MGMT_MAD_SIZE;
    static final int MAX_RECORDS = 12;
    static final int WITH_GRH = 1;
    /** RoCEv2: the completion carries the network header type, IPv4 (with {@link #IPV4}) or IPv6. */
    static final int NET_HDR = 2;
    static final int IPV4 = 4;
    /**
     * Bits 3-4: the communication IDs of a live id written into the MAD, as a peer that knows them
     * would: 1 both (local ID at byte 4, its remote ID at byte 0 of the message; a DREQ's remote
     * QPN too), 2 the local ID at byte 0 (a SIDR REP's request ID), 3 the local ID at byte 4 only.
     */
    static final int FIX_SHIFT = 3;
    static final long SID = Peer.SID;
    static final long SIDR_SID = Peer.SID + 1;
    static final int RDMA_PORT = 7471;
    /** Long enough for every retry of the longest CM timeout a MAD can ask for, and timewait. */
    static final long QUIET_MS = 48L * 3600 * 1000;
    /** A quarter of the virtual clock's range, some 26,000 inputs' worth of {@link #QUIET_MS}. */
    static final long CLOCK_LIMIT = Long.MAX_VALUE / 4;

    /** A host fed MADs and its peer. */
    static final class Env {
        final SmNet net;
        final IbCmComponent ibcm;
        final RdmaCmComponent rdma;
        final IbDevice dev;
        final CmPort port;
        final String peer;

        Env(SmNet net, String host, String peer, boolean withRdmaCm) {
            this.net = net;
            this.peer = peer;
            ibcm = new IbCmComponent(net.clock, net.pump, net.mad, net.sa);
            net.addClient(ibcm);
            rdma = withRdmaCm ? new RdmaCmComponent(net.clock, net.pump, ibcm, net.sa) : null;
            if (rdma != null) {
                net.addClient(rdma);
            }
            dev = net.dev(host);
            port = ibcm.core().device(dev).port(1);
        }
    }

    static Env ib;
    static Env roce;
    static PathRecord toPeer;
    static final List<LogRecord> FAILURES = new ArrayList<>();
    static final Handler CATCH = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue() && r.getThrown() != null) {
                FAILURES.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeAll
    static void up() {
        Logger.getLogger("org.rdma.cm").addHandler(CATCH);
        ib = ibEnv();
        roce = roceEnv();
    }

    /** h0 and h1 on a switch, the subnet up; h0's path to h1 known. */
    private static Env ibEnv() {
        Env env = new Env(new SmNet(SmNet.ring(1, 2), 0).up(), "h0", "h1", false);
        SaClient client = new SaClient();
        env.net.sa.registerClient(client);
        PathRecord q = new PathRecord();
        q.sgid = env.dev.queryGid(1, 0);
        q.dgid = env.net.dev("h1").queryGid(1, 0);
        q.numbPath = 1;
        List<PathRecord> got = new ArrayList<>();
        env.net.sa.pathRecGet(client, env.dev, 1, q, PathRecord.SGID | PathRecord.DGID | PathRecord.NUMB_PATH, 1000,
                (st, r) -> got.add(r));
        env.net.settle();
        env.net.sa.unregisterClient(client);
        toPeer = got.get(0);
        assertNotNull(toPeer, "path h0 -> h1");
        // h0 speaks only through the fuzzer: what it sends is lost, so no answer of h1 races the input
        FabricPort p = env.net.hcas.get(0).fabricPort(1);
        p.link().setFaults(p, FaultProfile.NONE.withDropRate(1.0));
        return env;
    }

    /** ha and hb on a RoCE segment, each with an IPv4 and an IPv6 address. */
    private static Env roceEnv() {
        SmNet r = SmNet.roce("ha", "hb");
        r.hcas.get(0).addIpAddress(1, "fd00::7:1");
        r.hcas.get(1).addIpAddress(1, "fd00::7:2");
        r.settle();
        return new Env(r, "ha", "hb", true);
    }

    /**
     * A fresh network once the virtual clock nears the end of its range: each input lets up to
     * {@link #QUIET_MS} pass, and a long run of inputs would otherwise overflow the nanoseconds.
     */
    private static Env fresh(Env env, java.util.function.Supplier<Env> make) {
        if (env.net.clock.nanoTime() < CLOCK_LIMIT) {
            return env;
        }
        env.net.close();
        return make.get();
    }

    @AfterAll
    static void down() {
        Logger.getLogger("org.rdma.cm").removeHandler(CATCH);
        ib.net.close();
        roce.net.close();
    }

    // ------------------------------------------------------------------ feeding

    /**
     * Feeds the records of {@code input} from {@code from} on to {@code env}'s CM port. A fix-up
     * names a live id by its index among the CM's ids when the record is fed, newest first: 0 is
     * the id the latest request created.
     */
    static void feed(Env env, byte[] input, int from) {
        int records = Math.min(MAX_RECORDS, (input.length - from + RECORD - 1) / RECORD);
        ByteBuffer in = ByteBuffer.wrap(Arrays.copyOfRange(input, from, from + records * RECORD));
        for (int i = 0; i < records; i++) {
            int flags = in.get() & 0xff;
            int which = in.get() & 0xff;
            Wc wc = new Wc();
            wc.status = WcStatus.SUCCESS;
            wc.slid = in.getShort() & 0xffff;
            wc.srcQp = (in.get() & 0xff) << 16 | in.getShort() & 0xffff;
            wc.pkeyIndex = in.get() & 0xff;
            wc.portNum = 1;
            wc.byteLen = 40 + MadHdr.IB_MGMT_MAD_SIZE;
            byte[] grh = new byte[40];
            in.get(grh);
            byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE];
            in.get(mad);
            if ((flags & WITH_GRH) != 0) {
                wc.wcFlags |= WcFlags.GRH;
            } else {
                grh = null;
            }
            if ((flags & NET_HDR) != 0) {
                wc.wcFlags |= WcFlags.WITH_NETWORK_HDR_TYPE;
                wc.networkHdrType = (flags & IPV4) != 0 ? 2 : 3;
            }
            int fix = flags >>> FIX_SHIFT & 3;
            List<CmIdImpl> live = env.ibcm.core().tables.idsOldestFirst();
            if (fix != 0 && !live.isEmpty()) {
                CmIdImpl id = live.get(live.size() - 1 - which % live.size());
                ByteBuffer m = ByteBuffer.wrap(mad);
                if (fix == 1) {
                    m.putInt(MadHdr.IB_MGMT_MAD_HDR, id.remoteIdRaw()).putInt(MadHdr.IB_MGMT_MAD_HDR + 4, id.localId);
                    if (MadHdr.attrId(mad, 0) == IbCm.DREQ_ATTR_ID) {
                        // a DREQ also names the QP it disconnects
                        m.put(MadHdr.IB_MGMT_MAD_HDR + 8, (byte) (id.localQpn >>> 16))
                                .putShort(MadHdr.IB_MGMT_MAD_HDR + 9, (short) id.localQpn);
                    }
                } else if (fix == 2) {
                    m.putInt(MadHdr.IB_MGMT_MAD_HDR, id.localId);
                } else {
                    m.putInt(MadHdr.IB_MGMT_MAD_HDR + 4, id.localId);
                }
            }
            long received = received(env);
            long dropped = env.port.dropped.get();
            env.ibcm.core().recv(env.port, new MadRecvWc(wc, grh, mad, mad.length));
            boolean answered = MadHdr.mgmtClass(mad, 0) == MadHdr.IB_MGMT_CLASS_CM
                    && MadHdr.classVersion(mad, 0) == IbCm.CLASS_VERSION
                    && MadHdr.method(mad, 0) == MadHdr.IB_MGMT_METHOD_GET;
            // a message counts as received once, and once more as dropped if its handler cannot use it
            long r = received(env) - received;
            long d = env.port.dropped.get() - dropped;
            assertTrue(r <= 1 && d <= 1 && (answered || r + d >= 1), "a CM MAD is counted once as received, "
                    + "dropped or both (" + r + ", " + d + "): " + java.util.HexFormat.of().formatHex(mad));
            env.net.settle();
            assertTrue(FAILURES.isEmpty(), () -> "an exception reached the CM's work queue: " + FAILURES.get(0)
                    .getMessage() + " " + FAILURES.get(0).getThrown());
        }
    }

    /** Received messages of every kind. */
    private static long received(Env env) {
        long n = 0;
        for (int attr = IbCm.REQ_ATTR_ID; attr <= IbCm.APR_ATTR_ID; attr++) {
            n += env.port.counter(IbCmCounterGroup.RECV, attr);
        }
        return n;
    }

    /** Destroys what is left, lets every timer run out and checks that nothing stays behind. */
    static void quiesce(Env env, Runnable destroy) {
        destroy.run();
        env.net.settle();
        env.net.advance(QUIET_MS);
        assertEquals(0, env.ibcm.localIdsInUse(), () -> "IB CM ids left: " + env.ibcm.cmIds());
        assertEquals(0, env.ibcm.remoteTableEntries(), "IB CM remote table entries left");
        if (env.rdma != null) {
            assertEquals(0, env.rdma.idsInUse(), () -> "RDMA CM ids left: " + env.rdma.ids());
            assertEquals(0, env.rdma.portsInUse(), "RDMA CM ports left");
        }
        assertTrue(FAILURES.isEmpty(), () -> "an exception reached the CM's work queue: " + FAILURES.get(0)
                .getThrown());
    }

    // ------------------------------------------------------------------ IB CM

    /** The consumer of h0's ids: it accepts, completes and answers whatever it can, as ULPs do. */
    static final class Consumer implements IbCmHandler {
        final IbCmService cm;
        /** Every id it holds, to destroy at the end. */
        final List<IbCmId> owned = new ArrayList<>();

        Consumer(IbCmService cm) {
            this.cm = cm;
        }

        @Override
        public int handle(IbCmId id, IbCmEvent ev) {
            if (!owned.contains(id)) {
                owned.add(id);
            }
            try {
                switch (ev.event()) {
                    case REQ_RECEIVED -> {
                        IbCmRepParam p = new IbCmRepParam();
                        p.qpNum = 0x4242;
                        p.startingPsn = 0x222;
                        p.responderResources = 1;
                        p.initiatorDepth = 1;
                        p.rnrRetryCount = 7;
                        cm.sendCmRep(id, p);
                    }
                    case REP_RECEIVED -> cm.sendCmRtu(id, null);
                    case DREQ_RECEIVED -> cm.sendCmDrep(id, null);
                    case LAP_RECEIVED -> cm.sendCmApr(id, IbCmAprStatus.values()[0], null, null);
                    case SIDR_REQ_RECEIVED -> {
                        IbCmSidrRepParam p = new IbCmSidrRepParam();
                        p.qpNum = 0x4343;
                        p.qkey = 0x1234;
                        cm.sendCmSidrRep(id, p);
                    }
                    default -> {
                    }
                }
            } catch (RdmaException e) {
                // the answer is not possible in the state the peer's MADs left: documented, fine
            }
            return 0;
        }
    }

    /** Byte 0: unused by the IB CM target (kept so both targets share a layout); then records. */
    @FuzzTest
    void ibCm(byte[] input) {
        ib = fresh(ib, CmRecvFuzzTest::ibEnv);
        Consumer c = new Consumer(ib.ibcm);
        IbCmId listen = ib.ibcm.createCmId(ib.dev, c, "fuzz listen");
        ib.ibcm.cmListen(listen, SID, 0);
        IbCmId active = ib.ibcm.createCmId(ib.dev, c, "fuzz active");
        c.owned.add(active);
        IbCmReqParam req = new IbCmReqParam();
        req.primaryPath = toPeer;
        req.serviceId = SID;
        req.qpType = QpType.RC;
        req.qpNum = 0x4141;
        req.startingPsn = 0x111;
        req.responderResources = 1;
        req.initiatorDepth = 1;
        req.remoteCmResponseTimeout = 20;
        req.localCmResponseTimeout = 20;
        req.retryCount = 7;
        req.rnrRetryCount = 7;
        req.maxCmRetries = 3;
        ib.ibcm.sendCmReq(active, req);
        IbCmId sidr = ib.ibcm.createCmId(ib.dev, c, "fuzz sidr");
        c.owned.add(sidr);
        IbCmSidrReqParam sq = new IbCmSidrReqParam();
        sq.path = toPeer;
        sq.serviceId = SIDR_SID;
        sq.timeoutMs = 100;
        sq.maxCmRetries = 2;
        ib.ibcm.sendCmSidrReq(sidr, sq);
        feed(ib, input, Math.min(1, input.length));
        quiesce(ib, () -> {
            ib.ibcm.destroyCmId(listen);
            for (IbCmId id : c.owned) {
                ib.ibcm.destroyCmId(id);
            }
        });
    }

    // ------------------------------------------------------------------ RDMA CM

    /**
     * Byte 0: what the listener's owner does with a connection request (0 accept, 1 reject, 2
     * refuse by returning non-zero, 3 leave it pending); then records, to host {@code ha} on
     * RoCE, which listens for TCP on 0.0.0.0:7471 and [fd00::7:1]:7472 and for UDP on port 7471.
     */
    @FuzzTest
    void rdmaCm(byte[] input) {
        roce = fresh(roce, CmRecvFuzzTest::roceEnv);
        int policy = input.length == 0 ? 0 : input[0] & 3;
        List<RdmaCmId> conns = new ArrayList<>();
        org.rdma.cm.rdma.RdmaCmHandler handler = (id, ev) -> onRdmaEvent(id, ev, policy, conns);
        List<RdmaCmId> listens = new ArrayList<>();
        listens.add(listen(handler, RdmaPortSpace.TCP, QpType.RC, "0.0.0.0", RDMA_PORT));
        listens.add(listen(handler, RdmaPortSpace.TCP, QpType.RC, "fd00::7:1", RDMA_PORT + 1));
        listens.add(listen(handler, RdmaPortSpace.UDP, QpType.UD, "0.0.0.0", RDMA_PORT));
        feed(roce, input, Math.min(1, input.length));
        quiesce(roce, () -> {
            for (RdmaCmId id : conns) {
                roce.rdma.destroyId(id);
            }
            for (RdmaCmId id : listens) {
                roce.rdma.destroyId(id);
            }
        });
    }

    private static RdmaCmId listen(org.rdma.cm.rdma.RdmaCmHandler h, RdmaPortSpace ps, QpType type, String any,
            int port) {
        RdmaCmId id = roce.rdma.createId(h, null, ps, type);
        try {
            roce.rdma.bindAddr(id, new InetSocketAddress(InetAddress.getByName(any), port));
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
        roce.rdma.listen(id, 4);
        return id;
    }

    private static int onRdmaEvent(RdmaCmId id, RdmaCmEvent ev, int policy, List<RdmaCmId> conns) {
        if (ev.event() != RdmaCmEventType.CONNECT_REQUEST) {
            return 0;
        }
        if (policy == 2) {
            return 1;
        }
        conns.add(id);
        try {
            if (policy == 0) {
                RdmaConnParam p = new RdmaConnParam();
                p.qpNum = 0x4444;
                p.responderResources = 1;
                p.initiatorDepth = 1;
                p.rnrRetryCount = 7;
                roce.rdma.accept(id, p);
            } else if (policy == 1) {
                roce.rdma.reject(id, null, IbCmRejReason.CONSUMER_DEFINED);
            }
        } catch (RdmaException e) {
            // not acceptable in the state the request left: documented, fine
        }
        return 0;
    }
}
