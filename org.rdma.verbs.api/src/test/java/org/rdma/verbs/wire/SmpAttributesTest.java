package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.rdma.verbs.PortState;

/**
 * Byte-exact vectors for the SMP attributes (IBTA vol. 1, 14.2.5), worked out by hand from the
 * IBTA tables (bit 0 = most significant bit of the attribute's first byte); the derivation of each
 * byte is written next to it. Each vector is packed over a 0xff background, so reserved bits must
 * come out 0.
 */
class SmpAttributesTest {

    private static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    private static IllegalArgumentException einval(org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        assertTrue(x.getMessage().startsWith("EINVAL: "), x.getMessage());
        return x;
    }

    // ---------------------------------------------------------------- NodeInfo (14.2.5.3)

    @Test
    void nodeInfoKnownAnswer() {
        NodeInfo a = new NodeInfo();
        a.baseVersion = 1;
        a.classVersion = 1;
        a.nodeType = NodeInfo.NODE_TYPE_SWITCH;
        a.numPorts = 36;
        a.sysImageGuid = 0x0002C90300A1B2C3L;
        a.nodeGuid = 0x0002C90300A1B2C4L;
        a.portGuid = 0x0002C90300A1B2C5L;
        a.partitionCap = 128;
        a.deviceId = 0xC738;
        a.revision = 0xA1;
        a.localPortNum = 17;
        a.vendorId = 0x0002C9;
        byte[] expected = Hex.bytes(
                "01 01 02 24"                 // base 1, class 1, type 2 (switch), 36 = 0x24 ports
                + "00 02 c9 03 00 a1 b2 c3"   // SystemImageGUID
                + "00 02 c9 03 00 a1 b2 c4"   // NodeGUID
                + "00 02 c9 03 00 a1 b2 c5"   // PortGUID
                + "00 80 c7 38"               // PartitionCap 128 = 0x0080, DeviceID 0xc738
                + "00 00 00 a1"               // Revision
                + "11 00 02 c9");             // LocalPortNum 17 = 0x11, VendorID 0x0002c9 (Mellanox OUI)
        byte[] buf = filled(40, 0xFF);
        assertEquals(40, a.pack(buf, 0));
        assertArrayEquals(expected, buf);
        assertEquals(a, new NodeInfo().unpack(expected, 0));
    }

    // ---------------------------------------------------------------- NodeDescription (14.2.5.2)

    @Test
    void nodeDescriptionKnownAnswer() {
        NodeDescription a = NodeDescription.of("node1 HCA-1");
        byte[] buf = filled(64, 0xFF);
        assertEquals(64, a.pack(buf, 0));
        // ASCII "node1 HCA-1" then NUL padding to 64 bytes
        byte[] expected = new byte[64];
        System.arraycopy(Hex.bytes("6e 6f 64 65 31 20 48 43 41 2d 31"), 0, expected, 0, 11);
        assertArrayEquals(expected, buf);
        assertEquals("node1 HCA-1", new NodeDescription().unpack(buf, 0).text());
        // UTF-8, as IBTA specifies: U+00FC is c3 bc
        NodeDescription u = NodeDescription.of("sw\u00fc");
        assertEquals("73 77 c3 bc 00", Hex.str(u.nodeString, 0, 5));
        assertEquals("sw\u00fc", u.text());
        // exactly 64 bytes: no terminating NUL
        String full = "x".repeat(64);
        assertEquals(full, NodeDescription.of(full).text());
        einval(() -> NodeDescription.of("x".repeat(65)));
        einval(() -> NodeDescription.of("\u00fc".repeat(33)));
        assertEquals("NodeDescription{\"node1 HCA-1\"}", a.toString());
    }

    // ---------------------------------------------------------------- PortInfo (14.2.5.6)

