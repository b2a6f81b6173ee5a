package org.rdma.cm.internal.ib;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmAprStatus;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmSidrRepParam;
import org.rdma.cm.ib.IbCmSidrReqParam;
import org.rdma.cm.rdma.RdmaCm;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadCounter;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadRegRequest;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.MadService;
import org.rdma.mad.sa.PathRecord;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.QpType;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.wire.MadHdr;

/**
 * Writes the seed corpora of {@link CmRecvFuzzTest} from real exchanges: two hosts connect,
 * disconnect, load alternate paths, reject and resolve SIDR through the real CM while every MAD
 * the fed host's CM receives is recorded, and each scenario's MADs become one input, with the
 * fix-ups that point them at the ids the fuzz test's host holds. Run from the module directory
 * after {@code mvn test-compile}:
 * {@code java -cp target/test-classes:target/classes:<test classpath> org.rdma.cm.internal.ib.CmFuzzSeeds}.
 */
public final class CmFuzzSeeds {
    private static final Path ROOT = Path.of("src/test/resources/org/rdma/cm/internal/ib/CmRecvFuzzTestInputs");
    /**
     * The fuzz test's ids newest first, as fix-ups name them: what the latest request created,
     * else its SIDR query, its connection and its listen.
     */
    private static final int NEWEST = 0;
    private static final int SIDR = 0;
    private static final int ACTIVE = 1;

    private CmFuzzSeeds() {
    }

    /** The MAD layer as the CM sees it, recording what reaches the CM agents of one host. */
    static final class Recorder implements MadService {
        final MadService mad;
        final String host;
        final List<MadRecvWc> received = new ArrayList<>();

        Recorder(MadService mad, String host) {
            this.mad = mad;
            this.host = host;
        }

        @Override
        public MadAgent registerMadAgent(IbDevice device, int portNum, QpType qpType, MadRegRequest regReq,
                int rmppVersion, org.rdma.mad.MadSendHandler sendHandler, org.rdma.mad.MadRecvHandler recvHandler,
                Object context, int flags) {
            org.rdma.mad.MadRecvHandler recording = recvHandler == null ? null : (ag, sb, wc) -> {
                if (ag.device().name().equals(host)) {
                    received.add(wc);
                }
                recvHandler.recvDone(ag, sb, wc);
            };
            return mad.registerMadAgent(device, portNum, qpType, regReq, rmppVersion, sendHandler, recording, context,
                    flags);
        }

        @Override
        public void unregisterMadAgent(MadAgent agent) {
            mad.unregisterMadAgent(agent);
        }

        @Override
        public MadSendBuf createSendMad(MadAgent agent, int remoteQpn, int pkeyIndex, boolean rmppActive, int hdrLen,
                int dataLen, int baseVersion) {
            return mad.createSendMad(agent, remoteQpn, pkeyIndex, rmppActive, hdrLen, dataLen, baseVersion);
        }

        @Override
        public void freeSendMad(MadSendBuf sendBuf) {
            mad.freeSendMad(sendBuf);
        }

        @Override
        public int postSendMad(MadSendBuf sendBuf) {
            return mad.postSendMad(sendBuf);
        }

        @Override
        public void cancelMad(MadSendBuf sendBuf) {
            mad.cancelMad(sendBuf);
        }

        @Override
        public int modifyMad(MadSendBuf sendBuf, int timeoutMs) {
            return mad.modifyMad(sendBuf, timeoutMs);
        }

        @Override
        public IbAh createAhFromWc(MadAgent agent, MadRecvWc wc) {
            return mad.createAhFromWc(agent, wc);
        }

        @Override
        public IbAh createAh(MadAgent agent, AhAttr attr) {
            return mad.createAh(agent, attr);
        }

        @Override
        public MadSendBuf createResponse(MadAgent agent, MadRecvWc request, boolean rmppActive, int hdrLen,
                int dataLen) {
            return mad.createResponse(agent, request, rmppActive, hdrLen, dataLen);
        }

