package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Known-answer vectors for the common MAD header and the SMP layout (IBTA vol. 1, 13.4.2 and
 * 14.2.1), including two MADs captured from real fabrics, plus generated round trips of every MAD
 * codec of the package.
 */
class MadHdrSmpTest {

    /**
     * A directed-route SubnGetResp(PortInfo) captured on a real fabric, as published as test data of
     * the Rust crate newellz2/ibmad (tests/data/packets/port_info.hex): 256 bytes as read by the SM
     * through umad, i.e. after its own SMI processing (hop pointer back at 0).
     */
    static final String REAL_DR_PORT_INFO_RESP =
            "0181 0181 8000 0002 0013 1e1b 37d2 14c3"
            + "0015 0000 0000 0000 0000 0000 0000 0000"
            + "ffff ffff 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 fe80 0000 0000 0000"
            + "6a73 0004 a751 e848 0000 003c 0113 1302"
            + "1452 0001 5030 0008 0805 0030 0000 0000"
            + "0000 0864 1088 0000 0000 006e 0432 8f0f"
            + "0001 3600 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000"
            + "0035 0100 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000"
            + "0000 0000 0000 0000 0000 0000 0000 0000";

    private static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    // ---------------------------------------------------------------- common MAD header

    @Test
    void madHdrKnownAnswer() {
        // word0 = BaseVersion 0x01 | MgmtClass 0x04 (PerfMgmt) | ClassVersion 0x01 | Method 0x01 (Get)
        // word1 = Status 0x001c (code 7: invalid attribute value) | ClassSpecific 0xabcd
        // words 2-3 = TID 0x0123456789abcdef; word4 = AttributeID 0x0012 | reserved 0x0000 (cleared
        // from the 0xff background); word5 = AttributeModifier 0x80000001 (top bit set: unsigned)
        MadHdr h = MadHdr.of(MadHdr.IB_MGMT_CLASS_PERF_MGMT, 1, MadHdr.IB_MGMT_METHOD_GET,
                PerfMgmtMad.IB_PMA_PORT_COUNTERS, 0x80000001, 0x0123456789ABCDEFL);
        h.status = MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE;
        h.classSpecific = 0xABCD;
        byte[] buf = filled(24, 0xFF);
        assertEquals(24, h.pack(buf, 0));
        assertArrayEquals(Hex.bytes("01 04 01 01  00 1c ab cd  01 23 45 67 89 ab cd ef  00 12 00 00  80 00 00 01"),
                buf);
        MadHdr back = new MadHdr().unpack(buf, 0);
        assertEquals(h, back);
        assertEquals(0x80000001, back.attrMod);
        assertEquals(24, IbPack.byteLength(MadHdr.TABLE));
    }