    static PortInfo distinctivePortInfo() {
        PortInfo a = new PortInfo();
        a.mkey = 0x0102030405060708L;
        a.gidPrefix = 0xFE80000000000000L;
        a.lid = 0x0012;
        a.masterSmLid = 0x0001;
        a.capabilityMask = 0x0251086A;
        a.diagCode = 0xDC01;
        a.mkeyLeasePeriod = 60;
        a.localPortNum = 1;
        a.linkWidthEnabled = 0x0B;
        a.linkWidthSupported = 0x0F;
        a.linkWidthActive = PortInfo.LINK_WIDTH_4X;
        a.linkSpeedSupported = 0x7;
        a.portState = PortInfo.PORT_STATE_ACTIVE;
        a.portPhysState = PortInfo.PHYS_STATE_LINK_UP;
        a.linkDownDefaultState = 2;
        a.mkeyProtectBits = 2;
        a.lmc = 5;
        a.linkSpeedActive = PortInfo.LINK_SPEED_QDR;
        a.linkSpeedEnabled = 0x7;
        a.neighborMtu = PortInfo.MTU_2048;
        a.masterSmSl = 0xB;
        a.vlCap = PortInfo.VL_CAP_VL0_7;
        a.initType = 0x9;
        a.vlHighLimit = 0xA5;
        a.vlArbHighCap = 8;
        a.vlArbLowCap = 16;
        a.initTypeReply = 0x3;
        a.mtuCap = PortInfo.MTU_4096;
        a.vlStallCount = 7;
        a.hoqLife = 0x13;
        a.operationalVls = 4;
        a.partitionEnforcementInbound = true;
        a.partitionEnforcementOutbound = false;
        a.filterRawInbound = true;
        a.filterRawOutbound = true;
        a.mkeyViolations = 0x1111;
        a.pkeyViolations = 0x2222;
        a.qkeyViolations = 0x3333;
        a.guidCap = 32;
        a.clientReregister = true;
        a.mcastPkeyTrapSuppressionEnabled = 2;
        a.subnetTimeout = 18;
        a.respTimeValue = 0x13;
        a.localPhyErrors = 8;
        a.overrunErrors = 6;
        a.maxCreditHint = 0xABCD;
        a.linkRoundTripLatency = 100000;
        a.capabilityMask2 = 0x8421;
        a.linkSpeedExtActive = PortInfo.LINK_SPEED_EXT_EDR;
        a.linkSpeedExtSupported = 0x3;
        a.linkSpeedExtEnabled = 0x1E;
        return a;
    }

    static final String DISTINCTIVE_PORT_INFO =
            "01 02 03 04 05 06 07 08"     //  0: M_Key
            + "fe 80 00 00 00 00 00 00"   //  8: GIDPrefix
            + "00 12 00 01"               // 16: LID 0x12, MasterSMLID 1
            + "02 51 08 6a"               // 20: CapabilityMask
            + "dc 01 00 3c"               // 24: DiagCode 0xdc01, M_KeyLeasePeriod 60 = 0x3c
            + "01 0b 0f 02"               // 28: LocalPortNum 1, LinkWidthEnabled 0x0b, Supported 0x0f, Active 4x = 2
            + "74"                        // 32: LinkSpeedSupported 0111 | PortState 0100 (Active)
            + "52"                        // 33: PortPhysicalState 0101 (LinkUp) | LinkDownDefaultState 0010
            + "85"                        // 34: M_KeyProtectBits 10 | rsv 000 | LMC 101
            + "47"                        // 35: LinkSpeedActive 0100 (QDR) | LinkSpeedEnabled 0111
            + "4b"                        // 36: NeighborMTU 0100 (2048) | MasterSMSL 1011
            + "49"                        // 37: VLCap 0100 (VL0-7) | InitType 1001
            + "a5 08"                     // 38: VLHighLimit 0xa5, 39: VLArbitrationHighCap 8
            + "10"                        // 40: VLArbitrationLowCap 16
            + "35"                        // 41: InitTypeReply 0011 | MTUCap 0101 (4096)
            + "f3"                        // 42: VLStallCount 111 | HOQLife 10011
            + "4b"                        // 43: OperationalVLs 0100 | PEI 1 | PEO 0 | FRI 1 | FRO 1
            + "11 11 22 22"               // 44: M_KeyViolations, P_KeyViolations
            + "33 33"                     // 48: Q_KeyViolations
            + "20"                        // 50: GUIDCap 32
            + "d2"                        // 51: ClientReregister 1 | MCastPKeyTrapSuppr 10 | SubnetTimeOut 10010
            + "13"                        // 52: rsv 000 | RespTimeValue 10011
            + "86"                        // 53: LocalPhyErrors 1000 | OverrunErrors 0110
            + "ab cd"                     // 54: MaxCreditHint
            + "00 01 86 a0"               // 56: rsv 0x00 | LinkRoundTripLatency 100000 = 0x0186a0
            + "84 21"                     // 60: CapabilityMask2
            + "23"                        // 62: LinkSpeedExtActive 0010 (EDR) | LinkSpeedExtSupported 0011
            + "1e";                       // 63: rsv 000 | LinkSpeedExtEnabled 11110

