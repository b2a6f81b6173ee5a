package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact vectors for the performance management class (IBTA vol. 1, 16.1) and ClassPortInfo
 * (13.4.8.1), worked out by hand from the IBTA tables.
 */
class PerfMgmtTest {

    private static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    @Test
    void portCountersRequestKnownAnswer() {
        // PerfMgmtGet(PortCounters) for port 1, as perfquery sends it
        PortCounters req = new PortCounters();
        req.portSelect = 1;
        PerfMgmtMad m = PerfMgmtMad.of(MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_PORT_COUNTERS, 0, 0xDEADBEEFL)
                .setData(req);
        byte[] buf = filled(256, 0xFF);
        assertEquals(256, m.pack(buf, 0));
        byte[] expected = new byte[256];
        System.arraycopy(Hex.bytes(
                "01 04 01 01"                   // base 1, class 0x04 (PerfMgmt), class version 1, Get
                + "00 00 00 00"                 // status, class specific
                + "00 00 00 00 de ad be ef"     // TID
                + "00 12 00 00"                 // PortCounters, reserved
                + "00 00 00 00"), 0, expected, 0, 24);  // attribute modifier
        // bytes 24-63 reserved (cleared), data at 64: rsv 00 | PortSelect 01 | CounterSelect 0000
        expected[65] = 1;
        assertArrayEquals(expected, buf);
        PerfMgmtMad back = new PerfMgmtMad().unpack(buf, 0);
        assertEquals(m, back);
        assertEquals(req, new PortCounters().unpack(back.data, 0));
        assertEquals(PerfMgmtMad.IB_PMA_DATA_OFFSET, MadHdr.dataOffset(MadHdr.IB_MGMT_CLASS_DEVICE_MGMT));
    }

    static PortCounters distinctivePortCounters() {
        PortCounters a = new PortCounters();
        a.portSelect = 1;
        a.counterSelect = 0xFFFF;
        a.symbolErrorCounter = 0xFFFE;
        a.linkErrorRecoveryCounter = 0x12;
        a.linkDownedCounter = 0x34;
        a.portRcvErrors = 0x0102;
        a.portRcvRemotePhysicalErrors = 0x0304;
        a.portRcvSwitchRelayErrors = 0x0506;
        a.portXmitDiscards = 0x0708;
        a.portXmitConstraintErrors = 0x09;
        a.portRcvConstraintErrors = 0x0A;
        a.counterSelect2 = PortCounters.SEL2_PORT_XMIT_WAIT;
        a.localLinkIntegrityErrors = 0xB;
        a.excessiveBufferOverrunErrors = 0xC;
        a.vl15Dropped = 0x0D0E;
        a.portXmitData = 0xFFFFFFFE;
        a.portRcvData = 0x12345678;
        a.portXmitPkts = 0x9ABCDEF0;
        a.portRcvPkts = 1;
        a.portXmitWait = 0x80000000;
        return a;
    }

    @Test
    void portCountersKnownAnswer() {
        PortCounters a = distinctivePortCounters();
        byte[] buf = filled(44, 0xFF);
        assertEquals(44, a.pack(buf, 0));
        assertArrayEquals(Hex.bytes(
                "00 01 ff ff"       //  0: rsv | PortSelect 1 | CounterSelect 0xffff
                + "ff fe 12 34"     //  4: SymbolErrorCounter | LinkErrorRecoveryCounter | LinkDownedCounter
                + "01 02 03 04"     //  8: PortRcvErrors | PortRcvRemotePhysicalErrors
                + "05 06 07 08"     // 12: PortRcvSwitchRelayErrors | PortXmitDiscards
                + "09 0a 01 bc"     // 16: XmitConstraint | RcvConstraint | CounterSelect2 | LocalLinkIntegrity 1011, ExcessiveBufferOverrun 1100
                + "00 00 0d 0e"     // 20: rsv | VL15Dropped
                + "ff ff ff fe"     // 24: PortXmitData
                + "12 34 56 78"     // 28: PortRcvData
                + "9a bc de f0"     // 32: PortXmitPkts
                + "00 00 00 01"     // 36: PortRcvPkts
                + "80 00 00 00"),   // 40: PortXmitWait
                buf, Hex.str(buf));
        PortCounters back = new PortCounters().unpack(buf, 0);
        assertEquals(a, back);
        assertTrue(back.toString().contains("portXmitData=4294967294"), back.toString());
        // the counter select bits are those of include/rdma/ib_pma.h
        assertEquals(0x0001, PortCounters.SEL_SYMBOL_ERROR);
        assertEquals(0x0040, PortCounters.SEL_PORT_XMIT_DISCARDS);
        assertEquals(0x8000, PortCounters.SEL_PORT_RCV_PACKETS);
    }