    @Test
    void madHdrOfARealSaResponse() {
        // The first 24 bytes of a SubnAdmGetResp(PathRecord) from a real SA, as printed by
        // python-rdma's MAD pretty printer (doc/IBA.rst, "Structure Pretty Printer"):
        //    0 01030281 baseVersion=1,mgmtClass=3,classVersion=2,method=129
        //    4 00000000 status=0,classSpecific=0
        //    8 000028D6 transactionID=44902842023172
        //   12 C1F2BD04
        //   16 00350000 attributeID=53,reserved_144=0
        //   20 00000000 attributeModifier=0
        byte[] wire = Hex.bytes("01030281 00000000 000028D6 C1F2BD04 00350000 00000000");
        MadHdr h = new MadHdr().unpack(wire, 0);
        assertEquals(MadHdr.IB_MGMT_BASE_VERSION, h.baseVersion);
        assertEquals(MadHdr.IB_MGMT_CLASS_SUBN_ADM, h.mgmtClass);
        assertEquals(2, h.classVersion);
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, h.method);
        assertEquals(0, h.status);
        assertEquals(44902842023172L, h.tid);
        assertEquals(0x0035, h.attrId);
        assertEquals(0, h.attrMod);
        assertTrue(h.isResponse());
        byte[] again = new byte[24];
        h.pack(again, 0);
        assertArrayEquals(wire, again);
    }

    @Test
    void isResponseFollowsIbResponseMad() {
        MadHdr h = new MadHdr();
        for (int m : new int[] {MadHdr.IB_MGMT_METHOD_GET, MadHdr.IB_MGMT_METHOD_SET, MadHdr.IB_MGMT_METHOD_SEND,
                MadHdr.IB_MGMT_METHOD_TRAP, MadHdr.IB_MGMT_METHOD_REPORT, MadHdr.IB_SA_METHOD_GET_TABLE,
                MadHdr.IB_SA_METHOD_DELETE}) {
            h.method = m;
            assertFalse(h.isResponse(), "method 0x" + Integer.toHexString(m));
            h.method = m | MadHdr.IB_MGMT_METHOD_RESP;
            assertTrue(h.isResponse(), "method 0x" + Integer.toHexString(h.method));
        }
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, MadHdr.IB_MGMT_METHOD_GET | MadHdr.IB_MGMT_METHOD_RESP);
        assertEquals(MadHdr.IB_MGMT_METHOD_REPORT_RESP, MadHdr.IB_MGMT_METHOD_REPORT | MadHdr.IB_MGMT_METHOD_RESP);
        assertEquals(MadHdr.IB_SA_METHOD_GET_TABLE_RESP, MadHdr.IB_SA_METHOD_GET_TABLE | MadHdr.IB_MGMT_METHOD_RESP);
        assertEquals(MadHdr.IB_SA_METHOD_DELETE_RESP, MadHdr.IB_SA_METHOD_DELETE | MadHdr.IB_MGMT_METHOD_RESP);
        // TrapRepress is a response although its R bit is clear
        h.method = MadHdr.IB_MGMT_METHOD_TRAP_REPRESS;
        assertTrue(h.isResponse());
        // baseboard management marks responses in the attribute modifier
        h.method = MadHdr.IB_MGMT_METHOD_SEND;
        h.mgmtClass = MadHdr.IB_MGMT_CLASS_BM;
        assertFalse(h.isResponse());
        h.attrMod = MadHdr.IB_BM_ATTR_MOD_RESP;
        assertTrue(h.isResponse());
        h.mgmtClass = MadHdr.IB_MGMT_CLASS_CM;
        assertFalse(h.isResponse(), "only BM uses the attribute modifier bit");
    }

    @Test
    void singleHeaderFieldsReadWhatUnpackReads() {
        Random r = new Random(24);
        byte[] mad = new byte[MadHdr.IB_MGMT_MAD_SIZE + 3];
        for (int i = 0; i < 2_000; i++) {
            r.nextBytes(mad);
            if (i % 4 == 0) {
                mad[3 + 3] = (byte) MadHdr.IB_MGMT_METHOD_TRAP_REPRESS;
            } else if (i % 4 == 1) {
                mad[1 + 3] = (byte) MadHdr.IB_MGMT_CLASS_BM;
            }
            MadHdr h = new MadHdr().unpack(mad, 3);
            assertEquals(h.baseVersion, MadHdr.baseVersion(mad, 3));
            assertEquals(h.mgmtClass, MadHdr.mgmtClass(mad, 3));
            assertEquals(h.classVersion, MadHdr.classVersion(mad, 3));
            assertEquals(h.method, MadHdr.method(mad, 3));
            assertEquals(h.status, MadHdr.status(mad, 3));
            assertEquals(h.tid, MadHdr.tid(mad, 3));
            assertEquals(h.attrId, MadHdr.attrId(mad, 3));
            assertEquals(h.attrMod, MadHdr.attrMod(mad, 3));
            assertEquals(h.isResponse(), MadHdr.isResponse(mad, 3), h.toString());
        }
        assertThrows(IndexOutOfBoundsException.class, () -> MadHdr.tid(new byte[15], 0));
    }

    @Test
    void classDataOffsetsAndRmpp() {
        assertEquals(56, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_SUBN_ADM));
        assertEquals(64, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT));
        assertEquals(64, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_DEVICE_ADM));
        assertEquals(64, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_BIS));
        assertEquals(40, MadHdr.dataOffset(0x30));
        assertEquals(40, MadHdr.dataOffset(0x4F));
        assertEquals(24, MadHdr.dataOffset(0x50));
        assertEquals(24, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_PERF_MGMT));
        assertEquals(24, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_SUBN_LID_ROUTED));
        assertTrue(MadHdr.isClassRmpp(MadHdr.IB_MGMT_CLASS_SUBN_ADM));
        assertTrue(MadHdr.isClassRmpp(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT));
        assertTrue(MadHdr.isClassRmpp(MadHdr.IB_MGMT_CLASS_DEVICE_ADM));
        assertTrue(MadHdr.isClassRmpp(MadHdr.IB_MGMT_CLASS_BIS));
        assertTrue(MadHdr.isClassRmpp(0x30));
        assertTrue(MadHdr.isClassRmpp(0x4F));
        assertFalse(MadHdr.isClassRmpp(0x2F));
        assertFalse(MadHdr.isClassRmpp(0x50));
        assertFalse(MadHdr.isClassRmpp(MadHdr.IB_MGMT_CLASS_CM));
        assertFalse(MadHdr.isClassRmpp(MadHdr.IB_MGMT_CLASS_PERF_MGMT));
        assertEquals(256, MadHdr.IB_MGMT_MAD_SIZE);
        assertEquals(MadHdr.IB_MGMT_MAD_SIZE, MadHdr.IB_MGMT_SA_HDR + MadHdr.IB_MGMT_SA_DATA);
        assertEquals(MadHdr.IB_MGMT_MAD_SIZE, MadHdr.IB_MGMT_DEVICE_HDR + MadHdr.IB_MGMT_DEVICE_DATA);
    }

    // ---------------------------------------------------------------- SMP

    @Test
    void directedRouteRequestKnownAnswer() {
        // SubnGet(NodeInfo) along the path 1, 3, 5 as an SM builds it, before any SMI processing:
        //   0: 01 81 01 01                base 1, class 0x81 (DR), class version 1, method Get
        //   4: 00 00 00 03                D 0 | status 0, hop pointer 0, hop count 3 (path length)
        //   8: 00 00 00 01 00 00 00 02    TID
        //  16: 00 11 00 00                NodeInfo, reserved
        //  20: 00 00 00 00                attribute modifier
        //  24: 11 22 ... 88               M_Key
        //  32: ff ff ff ff                DrSLID, DrDLID permissive: purely directed route
        //  36..127: 0                     reserved (cleared from the 0xff background), data
        // 128: 00 01 03 05 00 ...         initial path: [0] unused, then the port at each hop
        // 192..255: 0                     return path, filled in by the switches
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_NODE_INFO, 0, 0x0000000100000002L, 1, 3, 5);
        s.mkey = 0x1122334455667788L;
        byte[] expected = new byte[256];
        System.arraycopy(Hex.bytes("01810101 00000003 00000001 00000002 00110000 00000000"
                + "11223344 55667788 ffffffff"), 0, expected, 0, 36);
        expected[129] = 1;
        expected[130] = 3;
        expected[131] = 5;
        byte[] buf = filled(256, 0xFF);
        assertEquals(256, s.pack(buf, 0));
        assertArrayEquals(expected, buf);
        assertEquals(s, new Smp().unpack(buf, 0));
        assertTrue(s.isDirectedRoute());
        assertFalse(s.direction());
        assertEquals(3, s.hopCnt);
        assertEquals(5, s.initialPort(3));

        // the response as the target SMA returns it: method GetResp, D set, hop pointer 4
        s.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        s.setDirection(true);
        s.hopPtr = 4;
        s.returnPath[1] = 2;
        s.returnPath[2] = 7;
        s.returnPath[3] = 1;
        s.pack(buf, 0);
        assertEquals("01 81 01 81 80 00 04 03", Hex.str(buf, 0, 8));
        assertEquals("00 02 07 01 00", Hex.str(buf, 192, 5));
        assertTrue(new Smp().unpack(buf, 0).direction());
    }

    @Test
    void lidRoutedSmpKnownAnswer() {
        // SubnSet(LinearForwardingTable, block 3) with its data: class 0x01 leaves the DR words 0
        Smp s = Smp.lidRouted(MadHdr.IB_MGMT_METHOD_SET, Smp.IB_SMP_ATTR_LINEAR_FORWARD_TABLE,
                LinearForwardingTable.blockOf(0x00C5), 0x42);
        LinearForwardingTable lft = new LinearForwardingTable();
        lft.ports[0x05] = 9; // LID 0xc5 = 64 * 3 + 5
        s.setData(lft);
        byte[] buf = new byte[256];
        s.pack(buf, 0);
        assertEquals("01 01 01 02 00 00 00 00 00 00 00 00 00 00 00 42 00 19 00 00 00 00 00 03",
                Hex.str(buf, 0, 24));
        assertEquals(9, buf[Smp.IB_SMP_DATA_OFFSET + 5]);
        assertFalse(s.isDirectedRoute());
        assertEquals(lft, new LinearForwardingTable().unpack(new Smp().unpack(buf, 0).data, 0));
    }

    @Test
    void realDirectedRoutePortInfoResponse() {
        byte[] wire = Hex.bytes(REAL_DR_PORT_INFO_RESP);
        assertEquals(256, wire.length);
        Smp s = new Smp().unpack(wire, 0);
        assertEquals(MadHdr.IB_MGMT_BASE_VERSION, s.baseVersion);
        assertEquals(MadHdr.IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, s.mgmtClass);
        assertEquals(Smp.IB_SMP_CLASS_VERSION, s.classVersion);
        assertEquals(MadHdr.IB_MGMT_METHOD_GET_RESP, s.method);
        assertEquals(0x8000, s.status);
        assertTrue(s.direction(), "a response travels back: D set");
        assertEquals(0, s.statusCode());
        assertEquals(0, s.hopPtr, "back at the SM");
        assertEquals(2, s.hopCnt);
        assertEquals(0x00131E1B37D214C3L, s.tid);
        assertEquals(Smp.IB_SMP_ATTR_PORT_INFO, s.attrId);
        assertEquals(0, s.attrMod);
        assertEquals(0, s.mkey);
        assertEquals(Smp.IB_LID_PERMISSIVE, s.drSlid);
        assertEquals(Smp.IB_LID_PERMISSIVE, s.drDlid);
        // out of the SM's port 1, then out of switch port 0x36 = 54
        assertEquals(1, s.initialPort(1));
        assertEquals(54, s.initialPort(2));
        // the switch received it on port 0x35 = 53, the target on port 1
        assertEquals(53, s.returnPort(1));
        assertEquals(1, s.returnPort(2));
        PortInfo pi = new PortInfo().unpack(s.data, 0);
        assertEquals(27251, pi.lid);
        assertEquals(0xA751E848, pi.capabilityMask);
        // re-encoding reproduces the capture bit for bit
        byte[] again = new byte[256];
        s.pack(again, 0);
        assertArrayEquals(wire, again);
    }

    @Test
    void smpHeaderViewMatchesTheCommonHeader() {
        Smp s = new Smp().unpack(Hex.bytes(REAL_DR_PORT_INFO_RESP), 0);
        MadHdr h = s.madHdr();
        assertEquals(0x8000, h.status);
        assertEquals(0x0002, h.classSpecific, "hop pointer 0, hop count 2");
        byte[] buf = new byte[256];
        s.pack(buf, 0);
        assertEquals(h, new MadHdr().unpack(buf, 0));
        assertTrue(h.isResponse());
    }

    @Test
    void directionBitHelpers() {
        Smp s = new Smp();
        s.status = 0x001C;
        assertFalse(s.direction());
        s.setDirection(true);
        assertEquals(0x801C, s.status);
        assertTrue(s.direction());
        assertEquals(0x001C, s.statusCode());
        s.setDirection(false);
        assertEquals(0x001C, s.status);
        assertEquals(Smp.IB_SMP_DIRECTION, 0x8000);
    }

    @Test
    void directedFactoryChecksItsPath() {
        int[] longest = new int[63];
        Arrays.fill(longest, 1);
        assertEquals(63, Smp.directed(1, 0x11, 0, 0, longest).hopCnt);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Smp.directed(1, 0x11, 0, 0, new int[64]));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        e = assertThrows(IllegalArgumentException.class, () -> Smp.directed(1, 0x11, 0, 0, 1, 256));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        assertThrows(IllegalArgumentException.class, () -> Smp.directed(1, 0x11, 0, 0, -1));
        Smp local = Smp.directed(1, 0x11, 0, 0);
        assertEquals(0, local.hopCnt, "an empty path addresses the local node");
        assertEquals(255, Smp.directed(1, 0x11, 0, 0, 255).initialPort(1));
    }

    @Test
    void setDataClearsTheDataAreaAndRejectsLargeAttributes() {
        Smp s = new Smp();
        Arrays.fill(s.data, (byte) 0xEE);
        SmInfo smi = new SmInfo();
        smi.priority = 1;
        s.setData(smi);
        assertEquals(0x10, s.data[20]);
        assertEquals(0, s.data[24], "the remainder of the data area is cleared");
        assertEquals(0, s.data[63]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.setData(new Notice()));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        new Notice().packSmp(s.data, 0); // the SMP form of a Notice fits exactly
        assertThrows(IllegalArgumentException.class, () -> new PerfMgmtMad().setData(new AttributeOfSize(193)));
    }

    /** An attribute of an arbitrary size, for the size checks. */
    private record AttributeOfSize(int size) implements MadAttribute {
        @Override
        public int attrId() {
            return 0xFF00;
        }

        @Override
        public int byteLength() {
            return size;
        }

        @Override
        public int pack(byte[] buf, int off) {
            return size;
        }
    }

    @Test
    void smpCopyIsDeepAndToStringShowsThePath() {
        Smp s = Smp.directed(MadHdr.IB_MGMT_METHOD_GET, Smp.IB_SMP_ATTR_PORT_INFO, 1, 7, 1, 2);
        Smp c = s.copy();
        assertEquals(s, c);
        c.initialPath[1] = 9;
        assertNotEquals(s, c);
        c = s.copy();
        c.data[0] = 1;
        assertNotEquals(s, c);
        c = s.copy();
        c.returnPath[0] = 1;
        assertNotEquals(s, c);
        String str = s.toString();
        assertTrue(str.contains("initialPath=[0,1,2]"), str);
        assertTrue(str.contains("hopCnt=2"), str);
        assertTrue(new MadHdr().toString().startsWith("MadHdr{"));
    }

    // ---------------------------------------------------------------- all codecs: tables and round trips

    @Test
    void everyTableCoversItsLayoutExactlyOnce() {
        for (MadCodecs.Codec<?> c : MadCodecs.all()) {
            MadCodecs.assertCoversOnce(c.name(), c.table(), c.bytes());
        }
        assertEquals(256, Smp.IB_SMP_BYTES);
        assertEquals(40, NodeInfo.BYTES);
        assertEquals(64, PortInfo.BYTES);
        assertEquals(20, SwitchInfo.BYTES);
        assertEquals(24, SmInfo.BYTES);
        assertEquals(8, SlToVlTable.BYTES);
        assertEquals(44, PortCounters.BYTES);
        assertEquals(72, PortCountersExtended.BYTES);
        assertEquals(72, ClassPortInfo.BYTES);
        assertEquals(80, Notice.BYTES);
    }

    @Test
    void attributesReportTheirIdsAndSizes() {
        MadAttribute[] attrs = {new NodeInfo(), new NodeDescription(), new PortInfo(), new SwitchInfo(),
            new LinearForwardingTable(), new MulticastForwardingTable(), new PKeyTable(), new GuidInfo(),
            new SlToVlTable(), new VlArbitrationTable(), new SmInfo(), new Notice(), new PortCounters(),
            new PortCountersExtended(), new ClassPortInfo()};
        int[] ids = {0x0011, 0x0010, 0x0015, 0x0012, 0x0019, 0x001B, 0x0016, 0x0014, 0x0017, 0x0018, 0x0020, 0x0002,
            0x0012, 0x001D, 0x0001};
        for (int i = 0; i < attrs.length; i++) {
            assertEquals(ids[i], attrs[i].attrId(), attrs[i].getClass().getSimpleName());
            byte[] buf = new byte[attrs[i].byteLength() + 1];
            buf[buf.length - 1] = 0x5A;
            assertEquals(attrs[i].byteLength(), attrs[i].pack(buf, 0));
            assertEquals(0x5A, buf[buf.length - 1], "bytes beyond the attribute are left alone");
        }
        assertThrows(IndexOutOfBoundsException.class, () -> new NodeInfo().pack(new byte[39], 0));
    }

    private static final int ITERATIONS = 500;

    private static <T> void roundTrips(MadCodecs.Codec<T> c, Random r) {
        for (int i = 0; i < ITERATIONS; i++) {
            T obj = MadCodecs.randomize(c, c.make().get(), r);
            int off = r.nextInt(5);
            byte[] buf = new byte[off + c.bytes() + 3];
            r.nextBytes(buf);
            byte[] before = buf.clone();
            assertEquals(c.bytes(), c.pack().pack(obj, buf, off), c.name());
            T back = c.unpack().unpack(c.make().get(), buf, off);
            assertEquals(obj, back, c.name());
            assertEquals(obj.hashCode(), back.hashCode(), c.name());
            // bytes outside the layout are untouched; reserved bits inside are zero
            for (int j = 0; j < off; j++) {
                assertEquals(before[j], buf[j], c.name() + ": byte before");
            }
            for (int j = off + c.bytes(); j < buf.length; j++) {
                assertEquals(before[j], buf[j], c.name() + ": byte after");
            }
            byte[] packed = Arrays.copyOfRange(buf, off, off + c.bytes());
            for (IbField<T> f : c.table()) {
                for (int b = 0; f.isReserved() && b < f.sizeBits(); b++) {
                    assertEquals(0, IbPackTest.refBit(packed, f.bitOffset() + b), c.name() + ": reserved " + f);
                }
            }
            // repacking the unpacked value over other garbage gives the same bytes
            byte[] again = new byte[buf.length];
            r.nextBytes(again);
            c.pack().pack(back, again, off);
            assertArrayEquals(Arrays.copyOfRange(buf, off, off + c.bytes()),
                    Arrays.copyOfRange(again, off, off + c.bytes()), c.name());
            if (i < 3) {
                MadCodecs.assertEveryFieldCountsForEquality(c, obj);
            }
        }
    }

    @Test
    void everyCodecRoundTripsRandomValues() {
        Random r = new Random(20240513);
        for (MadCodecs.Codec<?> c : MadCodecs.all()) {
            roundTrips(c, r);
        }
    }

    @Test
    void toStringsNameTheirClass() {
        for (MadCodecs.Codec<?> c : MadCodecs.all()) {
            String s = c.make().get().toString();
            assertTrue(s.startsWith(c.name().replace("(SMP)", "") + "{"), s);
        }
    }
}