    @Test
    void portInfoKnownAnswer() {
        PortInfo a = distinctivePortInfo();
        byte[] buf = filled(64, 0xFF);
        assertEquals(64, a.pack(buf, 0));
        assertArrayEquals(Hex.bytes(DISTINCTIVE_PORT_INFO), buf, Hex.str(buf));
        assertEquals(a, new PortInfo().unpack(buf, 0));
    }

    @Test
    void portInfoVlCapEncodingAndPortStateRequests() {
        int[] vls = {1, 2, 4, 8, 15};
        for (int i = 0; i < vls.length; i++) {
            assertEquals(PortInfo.VL_CAP_VL0 + i, PortInfo.vlCap(vls[i]));
            assertEquals(vls[i], PortInfo.dataVls(PortInfo.VL_CAP_VL0 + i));
        }
        assertEquals(PortInfo.VL_CAP_VL0_14, PortInfo.vlCap(3), "not a power of two: all VLs");
        assertEquals(-1, PortInfo.dataVls(0));
        assertEquals(-1, PortInfo.dataVls(6));
        for (PortState cur : PortState.values()) {
            assertTrue(PortInfo.portStateRequestValid(PortInfo.PORT_STATE_NOP, cur));
            assertTrue(PortInfo.portStateRequestValid(PortInfo.PORT_STATE_DOWN, cur));
            assertFalse(PortInfo.portStateRequestValid(PortInfo.PORT_STATE_INIT, cur), "Init is never asked for");
            assertFalse(PortInfo.portStateRequestValid(7, cur), "reserved");
            boolean armable = cur == PortState.INIT || cur == PortState.ARMED;
            boolean activatable = cur == PortState.ARMED || cur == PortState.ACTIVE;
            assertEquals(armable, PortInfo.portStateRequestValid(PortInfo.PORT_STATE_ARMED, cur), cur.name());
            assertEquals(activatable, PortInfo.portStateRequestValid(PortInfo.PORT_STATE_ACTIVE, cur), cur.name());
        }
    }