    @Test
    void portCountersExtendedKnownAnswer() {
        PortCountersExtended a = new PortCountersExtended();
        a.portSelect = PortCounters.PORT_SELECT_ALL;
        a.counterSelect = 0x00FF;
        a.portXmitData = 0x0000000100000002L;
        a.portRcvData = -1L;
        a.portXmitPkts = 0x0123456789ABCDEFL;
        a.portRcvPkts = Long.MIN_VALUE;
        a.portUnicastXmitPkts = 1;
        a.portUnicastRcvPkts = 2;
        a.portMulticastXmitPkts = 3;
        a.portMulticastRcvPkts = 4;
        byte[] buf = filled(72, 0xFF);
        assertEquals(72, a.pack(buf, 0));
        assertArrayEquals(Hex.bytes(
                "00 ff 00 ff"                    //  0: rsv | PortSelect 255 (all) | CounterSelect 0x00ff
                + "00 00 00 00"                  //  4: reserved
                + "00 00 00 01 00 00 00 02"      //  8: PortXmitData
                + "ff ff ff ff ff ff ff ff"      // 16: PortRcvData
                + "01 23 45 67 89 ab cd ef"      // 24: PortXmitPkts
                + "80 00 00 00 00 00 00 00"      // 32: PortRcvPkts
                + "00 00 00 00 00 00 00 01"      // 40: PortUnicastXmitPkts
                + "00 00 00 00 00 00 00 02"      // 48: PortUnicastRcvPkts
                + "00 00 00 00 00 00 00 03"      // 56: PortMulticastXmitPkts
                + "00 00 00 00 00 00 00 04"),    // 64: PortMulticastRcvPkts
                buf);
        PortCountersExtended back = new PortCountersExtended().unpack(buf, 0);
        assertEquals(a, back);
        assertTrue(back.toString().contains("portRcvData=18446744073709551615"), back.toString());
    }

    @Test
    void classPortInfoKnownAnswer() {
        ClassPortInfo a = new ClassPortInfo();
        a.baseVersion = 1;
        a.classVersion = 1;
        a.capabilityMask = PerfMgmtMad.IB_PMA_CLASS_CAP_ALLPORTSELECT | PerfMgmtMad.IB_PMA_CLASS_CAP_EXT_WIDTH
                | PerfMgmtMad.IB_PMA_CLASS_CAP_EXT_WIDTH_NOIETF | PerfMgmtMad.IB_PMA_CLASS_CAP_XMIT_WAIT;
        a.capabilityMask2 = 0x4000001;
        a.respTimeValue = 0x12;
        a.redirectGid = Hex.bytes("fe80 0000 0000 0000 0000 0000 0000 0001");
        a.redirectTc = 0xA0;
        a.redirectSl = 5;
        a.redirectFl = 0x12345;
        a.redirectLid = 0x0010;
        a.redirectPkey = 0xFFFF;
        a.redirectQp = 1;
        a.redirectQkey = MadHdr.IB_QP1_QKEY;
        a.trapGid = Hex.bytes("fe80 0000 0000 0000 0000 0000 0000 0002");
        a.trapTc = 0;
        a.trapSl = 0xF;
        a.trapFl = 0xFFFFF;
        a.trapLid = 1;
        a.trapPkey = 0x7FFF;
        a.trapHl = 0x40;
        a.trapQp = 1;
        a.trapQkey = MadHdr.IB_QP1_QKEY;
        byte[] buf = filled(72, 0xFF);
        assertEquals(72, a.pack(buf, 0));
        assertArrayEquals(Hex.bytes(
                "01 01 17 00"                                 //  0: base 1, class 1, CapabilityMask 0x1700
                + "80 00 00 32"                               //  4: CapabilityMask2 0x4000001 << 5 | RespTimeValue 0x12
                + "fe 80 00 00 00 00 00 00 00 00 00 00 00 00 00 01"  //  8: RedirectGID
                + "a0 51 23 45"                               // 24: RedirectTC 0xa0 | SL 0101 | FL 0x12345
                + "00 10 ff ff"                               // 28: RedirectLID, RedirectP_Key
                + "00 00 00 01"                               // 32: rsv | RedirectQP 1
                + "80 01 00 00"                               // 36: RedirectQ_Key
                + "fe 80 00 00 00 00 00 00 00 00 00 00 00 00 00 02"  // 40: TrapGID
                + "00 ff ff ff"                               // 56: TrapTC 0 | SL 1111 | FL 0xfffff
                + "00 01 7f ff"                               // 60: TrapLID, TrapP_Key
                + "40 00 00 01"                               // 64: TrapHL 0x40 | TrapQP 1
                + "80 01 00 00"),                             // 68: TrapQ_Key
                buf, Hex.str(buf));
        assertEquals(a, new ClassPortInfo().unpack(buf, 0));
    }

    @Test
    void perfMgmtMadEmbedsTheCommonHeader() {
        PerfMgmtMad m = PerfMgmtMad.of(MadHdr.IB_MGMT_METHOD_GET, PerfMgmtMad.IB_PMA_CLASS_PORT_INFO, 0, 9);
        m.setData(new ClassPortInfo());
        byte[] buf = new byte[256];
        m.pack(buf, 0);
        assertEquals(m.madHdr, new MadHdr().unpack(buf, 0));
        assertEquals(PerfMgmtMad.IB_PMA_CLASS_VERSION, m.madHdr.classVersion);
        PerfMgmtMad c = m.copy();
        assertEquals(m, c);
        c.madHdr.tid = 10;
        assertNotEquals(m, c);
        assertEquals(9, m.madHdr.tid, "the copy is deep");
        PerfMgmtMad noHdr = new PerfMgmtMad();
        noHdr.madHdr = null;
        assertEquals(m, noHdr.unpack(buf, 0), "unpack creates a missing header");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Smp().setData(new PortCountersExtended()));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        assertTrue(m.toString().startsWith("PerfMgmtMad{madHdr=MadHdr{"));
    }

    @Test
    void embeddingRequiresWordAlignment() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IbFieldTables.embed(MadHdr.TABLE, (PerfMgmtMad m) -> m.madHdr, 2));
        assertTrue(e.getMessage().startsWith("EINVAL: "));
        assertEquals(MadHdr.TABLE.size(), IbFieldTables.embed(MadHdr.TABLE, (PerfMgmtMad m) -> m.madHdr, 64).size());
    }
}