        @Override
        public long counter(IbDevice device, int portNum, MadCounter counter) {
            return mad.counter(device, portNum, counter);
        }

        /** The MADs recorded since the last call. */
        List<MadRecvWc> take() {
            List<MadRecvWc> l = new ArrayList<>(received);
            received.clear();
            return l;
        }
    }

    public static void main(String[] args) throws IOException {
        ib();
        roce();
    }

    private static void write(String method, String name, byte[] data) throws IOException {
        Path dir = ROOT.resolve(method);
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), data);
    }

    /** One fuzz input: the leading byte, then a record per MAD with its fix-up. */
    private static final class Input {
        final ByteBuffer b = ByteBuffer.allocate(1 + CmRecvFuzzTest.MAX_RECORDS * CmRecvFuzzTest.RECORD);

        Input(int first) {
            b.put((byte) first);
        }

        Input add(MadRecvWc wc, int fix, int which) {
            return add(wc, wc.mad(), fix, which);
        }

        Input add(MadRecvWc wc, byte[] mad, int fix, int which) {
            int flags = fix << CmRecvFuzzTest.FIX_SHIFT;
            if (wc.grh() != null) {
                flags |= CmRecvFuzzTest.WITH_GRH;
            }
            if ((wc.wc().wcFlags & WcFlags.WITH_NETWORK_HDR_TYPE) != 0) {
                flags |= CmRecvFuzzTest.NET_HDR | (wc.wc().networkHdrType == 2 ? CmRecvFuzzTest.IPV4 : 0);
            }
            b.put((byte) flags).put((byte) which).putShort((short) wc.wc().slid).put((byte) (wc.wc().srcQp >>> 16))
                    .putShort((short) wc.wc().srcQp).put((byte) wc.wc().pkeyIndex);
            b.put(wc.grh() == null ? new byte[40] : wc.grh());
            b.put(mad, 0, MadHdr.IB_MGMT_MAD_SIZE);
            return this;
        }

        byte[] bytes() {
            return java.util.Arrays.copyOf(b.array(), b.position());
        }
    }

    private static MadRecvWc only(List<MadRecvWc> got, int attrId) {
        return got.stream().filter(w -> MadHdr.attrId(w.mad(), 0) == attrId).findFirst()
                .orElseThrow(() -> new AssertionError("no MAD 0x" + Integer.toHexString(attrId) + " in " + got.size()));
    }

    private static void ib() throws IOException {
        Recorder[] rec = new Recorder[1];
        try (CmNet cn = CmNet.ib(m -> rec[0] = new Recorder(m, "mlx4_0"))) {
            Recorder r = rec[0];
            Peer a = new Peer(cn, cn.a);
            Peer b = new Peer(cn, cn.b);
            String m = "ibCm";

            // h1 connects to h0, loads an alternate path and disconnects
            IbCmId listen = a.listen();
            IbCmId cb = b.connect(cn.a, Peer.SID, "hello".getBytes());
            cn.advance(10);
            PathRecord alt = cn.path(cn.b, cn.a);
            alt.sl = 2;
            cn.cm.sendCmLap(cb, alt, null);
            cn.advance(10);
            cn.cm.sendCmDreq(cb, null);
            cn.advance(10);
            List<MadRecvWc> got = r.take();
            MadRecvWc req = only(got, IbCm.REQ_ATTR_ID);
            write(m, "passive-req-rtu-lap-dreq", new Input(0).add(req, 0, 0)
                    .add(only(got, IbCm.RTU_ATTR_ID), 1, NEWEST)
                    .add(only(got, IbCm.LAP_ATTR_ID), 1, NEWEST)
                    .add(only(got, IbCm.DREQ_ATTR_ID), 1, NEWEST).bytes());
            write(m, "duplicate-req", new Input(0).add(req, 0, 0).add(req, 0, 0).bytes());
            byte[] stale = req.mad().clone();
            stale[MadHdr.IB_MGMT_MAD_HDR] ^= 0x55;
            write(m, "stale-connection", new Input(0).add(req, 0, 0).add(req, stale, 0, 0)
                    .add(only(got, IbCm.RTU_ATTR_ID), 1, NEWEST).bytes());
            byte[] unknownSid = req.mad().clone();
            unknownSid[MadHdr.IB_MGMT_MAD_HDR + 8] ^= 0x7f;
            write(m, "req-unknown-service", new Input(0).add(req, unknownSid, 0, 0).bytes());
            byte[] get = req.mad().clone();
            MadHdr.of(MadHdr.IB_MGMT_CLASS_CM, IbCm.CLASS_VERSION, MadHdr.IB_MGMT_METHOD_GET,
                    org.rdma.verbs.wire.ClassPortInfo.ATTR_ID, 0, 9).pack(get, 0);
            write(m, "get-classportinfo", new Input(0).add(req, get, 0, 0).bytes());
            byte[] v1 = req.mad().clone();
            v1[2] = 1;
            write(m, "class-version-1", new Input(0).add(req, v1, 0, 0).bytes());
            cn.cm.destroyCmId(cb);
            cn.cm.destroyCmId(listen);
            cn.advance(60_000);
            r.take();

            // h0 connects to h1, which first answers MRA; then LAP/APR, and h1 disconnects
            b.accept = false;
            IbCmId lb = b.listen();
            IbCmId ca = a.connect(cn.b, Peer.SID, null);
            cn.advance(10);
            IbCmId passive = b.only(IbCmEventType.REQ_RECEIVED).id();
            cn.cm.sendCmMra(passive, 14, null);
            cn.advance(10);
            b.accept(passive);
            cn.advance(10);
            cn.cm.sendCmLap(ca, cn.path(cn.a, cn.b), null);
            cn.advance(10);
            cn.cm.sendCmApr(passive, IbCmAprStatus.SUCCESS, null, null);
            cn.advance(10);
            cn.cm.sendCmDreq(passive, null);
            cn.advance(10);
            got = r.take();
            write(m, "active-mra-rep-apr-dreq", new Input(0).add(only(got, IbCm.MRA_ATTR_ID), 3, ACTIVE)
                    .add(only(got, IbCm.REP_ATTR_ID), 3, ACTIVE)
                    .add(only(got, IbCm.APR_ATTR_ID), 1, ACTIVE)
                    .add(only(got, IbCm.DREQ_ATTR_ID), 1, ACTIVE).bytes());
            MadRecvWc rep = only(got, IbCm.REP_ATTR_ID);
            write(m, "rep-for-nobody", new Input(0).add(rep, 0, 0).bytes());
            cn.cm.destroyCmId(ca);
            cn.advance(60_000);
            r.take();

            // h1 rejects h0's request; h0 disconnects an established connection (DREP)
            b.log.clear();
            IbCmId rejected = a.connect(cn.b, Peer.SID, null);
            cn.advance(10);
            cn.cm.sendCmRej(b.only(IbCmEventType.REQ_RECEIVED).id(), IbCmRejReason.CONSUMER_DEFINED, null,
                    "no".getBytes());
            cn.advance(10);
            write(m, "active-rej", new Input(0).add(only(r.take(), IbCm.REJ_ATTR_ID), 3, ACTIVE).bytes());
            cn.cm.destroyCmId(rejected);
            b.accept = true;
            IbCmId mine = a.connect(cn.b, Peer.SID, null);
            cn.advance(10);
            cn.cm.sendCmDreq(mine, null);
            cn.advance(10);
            got = r.take();
            write(m, "active-rep-drep", new Input(0).add(only(got, IbCm.REP_ATTR_ID), 3, ACTIVE)
                    .add(only(got, IbCm.DREP_ATTR_ID), 1, ACTIVE).bytes());
            cn.cm.destroyCmId(mine);
            cn.cm.destroyCmId(lb);
            cn.advance(60_000);
            r.take();

            // SIDR both ways
            IbCmId sidrListen = cn.cm.createCmId(cn.dev(cn.a), (id, ev) -> 0, "sidr listen");
            cn.cm.cmListen(sidrListen, Peer.SID, 0);
            IbCmId server = cn.cm.createCmId(cn.dev(cn.b), (id, ev) -> {
                if (ev.event() == IbCmEventType.SIDR_REQ_RECEIVED) {
                    IbCmSidrRepParam p = new IbCmSidrRepParam();
                    p.qpNum = 0x99;
                    p.qkey = RdmaCm.UDP_QKEY;
                    cn.cm.sendCmSidrRep(id, p);
                }
                return 0;
            }, "sidr server");
            cn.cm.cmListen(server, Peer.SID + 1, 0);
            IbCmId asker = cn.cm.createCmId(cn.dev(cn.b), (id, ev) -> 0, "sidr asker");
            cn.cm.sendCmSidrReq(asker, sidr(cn.path(cn.b, cn.a), Peer.SID));
            IbCmId mineSidr = cn.cm.createCmId(cn.dev(cn.a), (id, ev) -> 0, "sidr of h0");
            cn.cm.sendCmSidrReq(mineSidr, sidr(cn.path(cn.a, cn.b), Peer.SID + 1));
            cn.advance(10);
            got = r.take();
            write(m, "sidr-req", new Input(0).add(only(got, IbCm.SIDR_REQ_ATTR_ID), 0, 0).bytes());
            write(m, "sidr-rep", new Input(0).add(only(got, IbCm.SIDR_REP_ATTR_ID), 2, SIDR).bytes());
        }
    }

    private static IbCmSidrReqParam sidr(PathRecord path, long sid) {
        IbCmSidrReqParam p = new IbCmSidrReqParam();
        p.path = path;
        p.serviceId = sid;
        p.timeoutMs = 100;
        p.maxCmRetries = 2;
        return p;
    }

    /**
     * RoCE: the REQ, RTU and DREQ of a connection from hb to ha as the IB CM carries them, made
     * RDMA CM requests for ha's listens: the TCP port space service ID and the IP CM header (hb's
     * address and port, ha's address) in front of the private data; and a SIDR REQ for UDP.
     */
    private static void roce() throws IOException {
        Recorder[] rec = new Recorder[1];
        try (CmNet cn = CmNet.roce(m -> rec[0] = new Recorder(m, "mlx4_0"))) {
            Recorder r = rec[0];
            Peer a = new Peer(cn, cn.a);
            Peer b = new Peer(cn, cn.b);
            a.listen();
            IbCmId cb = b.connect(cn.a, Peer.SID, null);
            cn.advance(10);
            cn.cm.sendCmDreq(cb, null);
            cn.advance(10);
            IbCmId asker = cn.cm.createCmId(cn.dev(cn.b), (id, ev) -> 0, "sidr asker");
            cn.cm.sendCmSidrReq(asker, sidr(cn.path(cn.b, cn.a), Peer.SID));
            cn.advance(10);
            List<MadRecvWc> got = r.take();
            MadRecvWc req = only(got, IbCm.REQ_ATTR_ID);
            byte[] v4 = rdmaReq(req.mad(), RdmaCm.IB_IP_PS_TCP, CmRecvFuzzTest.RDMA_PORT, 4,
                    new byte[] {(byte) 192, (byte) 168, 7, 2}, new byte[] {(byte) 192, (byte) 168, 7, 1}, 0);
            String m = "rdmaCm";
            for (int policy = 0; policy < 4; policy++) {
                write(m, "tcp-v4-policy-" + policy, new Input(policy).add(req, v4, 0, 0)
                        .add(only(got, IbCm.RTU_ATTR_ID), 1, NEWEST)
                        .add(only(got, IbCm.DREQ_ATTR_ID), 1, NEWEST).bytes());
            }
            byte[] v6 = rdmaReq(req.mad(), RdmaCm.IB_IP_PS_TCP, CmRecvFuzzTest.RDMA_PORT + 1, 6,
                    java.net.InetAddress.getByName("fd00::7:2").getAddress(),
                    java.net.InetAddress.getByName("fd00::7:1").getAddress(), 0);
            write(m, "tcp-v6", new Input(0).add(req, v6, 0, 0).add(only(got, IbCm.RTU_ATTR_ID), 1, NEWEST).bytes());
            write(m, "tcp-no-header", new Input(0).add(req, rdmaReq(req.mad(), RdmaCm.IB_IP_PS_TCP,
                    CmRecvFuzzTest.RDMA_PORT, 9, new byte[4], new byte[4], 0), 0, 0).bytes());
            write(m, "tcp-header-version-1", new Input(0).add(req, rdmaReq(req.mad(), RdmaCm.IB_IP_PS_TCP,
                    CmRecvFuzzTest.RDMA_PORT, 4, new byte[] {(byte) 192, (byte) 168, 7, 2},
                    new byte[] {(byte) 192, (byte) 168, 7, 1}, 1), 0, 0).bytes());
            write(m, "tcp-other-address", new Input(0).add(req, rdmaReq(req.mad(), RdmaCm.IB_IP_PS_TCP,
                    CmRecvFuzzTest.RDMA_PORT, 4, new byte[] {10, 0, 0, 2}, new byte[] {10, 0, 0, 1}, 0), 0, 0).bytes());
            MadRecvWc sreq = only(got, IbCm.SIDR_REQ_ATTR_ID);
            write(m, "udp-sidr", new Input(0).add(sreq, rdmaSidr(sreq.mad(), CmRecvFuzzTest.RDMA_PORT), 0, 0).bytes());
        }
    }

    /**
     * The REQ with the service ID of {@code ps} and {@code port} and an IP CM header in front of
     * its private data ({@code cma_format_hdr()}); a {@code version} other than 0 makes it invalid.
     */
    private static byte[] rdmaReq(byte[] req, long ps, int port, int ipVersion, byte[] src, byte[] dst, int version) {
        byte[] m = req.clone();
        ByteBuffer b = ByteBuffer.wrap(m);
        int msg = MadHdr.IB_MGMT_MAD_HDR;
        b.putLong(msg + 8, ps | port);
        // REQ private data: bytes 140.. of the message (12.6.5)
        ipHeader(m, msg + 140, ipVersion, 40000 + port, src, dst, version);
        return m;
    }

    private static byte[] rdmaSidr(byte[] sidrReq, int port) {
        byte[] m = sidrReq.clone();
        int msg = MadHdr.IB_MGMT_MAD_HDR;
        ByteBuffer.wrap(m).putLong(msg + 8, RdmaCm.IB_IP_PS_UDP | port);
        // SIDR_REQ private data: bytes 16.. of the message (12.6.14)
        ipHeader(m, msg + 16, 4, 40000, new byte[] {(byte) 192, (byte) 168, 7, 2},
                new byte[] {(byte) 192, (byte) 168, 7, 1}, 0);
        return m;
    }

    private static void ipHeader(byte[] m, int off, int ipVersion, int srcPort, byte[] src, byte[] dst, int version) {
        java.util.Arrays.fill(m, off, off + RdmaCm.CMA_HDR_SIZE, (byte) 0);
        m[off] = (byte) version;
        m[off + 1] = (byte) (ipVersion << 4);
        m[off + 2] = (byte) (srcPort >>> 8);
        m[off + 3] = (byte) srcPort;
        System.arraycopy(src, 0, m, off + 4 + 16 - src.length, src.length);
        System.arraycopy(dst, 0, m, off + 20 + 16 - dst.length, dst.length);
    }
}