    @Test
    void portInfoAllOnesDecodesToMaximaIgnoringReservedBits() {
        PortInfo a = new PortInfo().unpack(filled(64, 0xFF), 0);
        assertEquals(-1L, a.mkey);
        assertEquals(0xFFFF, a.lid);
        assertEquals(-1, a.capabilityMask);
        assertEquals(15, a.portState);
        assertEquals(3, a.mkeyProtectBits);
        assertEquals(7, a.lmc, "the three reserved bits above LMC are not part of it");
        assertEquals(7, a.vlStallCount);
        assertEquals(31, a.hoqLife);
        assertTrue(a.partitionEnforcementInbound && a.partitionEnforcementOutbound);
        assertTrue(a.filterRawInbound && a.filterRawOutbound && a.clientReregister);
        assertEquals(3, a.mcastPkeyTrapSuppressionEnabled);
        assertEquals(31, a.subnetTimeout);
        assertEquals(31, a.respTimeValue, "the three reserved bits above RespTimeValue are not part of it");
        assertEquals(0xFFFFFF, a.linkRoundTripLatency, "the reserved byte is not part of the latency");
        assertEquals(31, a.linkSpeedExtEnabled);
        byte[] again = new byte[64];
        a.pack(again, 0);
        // only the reserved bits are cleared: byte 34 bits 2-4, byte 52 bits 0-2, byte 56, byte 63 bits 0-2
        byte[] expected = filled(64, 0xFF);
        expected[34] = (byte) 0xC7;
        expected[52] = 0x1F;
        expected[56] = 0;
        expected[63] = 0x1F;
        assertArrayEquals(expected, again);
    }

    @Test
    void portInfoOfARealFabric() {
        // the data area of MadHdrSmpTest.REAL_DR_PORT_INFO_RESP, decoded byte by byte
        byte[] data = Arrays.copyOfRange(Hex.bytes(MadHdrSmpTest.REAL_DR_PORT_INFO_RESP), 64, 128);
        PortInfo a = new PortInfo().unpack(data, 0);
        assertEquals(0, a.mkey);
        assertEquals(0xFE80000000000000L, a.gidPrefix);  //  8: fe80 0000 0000 0000
        assertEquals(0x6A73, a.lid);                      // 16: 6a73 = 27251
        assertEquals(4, a.masterSmLid);                   // 18: 0004
        assertEquals(0xA751E848, a.capabilityMask);       // 20: a751 e848
        assertEquals(0, a.diagCode);                      // 24: 0000
        assertEquals(60, a.mkeyLeasePeriod);              // 26: 003c
        assertEquals(1, a.localPortNum);                  // 28: 01
        assertEquals(0x13, a.linkWidthEnabled);           // 29: 13 = 1x | 4x | 2x
        assertEquals(0x13, a.linkWidthSupported);         // 30: 13
        assertEquals(PortInfo.LINK_WIDTH_4X, a.linkWidthActive);  // 31: 02
        assertEquals(1, a.linkSpeedSupported);            // 32: 14 -> 0001 | 0100
        assertEquals(PortInfo.PORT_STATE_ACTIVE, a.portState);
        assertEquals(PortInfo.PHYS_STATE_LINK_UP, a.portPhysState);  // 33: 52 -> 0101 | 0010
        assertEquals(2, a.linkDownDefaultState);
        assertEquals(0, a.mkeyProtectBits);               // 34: 00
        assertEquals(0, a.lmc);
        assertEquals(0, a.linkSpeedActive, "0: the extended speed applies");  // 35: 01 -> 0000 | 0001
        assertEquals(1, a.linkSpeedEnabled);
        assertEquals(PortInfo.MTU_4096, a.neighborMtu);   // 36: 50 -> 0101 | 0000
        assertEquals(0, a.masterSmSl);
        assertEquals(PortInfo.VL_CAP_VL0_3, a.vlCap);     // 37: 30 -> 0011 | 0000
        assertEquals(0, a.initType);
        assertEquals(0, a.vlHighLimit);                   // 38: 00
        assertEquals(8, a.vlArbHighCap);                  // 39: 08
        assertEquals(8, a.vlArbLowCap);                   // 40: 08
        assertEquals(0, a.initTypeReply);                 // 41: 05 -> 0000 | 0101
        assertEquals(PortInfo.MTU_4096, a.mtuCap);
        assertEquals(0, a.vlStallCount);                  // 42: 00
        assertEquals(0, a.hoqLife);
        assertEquals(3, a.operationalVls);                // 43: 30 -> 0011 | 0 0 0 0
        assertFalse(a.partitionEnforcementInbound || a.partitionEnforcementOutbound);
        assertFalse(a.filterRawInbound || a.filterRawOutbound);
        assertEquals(0, a.mkeyViolations);                // 44: 0000
        assertEquals(0, a.pkeyViolations);                // 46: 0000
        assertEquals(0, a.qkeyViolations);                // 48: 0000
        assertEquals(8, a.guidCap);                       // 50: 08
        assertFalse(a.clientReregister);                  // 51: 64 -> 0 | 11 | 00100
        assertEquals(3, a.mcastPkeyTrapSuppressionEnabled);
        assertEquals(4, a.subnetTimeout);
        assertEquals(16, a.respTimeValue);                // 52: 10 -> 000 | 10000
        assertEquals(8, a.localPhyErrors);                // 53: 88 -> 1000 | 1000
        assertEquals(8, a.overrunErrors);
        assertEquals(0, a.maxCreditHint);                 // 54: 0000
        assertEquals(110, a.linkRoundTripLatency);        // 56: 00 | 00006e
        assertEquals(0x0432, a.capabilityMask2);          // 60: 0432
        assertEquals(PortInfo.LINK_SPEED_EXT_NDR, a.linkSpeedExtActive);  // 62: 8f -> 1000 | 1111
        assertEquals(0xF, a.linkSpeedExtSupported);
        assertEquals(0xF, a.linkSpeedExtEnabled);         // 63: 0f -> 000 | 01111
        byte[] again = new byte[64];
        a.pack(again, 0);
        assertArrayEquals(data, again);
    }

