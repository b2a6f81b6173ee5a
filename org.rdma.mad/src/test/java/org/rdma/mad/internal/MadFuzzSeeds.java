package org.rdma.mad.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.rdma.mad.MadAgent;
import org.rdma.mad.Rmpp;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaMad;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.mad.umad.UmadAddr;
import org.rdma.mad.umad.UmadRegAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;

/**
 * Writes the seed corpora of this module's fuzz tests from the real encoders, into
 * {@code src/test/resources/org/rdma/mad/internal/<Test>Inputs/<method>/} (Jazzer's layout).
 * Run from the module directory after {@code mvn test-compile}:
 * {@code java -cp target/test-classes:target/classes:<test classpath> org.rdma.mad.internal.MadFuzzSeeds}.
 * Crash inputs found by fuzzing are added there by hand and are not rewritten.
 */
public final class MadFuzzSeeds {
    private static final Path ROOT = Path.of("src/test/resources/org/rdma/mad/internal");
    private static final long GUID_A = 0x0002c90300a1b200L;

    private MadFuzzSeeds() {
    }

    public static void main(String[] args) throws IOException {
        codecs();
        smi();
        receive();
        rmpp();
        umad();
        pma();
    }

    private static void write(String test, String method, String name, byte[] data) throws IOException {
        Path dir = ROOT.resolve(test + "Inputs").resolve(method);
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), data);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    // ------------------------------------------------------------------ codecs

    private static void codecs() throws IOException {
        for (int i = 0; i < MadCodecFuzzTest.CODECS.size(); i++) {
            var c = MadCodecFuzzTest.CODECS.get(i);
            byte[] pattern = new byte[c.length()];
            for (int j = 0; j < pattern.length; j++) {
                pattern[j] = (byte) (j * 0x9d + 7);
            }
            write("MadCodecFuzzTest", "unpackThenPackKeepsEveryField", c.name(),
                    concat(new byte[] {(byte) i}, c.roundTrip(pattern)));
        }
        NodeInfo ni = new NodeInfo();
        ni.baseVersion = 1;
        ni.classVersion = 1;
        ni.nodeType = NodeInfo.NODE_TYPE_CA;
        ni.numPorts = 2;
        ni.nodeGuid = GUID_A;
        ni.portGuid = GUID_A + 1;
        ni.sysImageGuid = GUID_A;
        ni.partitionCap = 128;
        ni.deviceId = 0x1003;
        ni.vendorId = 0x02c9;
        ni.localPortNum = 1;
        writeCodec("NodeInfo", "NodeInfo-ca", ni::pack, NodeInfo.BYTES);
        writeCodec("NodeDescription", "NodeDescription-host", NodeDescription.of("A HCA-1")::pack, NodeDescription.BYTES);
        PortInfo pi = new PortInfo();
        pi.lid = 10;
        pi.masterSmLid = 10;
        pi.portState = PortInfo.PORT_STATE_ACTIVE;
        pi.localPortNum = 1;
        pi.gidPrefix = 0xfe80_0000_0000_0000L;
        writeCodec("PortInfo", "PortInfo-active", pi::pack, PortInfo.BYTES);
        PathRecord path = path();
        writeCodec("PathRecord", "PathRecord-a-b", path::pack, PathRecord.BYTES);
        McMemberRecord mc = new McMemberRecord();
        mc.mgid = Gid.of(0xff12_401b_ffff_0000L, 0xffff_ffffL);
        mc.portGid = path.sgid;
        mc.qkey = 0x0b1b;
        mc.mlid = 0xc000;
        mc.joinState = 1;
        writeCodec("McMemberRecord", "McMemberRecord-join", mc::pack, McMemberRecord.BYTES);
        ServiceRecord sr = new ServiceRecord();
        sr.id = 0x1000_0000_0000_0001L;
        sr.gid = path.sgid;
        sr.setName("rdma service");
        writeCodec("ServiceRecord", "ServiceRecord-named", sr::pack, ServiceRecord.BYTES);
        PortCounters pc = new PortCounters();
        pc.portSelect = 1;
        pc.counterSelect = 0xffff;
        pc.portXmitData = 123456;
        writeCodec("PortCounters", "PortCounters-port1", pc::pack, PortCounters.BYTES);
    }

    private interface Packer {
        int pack(byte[] buf, int off);
    }

    private static void writeCodec(String codec, String name, Packer p, int len) throws IOException {
        int index = -1;
        for (int i = 0; i < MadCodecFuzzTest.CODECS.size(); i++) {
            if (MadCodecFuzzTest.CODECS.get(i).name().equals(codec)) {
                index = i;
            }
        }
        byte[] b = new byte[1 + len];
        b[0] = (byte) index;
        p.pack(b, 1);
        write("MadCodecFuzzTest", "unpackThenPackKeepsEveryField", name, b);
    }

    static PathRecord path() {
        PathRecord p = new PathRecord();
        p.sgid = Gid.of(0xfe80_0000_0000_0000L, GUID_A + 1);
        p.dgid = Gid.of(0xfe80_0000_0000_0000L, GUID_A + 0x101);
        p.dlid = 11;
        p.slid = 10;
        p.reversible = 1;
        p.numbPath = 1;
        p.pkey = 0xffff;
        p.mtuSelector = 2;
        p.mtu = 5;
        p.rateSelector = 2;
        p.rate = 7;
        p.packetLifeTimeSelector = 2;
        p.packetLifeTime = 18;
        return p;
    }

    // ------------------------------------------------------------------ SMI

    private static void smi() throws IOException {
        // a switch of 8 ports in the middle of a 3-hop route, the request going out and coming back
        Smp out = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 1, 1, 3, 2);
        out.hopPtr = 1;
        write("MadCodecFuzzTest", "directedRouteSmi", "switch-outgoing", smiInput(true, 8, 1, out));
        Smp back = out.copy().setDirection(true);
        back.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        back.hopPtr = 2;
        back.returnPath[1] = 4;
        back.returnPath[2] = 3;
        write("MadCodecFuzzTest", "directedRouteSmi", "switch-returning", smiInput(true, 8, 2, back));
        // the CA at the end of a one-hop route, and a LID-routed part after the directed one
        Smp end = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 0, 2, 1);
        end.hopPtr = 1;
        write("MadCodecFuzzTest", "directedRouteSmi", "ca-end", smiInput(false, 1, 1, end));
        Smp mixed = end.copy();
        mixed.drDlid = 11;
        write("MadCodecFuzzTest", "directedRouteSmi", "mixed-route", smiInput(true, 8, 1, mixed));
        Smp bad = back.copy();
        bad.hopCnt = 64;
        write("MadCodecFuzzTest", "directedRouteSmi", "hop-count-64", smiInput(true, 8, 2, bad));
    }

    private static byte[] smiInput(boolean isSwitch, int ports, int port, Smp smp) {
        byte[] b = new byte[3 + Smp.IB_SMP_BYTES];
        b[0] = (byte) (isSwitch ? 1 : 0);
        b[1] = (byte) ports;
        b[2] = (byte) port;
        smp.pack(b, 3);
        return b;
    }

    // ------------------------------------------------------------------ receive

    /** A {@link MadRecvFuzzTest#receive} record: from B (LID 11, QP 0 or 1), no GRH unless given. */
    private static byte[] record(int flags, byte[] mad) {
        ByteBuffer r = ByteBuffer.allocate(MadRecvFuzzTest.RECORD);
        r.put((byte) flags).putShort((short) 11).put((byte) 0);
        r.putShort((short) ((flags & MadRecvFuzzTest.ON_QP1) != 0 ? 1 : 0)).put((byte) 0).put((byte) 0);
        if ((flags & MadRecvFuzzTest.WITH_GRH) != 0) {
            byte[] grh = new byte[MadQp.GRH_LEN];
            grh[0] = 0x60;
            grh[6] = 0x1b;
            grh[7] = (byte) 0xff;
            Gid.of(0xfe80_0000_0000_0000L, GUID_A + 0x101).writeTo(grh, 8);
            Gid.of(0xfe80_0000_0000_0000L, GUID_A + 1).writeTo(grh, 24);
            r.put(grh);
        } else {
            r.position(48);
        }
        r.put(mad);
        return r.array();
    }

    private static byte[] mad(MadHdr h) {
        byte[] m = new byte[MadLayer.MAD_SIZE];
        h.pack(m, 0);
        return m;
    }

    private static byte[] smp(Smp s) {
        byte[] m = new byte[MadLayer.MAD_SIZE];
        s.pack(m, 0);
        return m;
    }

    private static void receive() throws IOException {
        final int qp1 = MadRecvFuzzTest.ON_QP1;
        final int gmpTid = 1 << MadRecvFuzzTest.TID_SHIFT;
        final int saTid = 2 << MadRecvFuzzTest.TID_SHIFT;
        final int smpTid = 3 << MadRecvFuzzTest.TID_SHIFT;
        String t = "MadRecvFuzzTest";
        String m = "receive";
        write(t, m, "sma-get-nodeinfo", record(0, smp(Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 7))));
        Smp dr = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, 1, 8, 1);
        dr.hopPtr = 1;
        write(t, m, "dr-get-portinfo", record(0, smp(dr)));
        Smp set = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, 1, 9, 1);
        set.hopPtr = 1;
        write(t, m, "dr-set-to-sm-agent", record(0, smp(set)));
        Smp resp = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET_RESP, 0x10, 0, 0);
        write(t, m, "smp-response-matched", record(smpTid, smp(resp)));
        Smp badHops = dr.copy();
        badHops.hopPtr = 9;
        write(t, m, "dr-hop-pointer-off-path", record(0, smp(badHops)));
        write(t, m, "gmp-get-to-server", record(qp1 | MadRecvFuzzTest.WITH_GRH,
                mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 0, 0x77))));
        write(t, m, "gmp-response-matched", record(qp1 | gmpTid,
                mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET_RESP, 0x10, 0, 0))));
        write(t, m, "gmp-response-unmatched", record(qp1,
                mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET_RESP, 0x10, 0, 0x123))));
        write(t, m, "cm-send-no-agent", record(qp1,
                mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_CM, 2, MadHdr.IB_MGMT_METHOD_SEND, 0x10, 0, 0x42))));
        write(t, m, "get-no-agent-answered", record(qp1,
                mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET,
                        PerfMgmtMad.IB_PMA_PORT_COUNTERS, 0, 0x43))));
        byte[] vendor = mad(MadHdr.of(0x30, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 0, 0x44));
        vendor[37] = 0x00;
        vendor[38] = 0x14;
        vendor[39] = 0x05;
        write(t, m, "vendor-range2-oui", record(qp1, vendor));
        byte[] v2 = mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 0, 0x45));
        v2[0] = 2;
        write(t, m, "bad-base-version", record(qp1, v2));
        write(t, m, "smp-on-qp1", record(qp1, smp(Smp.lidRouted(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 7))));
        write(t, m, "gmp-on-qp0", record(0,
                mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 0, 0x46))));
        // an SA GetTableResp in one RMPP segment, and in two
        write(t, m, "sa-table-one-segment", record(qp1 | saTid, saSegment(1, Rmpp.FLAG_FIRST | Rmpp.FLAG_LAST,
                PathRecord.BYTES + 20)));
        write(t, m, "sa-table-two-segments", concat(
                record(qp1 | saTid, saSegment(1, Rmpp.FLAG_FIRST, 2 * SaMad.DATA_SIZE + 20)),
                record(qp1 | saTid, saSegment(2, Rmpp.FLAG_LAST, SaMad.DATA_SIZE + 20))));
        byte[] ack = saSegment(1, 0, 1);
        Rmpp.set(ack, MadAgent.RMPP_VERSION, Rmpp.TYPE_ACK, Rmpp.FLAG_ACTIVE, 0, 1, 1);
        write(t, m, "sa-rmpp-ack", record(qp1 | saTid, ack));
        byte[] abort = saSegment(1, 0, 1);
        Rmpp.set(abort, MadAgent.RMPP_VERSION, Rmpp.TYPE_ABORT, Rmpp.FLAG_ACTIVE, Rmpp.STATUS_BAD_SEG, 0, 0);
        write(t, m, "sa-rmpp-abort", record(qp1 | saTid, abort));
        byte[] req = mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, MadHdr.IB_MGMT_METHOD_GET,
                SaMad.ATTR_PATH_REC, 0, 0x47));
        SaMad.setCompMask(req, PathRecord.SGID | PathRecord.DGID);
        path().pack(req, SaMad.DATA_OFFSET);
        write(t, m, "sa-get-path-to-server", record(qp1, req));
    }

    /** An SA GetTableResp segment; its TID is set by the record's fix-up. */
    private static byte[] saSegment(int seg, int flags, int paylen) {
        byte[] m = mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION,
                MadHdr.IB_SA_METHOD_GET_TABLE_RESP, SaMad.ATTR_PATH_REC, 0, 0));
        Rmpp.set(m, MadAgent.RMPP_VERSION, Rmpp.TYPE_DATA, Rmpp.FLAG_ACTIVE | flags, 0, seg, paylen);
        SaMad.setAttrOffset(m, PathRecord.BYTES / 8);
        path().pack(m, SaMad.DATA_OFFSET);
        return m;
    }

    // ------------------------------------------------------------------ RMPP sequences

    /** A {@link MadRecvFuzzTest#rmppReassembly} segment. */
    private static byte[] segment(int segNum, int paylen, int flags, int type, int status, int fill, boolean request) {
        ByteBuffer b = ByteBuffer.allocate(MadRecvFuzzTest.SEGMENT);
        b.putInt(segNum).putInt(paylen).put((byte) (Rmpp.NO_RESPTIME << 3 | flags)).put((byte) type)
                .put((byte) MadAgent.RMPP_VERSION).put((byte) status).put((byte) fill).put((byte) (request ? 1 : 0));
        return b.array();
    }

    private static byte[] data(int segNum, int paylen, int flags, boolean request) {
        return segment(segNum, paylen, Rmpp.FLAG_ACTIVE | flags, Rmpp.TYPE_DATA, 0, segNum, request);
    }

    private static void rmpp() throws IOException {
        String t = "MadRecvFuzzTest";
        String m = "rmppReassembly";
        int seg = SaMad.DATA_SIZE + 20;
        write(t, m, "single", data(1, 100, Rmpp.FLAG_FIRST | Rmpp.FLAG_LAST, false));
        write(t, m, "three-in-order", concat(data(1, 3 * seg, Rmpp.FLAG_FIRST, false), data(2, 2 * seg, 0, false),
                data(3, 50, Rmpp.FLAG_LAST, false)));
        write(t, m, "duplicate-and-gap", concat(data(1, 3 * seg, Rmpp.FLAG_FIRST, false), data(1, 3 * seg,
                Rmpp.FLAG_FIRST, false), data(3, 50, Rmpp.FLAG_LAST, false), data(2, 2 * seg, 0, false),
                data(3, 50, Rmpp.FLAG_LAST, false)));
        write(t, m, "stalled-request", concat(data(1, 5 * seg, Rmpp.FLAG_FIRST, true), data(2, 4 * seg, 0, true)));
        write(t, m, "stop-then-abort", concat(data(1, 3 * seg, Rmpp.FLAG_FIRST, false),
                segment(1, 0, Rmpp.FLAG_ACTIVE, Rmpp.TYPE_STOP, Rmpp.STATUS_RESX, 0, false),
                segment(1, 0, Rmpp.FLAG_ACTIVE, Rmpp.TYPE_ABORT, Rmpp.STATUS_T2L, 0, false)));
        byte[] badVersion = data(1, 100, Rmpp.FLAG_FIRST | Rmpp.FLAG_LAST, false);
        badVersion[10] = 2;
        write(t, m, "bad-version", badVersion);
        write(t, m, "bad-type", segment(1, 100, Rmpp.FLAG_ACTIVE, 9, 0, 0, false));
        write(t, m, "claims-2GiB", concat(data(1, Integer.MAX_VALUE, Rmpp.FLAG_FIRST, false),
                data(2, 100, Rmpp.FLAG_LAST, false)));
        write(t, m, "window-of-70", windowOf(70));
    }

    private static byte[] windowOf(int n) {
        byte[][] segs = new byte[n][];
        for (int i = 0; i < n; i++) {
            segs[i] = data(i + 1, (n - i) * (SaMad.DATA_SIZE + 20), i == 0 ? Rmpp.FLAG_FIRST
                    : i == n - 1 ? Rmpp.FLAG_LAST : 0, false);
        }
        return Arrays.copyOf(concat(segs), n * MadRecvFuzzTest.SEGMENT);
    }

    // ------------------------------------------------------------------ user MAD writes

    /** A {@link UmadFuzzTest#write} input: registration, agent, address, length, timeout, retries, MAD. */
    private static byte[] umadWrite(UmadRegAttr reg, int agent, UmadAddr addr, int length, int timeoutMs, int retries,
            byte[] mad) {
        ByteBuffer b = ByteBuffer.allocate(UmadFuzzTest.HEADER + mad.length);
        b.put((byte) reg.mgmtClass()).put((byte) reg.mgmtClassVersion()).put((byte) reg.flags())
                .put((byte) reg.rmppVersion());
        putU24(b, reg.oui());
        b.put(Arrays.copyOf(reg.methodMask().toByteArray(), 16));
        b.put((byte) agent);
        putU24(b, addr.qpn());
        b.putInt(addr.qkey()).putShort((short) addr.lid()).put((byte) addr.sl()).put((byte) addr.pathBits())
                .put((byte) (addr.grhPresent() ? 1 : 0)).put((byte) addr.gidIndex()).put((byte) addr.hopLimit())
                .put((byte) addr.trafficClass()).put(addr.gid().bytes());
        putU24(b, addr.flowLabel());
        b.putShort((short) addr.pkeyIndex()).putShort((short) length).putShort((short) timeoutMs)
                .put((byte) retries).put(mad);
        return b.array();
    }

    private static void putU24(ByteBuffer b, int v) {
        b.put((byte) (v >>> 16)).putShort((short) v);
    }

    private static void umad() throws IOException {
        String t = "UmadFuzzTest";
        String m = "write";
        java.util.BitSet get = new java.util.BitSet();
        get.set(MadHdr.IB_MGMT_METHOD_GET);
        UmadRegAttr none = new UmadRegAttr(0, 0, 0, null, 0, 0);
        UmadAddr toB = UmadAddr.lid(11, 1, 0, 0);
        byte[] dr = smp(Smp.directed(MadHdr.IB_MGMT_METHOD_GET, NodeInfo.ATTR_ID, 0, 1, 1, 2));
        write(t, m, "dr-smp-nodeinfo", umadWrite(none, 1, UmadAddr.lid(0xffff, 0, 0, 0), 256, 100, 1, dr));
        byte[] gmp = mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 0, 2));
        write(t, m, "gmp-get-to-b", umadWrite(none, 2, toB, 256, 50, 0, gmp));
        write(t, m, "gmp-with-grh", umadWrite(none, 2, toB.withGrh(path().dgid, 0, 64, 0, 0x12345), 256, 0, 0, gmp));
        byte[] table = new byte[SaMad.DATA_OFFSET + 3 * SaMad.DATA_SIZE];
        MadHdr.of(MadHdr.IB_MGMT_CLASS_SUBN_ADM, SaMad.IB_SA_CLASS_VERSION, MadHdr.IB_SA_METHOD_GET_TABLE_RESP,
                SaMad.ATTR_PATH_REC, 0, 3).pack(table, 0);
        Rmpp.set(table, MadAgent.RMPP_VERSION, Rmpp.TYPE_DATA, Rmpp.FLAG_ACTIVE, 0, 0, 0);
        write(t, m, "sa-rmpp-response", umadWrite(none, 3, toB, table.length, 0, 0, table));
        byte[] vendor = mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_VENDOR_RANGE2_START, 1, MadHdr.IB_MGMT_METHOD_GET, 0x10, 0,
                4));
        vendor[39] = 0x05;
        vendor[38] = 0x14;
        Rmpp.set(vendor, MadAgent.RMPP_VERSION, Rmpp.TYPE_DATA, Rmpp.FLAG_ACTIVE | Rmpp.FLAG_FIRST, 0, 1, 400);
        write(t, m, "vendor-user-rmpp-segment", umadWrite(none, 4, toB, 256, 100, 2, vendor));
        write(t, m, "registered-then-sent", umadWrite(new UmadRegAttr(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, 0, get, 0, 0),
                0, toB, 256, 100, 0, mad(MadHdr.of(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET,
                        PerfMgmtMad.IB_PMA_PORT_COUNTERS, 0, 5))));
        write(t, m, "length-beyond-buffer", umadWrite(none, 2, toB, 4000, 0, 0, gmp));
        write(t, m, "rmpp-class-without-rmpp-agent", umadWrite(none, 2, toB, table.length, 0, 0, table));
    }

    // ------------------------------------------------------------------ PMA

    private static byte[] pmaRequest(boolean toSwitch, int method, int attrId, int classVersion, Packer data) {
        PerfMgmtMad p = PerfMgmtMad.of(method, attrId, 0, 0x99);
        p.madHdr.classVersion = classVersion;
        byte[] b = new byte[1 + MadLayer.MAD_SIZE];
        b[0] = (byte) (toSwitch ? 1 : 0);
        p.pack(b, 1);
        if (data != null) {
            data.pack(b, 1 + MadHdr.IB_MGMT_DEVICE_HDR);
        }
        return b;
    }

    private static void pma() throws IOException {
        String t = "PmaFuzzTest";
        String m = "request";
        int v = PerfMgmtMad.IB_PMA_CLASS_VERSION;
        PortCounters port1 = new PortCounters();
        port1.portSelect = 1;
        port1.counterSelect = 0xffff;
        PortCounters all = new PortCounters();
        all.portSelect = PortCounters.PORT_SELECT_ALL;
        all.counterSelect = 0xffff;
        write(t, m, "classportinfo", pmaRequest(false, MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_CLASS_PORT_INFO, v,
                null));
        write(t, m, "get-portcounters", pmaRequest(false, MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_PORT_COUNTERS,
                v, port1::pack));
        write(t, m, "set-portcounters", pmaRequest(false, MadHdr.IB_MGMT_METHOD_SET, PerfMgmtMad.IB_PMA_PORT_COUNTERS,
                v, port1::pack));
        write(t, m, "get-portcounters-ext", pmaRequest(false, MadHdr.IB_MGMT_METHOD_GET,
                PerfMgmtMad.IB_PMA_PORT_COUNTERS_EXT, v, port1::pack));
        write(t, m, "switch-all-ports", pmaRequest(true, MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_PORT_COUNTERS,
                v, all::pack));
        write(t, m, "switch-port-9-of-8", pmaRequest(true, MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_PORT_COUNTERS,
                v, new Packer() {
                    @Override
                    public int pack(byte[] buf, int off) {
                        PortCounters p = new PortCounters();
                        p.portSelect = 9;
                        return p.pack(buf, off);
                    }
                }));
        write(t, m, "bad-class-version", pmaRequest(false, MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_PORT_COUNTERS,
                2, port1::pack));
        write(t, m, "unsupported-attribute", pmaRequest(false, MadHdr.IB_MGMT_METHOD_GET, 0x1234, v, null));
        write(t, m, "trap-unanswered", pmaRequest(false, MadHdr.IB_MGMT_METHOD_TRAP, 0x0002, v, null));
    }
}