    // ---------------------------------------------------------------- SwitchInfo (14.2.5.4)

    @Test
    void switchInfoKnownAnswer() {
        SwitchInfo a = new SwitchInfo();
        a.linearFdbCap = 0xC000;
        a.randomFdbCap = 0;
        a.mcastFdbCap = 0x1000;
        a.linearFdbTop = 0x00A4;
        a.defaultPort = 5;
        a.defaultMcastPrimaryPort = 0xFF;
        a.defaultMcastNotPrimaryPort = 3;
        a.lifeTimeValue = 0x13;
        a.portStateChange = true;
        a.optimizedSlToVlMappingProgramming = 2;
        a.lidsPerPort = 1;
        a.partitionEnforcementCap = 32;
        a.inboundEnforcementCap = true;
        a.outboundEnforcementCap = false;
        a.filterRawInboundCap = true;
        a.filterRawOutboundCap = false;
        a.enhancedPort0 = true;
        a.mcastFdbTop = 0xC3FF;
        byte[] expected = Hex.bytes(
                "c0 00 00 00"      // LinearFDBCap 49152, RandomFDBCap 0
                + "10 00 00 a4"    // MulticastFDBCap 4096, LinearFDBTop 0xa4
                + "05 ff 03"       // DefaultPort 5, DefaultMulticastPrimaryPort 255, NotPrimary 3
                + "9e"             // LifeTimeValue 10011 | PortStateChange 1 | OptimizedSLtoVL 10
                + "00 01 00 20"    // LIDsPerPort 1, PartitionEnforcementCap 32
                + "a8"             // InboundEnf 1 | OutboundEnf 0 | FilterRawIn 1 | FilterRawOut 0 | EnhancedPort0 1 | rsv 000
                + "00"             // reserved
                + "c3 ff");        // MulticastFDBTop
        byte[] buf = filled(20, 0xFF);
        assertEquals(20, a.pack(buf, 0));
        assertArrayEquals(expected, buf);
        assertEquals(a, new SwitchInfo().unpack(expected, 0));
        SwitchInfo ones = new SwitchInfo().unpack(filled(20, 0xFF), 0);
        assertEquals(31, ones.lifeTimeValue);
        assertTrue(ones.portStateChange && ones.enhancedPort0);
        assertEquals(3, ones.optimizedSlToVlMappingProgramming);
    }

    // ---------------------------------------------------------------- forwarding tables

    @Test
    void linearForwardingTableKnownAnswer() {
        LinearForwardingTable a = new LinearForwardingTable();
        for (int i = 0; i < 63; i++) {
            a.ports[i] = i + 1;
        }
        a.ports[63] = LinearForwardingTable.IB_LFT_NO_PATH;
        byte[] buf = new byte[64];
        assertEquals(64, a.pack(buf, 0));
        // one byte per LID: LID 64b + i -> byte i
        assertEquals("01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10", Hex.str(buf, 0, 16));
        assertEquals("31 32 33 34 35 36 37 38 39 3a 3b 3c 3d 3e 3f ff", Hex.str(buf, 48, 16));
        assertEquals(a, new LinearForwardingTable().unpack(buf, 0));
        assertEquals(0, LinearForwardingTable.blockOf(63));
        assertEquals(1, LinearForwardingTable.blockOf(64));
        assertEquals(3, LinearForwardingTable.blockOf(0xC5));
        assertEquals(767, LinearForwardingTable.blockOf(0xBFFF));
    }

    @Test
    void multicastForwardingTableKnownAnswer() {
        MulticastForwardingTable a = new MulticastForwardingTable();
        for (int i = 0; i < 32; i++) {
            a.portMasks[i] = i << 8 | (0xFF - i);
        }
        byte[] buf = new byte[64];
        assertEquals(64, a.pack(buf, 0));
        // two bytes per MLID, big-endian: entry i = i << 8 | 0xff - i
        assertEquals("00 ff 01 fe 02 fd 03 fc 04 fb 05 fa 06 f9 07 f8", Hex.str(buf, 0, 16));
        assertEquals("18 e7 19 e6 1a e5 1b e4 1c e3 1d e2 1e e1 1f e0", Hex.str(buf, 48, 16));
        assertEquals(a, new MulticastForwardingTable().unpack(buf, 0));
        // attribute modifier: Position in bits 31-28, block number in bits 8-0
        assertEquals(0x20000005, MulticastForwardingTable.attrMod(2, 5));
        assertEquals(0xF00001FF, MulticastForwardingTable.attrMod(15, 511));
        assertEquals(15, MulticastForwardingTable.position(0xF00001FF));
        assertEquals(511, MulticastForwardingTable.block(0xF00001FF));
        assertEquals(0, MulticastForwardingTable.blockOf(0xC000));
        assertEquals(1, MulticastForwardingTable.blockOf(0xC025));
        assertEquals(511, MulticastForwardingTable.blockOf(0xFFFF));
        einval(() -> MulticastForwardingTable.attrMod(16, 0));
        einval(() -> MulticastForwardingTable.attrMod(-1, 0));
        einval(() -> MulticastForwardingTable.attrMod(0, 512));
        einval(() -> MulticastForwardingTable.attrMod(0, -1));
        einval(() -> MulticastForwardingTable.blockOf(0xBFFF));
        einval(() -> MulticastForwardingTable.blockOf(0x10000));
    }

    // ---------------------------------------------------------------- P_Key table, GUIDInfo

    @Test
    void pkeyTableKnownAnswer() {
        PKeyTable a = new PKeyTable();
        a.pkeys[0] = PKeyTable.IB_DEFAULT_PKEY_FULL;
        a.pkeys[1] = PKeyTable.IB_DEFAULT_PKEY_PARTIAL;
        a.pkeys[2] = PKeyTable.IB_PKEY_FULL_MEMBER | 1;
        a.pkeys[31] = 0x1234;
        byte[] buf = filled(64, 0xEE);
        assertEquals(64, a.pack(buf, 0));
        byte[] expected = new byte[64];
        System.arraycopy(Hex.bytes("ff ff 7f ff 80 01"), 0, expected, 0, 6); // entries 0, 1, 2
        expected[62] = 0x12;                                                    // entry 31 at byte 62
        expected[63] = 0x34;
        assertArrayEquals(expected, buf);
        assertEquals(a, new PKeyTable().unpack(buf, 0));
        assertEquals(0x00030002, PKeyTable.attrMod(3, 2));
        assertEquals(0xFFFFFFFF, PKeyTable.attrMod(0xFFFF, 0xFFFF));
        einval(() -> PKeyTable.attrMod(0x10000, 0));
        einval(() -> PKeyTable.attrMod(0, 0x10000));
        einval(() -> PKeyTable.attrMod(-1, 0));
    }

    @Test
    void guidInfoKnownAnswer() {
        GuidInfo a = new GuidInfo();
        a.guids[0] = 0x0002C90300A1B2C5L;
        a.guids[1] = 0x0202C90300A1B2C5L;
        a.guids[7] = -1L;
        byte[] buf = filled(64, 0xEE);
        assertEquals(64, a.pack(buf, 0));
        assertEquals("00 02 c9 03 00 a1 b2 c5 02 02 c9 03 00 a1 b2 c5 00 00 00 00 00 00 00 00", Hex.str(buf, 0, 24));
        assertEquals("ff ff ff ff ff ff ff ff", Hex.str(buf, 56, 8)); // GUID 7 at byte 56
        assertEquals(a, new GuidInfo().unpack(buf, 0));
    }

    // ---------------------------------------------------------------- SL2VL, VL arbitration

    @Test
    void slToVlTableKnownAnswer() {
        SlToVlTable a = new SlToVlTable();
        int[] vls = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 15};
        a.vls = vls.clone();
        byte[] buf = filled(8, 0xFF);
        assertEquals(8, a.pack(buf, 0));
        // SL 2k in the high nibble, SL 2k+1 in the low nibble of byte k
        assertArrayEquals(Hex.bytes("01 23 45 67 01 23 45 6f"), buf);
        assertEquals(a, new SlToVlTable().unpack(buf, 0));
        assertEquals(0x0509, SlToVlTable.attrMod(5, 9));
        einval(() -> SlToVlTable.attrMod(256, 0));
        einval(() -> SlToVlTable.attrMod(0, 256));
    }

    @Test
    void vlArbitrationTableKnownAnswer() {
        VlArbitrationTable a = new VlArbitrationTable();
        for (int i = 0; i < 32; i++) {
            a.vls[i] = i % 16;
            a.weights[i] = 0x40 + i;
        }
        byte[] buf = filled(64, 0xFF);
        assertEquals(64, a.pack(buf, 0));
        // entry i = rsv 0000 | VL (i mod 16) ; weight 0x40 + i -- the reserved nibble is cleared
        assertEquals("00 40 01 41 02 42 03 43 04 44 05 45 06 46 07 47", Hex.str(buf, 0, 16));
        assertEquals("0e 4e 0f 4f 00 50 01 51", Hex.str(buf, 28, 8));
        assertEquals("0f 5f", Hex.str(buf, 62, 2));
        assertEquals(a, new VlArbitrationTable().unpack(buf, 0));
        VlArbitrationTable ones = new VlArbitrationTable().unpack(filled(64, 0xFF), 0);
        assertEquals(15, ones.vls[0], "the reserved high nibble is not part of the VL");
        assertEquals(255, ones.weights[31]);
        assertEquals(3, VlArbitrationTable.attrMod(0, VlArbitrationTable.HIGH_0_31));
        assertEquals(0x00070002, VlArbitrationTable.attrMod(7, VlArbitrationTable.LOW_32_63));
        einval(() -> VlArbitrationTable.attrMod(0, 0));
        einval(() -> VlArbitrationTable.attrMod(0, 5));
        einval(() -> VlArbitrationTable.attrMod(0x10000, 1));
    }

    // ---------------------------------------------------------------- SMInfo (14.2.5.13)

    @Test
    void smInfoKnownAnswer() {
        SmInfo a = new SmInfo();
        a.guid = 0x0002C90300A1B2C5L;
        a.smKey = 0x1122334455667788L;
        a.actCount = 0xDEADBEEF;
        a.priority = 0xE;
        a.smState = SmInfo.SM_STATE_MASTER;
        byte[] buf = filled(24, 0xFF);
        assertEquals(24, a.pack(buf, 0));
        assertArrayEquals(Hex.bytes(
                "00 02 c9 03 00 a1 b2 c5"     // GUID
                + "11 22 33 44 55 66 77 88"   // SM_Key
                + "de ad be ef"               // ActCount
                + "e3"                        // Priority 1110 | SMState 0011 (master)
                + "00 00 00"), buf);          // padding
        SmInfo back = new SmInfo().unpack(buf, 0);
        assertEquals(a, back);
        assertTrue(back.toString().contains("actCount=3735928559"), back.toString());
    }

    // ---------------------------------------------------------------- Notice (13.4.8.2)

    @Test
    void noticeKnownAnswer() {
        // trap 128 (link state change) from switch LID 7: urgent, generic, producer type switch
        Notice a = Notice.generic(Notice.TYPE_URGENT, Notice.PROD_SWITCH, Notice.TRAP_LINK_STATE_CHANGE, 0x0007);
        a.noticeToggle = true;
        a.noticeCount = 5;
        a.dataDetails[1] = 0x07; // trap 128 details: LIDADDR 0x0007 in the first two bytes
        a.issuerGid = Hex.bytes("fe80 0000 0000 0000 0002 c903 00a1 b2c5");
        byte[] expected = new byte[80];
        System.arraycopy(Hex.bytes(
                "81"                  // IsGeneric 1 | Type 0000001 (urgent)
                + "00 00 02"          // ProducerType 2 (switch)
                + "00 80"             // TrapNumber 128
                + "00 07"             // IssuerLID
                + "80 05"             // NoticeToggle 1 | NoticeCount 000000000000101
                + "00 07"), 0, expected, 0, 12);  // DataDetails[0..1]
        System.arraycopy(a.issuerGid, 0, expected, 64, 16);  // IssuerGID after the 54 detail bytes
        byte[] buf = filled(80, 0xFF);
        assertEquals(80, a.pack(buf, 0));
        assertArrayEquals(expected, buf);
        assertEquals(a, new Notice().unpack(buf, 0));

        // in an SMP only the first 64 bytes travel
        byte[] smp = filled(80, 0xFF);
        assertEquals(64, a.packSmp(smp, 0));
        assertArrayEquals(Arrays.copyOf(expected, 64), Arrays.copyOf(smp, 64));
        assertEquals((byte) 0xFF, smp[64], "the IssuerGID is not written");
        Notice fromSmp = new Notice().unpackSmp(smp, 0);
        assertArrayEquals(new byte[16], fromSmp.issuerGid, "the IssuerGID is not read");
        fromSmp.issuerGid = a.issuerGid.clone();
        assertEquals(a, fromSmp);
    }

    @Test
    void vendorNoticeFieldsShareTheGenericPositions() {
        // vendor specific: IsGeneric 0, VendorID in place of ProducerType, DeviceID in place of TrapNumber
        Notice v = new Notice().unpack(Hex.bytes("04 00 02 c9 c7 38 00 01 7f ff" + "00".repeat(70)), 0);
        assertFalse(v.isGeneric);
        assertEquals(Notice.TYPE_INFO, v.type);
        assertEquals(0x0002C9, v.producerTypeOrVendorId);
        assertEquals(0xC738, v.trapNumberOrDeviceId);
        assertEquals(1, v.issuerLid);
        assertFalse(v.noticeToggle);
        assertEquals(0x7FFF, v.noticeCount);
        assertTrue(v.toString().contains("trapNumberOrDeviceId=51000"), v.toString());
    }
}
