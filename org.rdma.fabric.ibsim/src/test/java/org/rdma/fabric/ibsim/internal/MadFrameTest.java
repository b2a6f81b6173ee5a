package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.Packet;
import org.rdma.fabric.ibsim.SimRequest;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.wire.Bth;
import org.rdma.verbs.wire.IbUdHeader;

/** UD packets on the cable versus sim_request frames, checked against the LRH/BTH/DETH bytes of IBTA 5.4, 9.2, 9.3.3. */
class MadFrameTest {
    private static final HexFormat HEX = HexFormat.of();

    static byte[] mad(int cls) {
        byte[] m = new byte[256];
        m[0] = 1;
        m[1] = (byte) cls;
        m[2] = 1;
        m[3] = 1;
        m[255] = 0x5A;
        return m;
    }

    @Test
    void gsiFrameBecomesAVl0UdSendWithTheQp1Qkey() {
        Packet p = new Packet(LinkLayer.INFINIBAND);
        MadFrame.toPacket(SimRequest.of(3, 1, 1, 1, mad(3)), p);
        assertEquals(""
                + "00" + "02" + "0003" + "0048" + "0001"      // LRH: VL0, SL0, LNH local; DLID 3; 72 words; SLID 1
                + "64" + "00" + "ffff" + "00000001" + "00000000" // BTH: UD SEND_ONLY, pad 0, P_Key, DestQP 1, PSN 0
                + "80010000" + "00000001",                     // DETH: Q_Key 0x80010000, SrcQP 1
                HEX.formatHex(p.header, 0, p.headerLength));
        assertEquals(256, p.payloadLength);
        assertEquals(0, p.padCount);
    }

    @Test
    void smiFrameTravelsOnVl15WithQkeyZero() {
        Packet p = new Packet(LinkLayer.INFINIBAND);
        MadFrame.toPacket(SimRequest.of(0xFFFF, 0xFFFF, 0, 0, mad(0x81)), p);
        assertEquals("f002ffff0048ffff" + "6400ffff0000000000000000" + "0000000000000000",
                HEX.formatHex(p.header, 0, p.headerLength));
    }

    @Test
    void packetBecomesAFrameWithLidsQpsAndMad() {
        Packet p = new Packet(LinkLayer.INFINIBAND);
        MadFrame.build(p, 0, 1, 5, 1, 0x80010000, 1, mad(3));
        SimRequest r = MadFrame.toFrame(p);
        assertEquals(1, r.dlid);
        assertEquals(5, r.slid);
        assertEquals(1, r.dqp);
        assertEquals(1, r.sqp);
        assertEquals(256, r.length);
        assertArrayEquals(mad(3), r.mad);
    }

    @Test
    void aGrhIsDroppedBecauseIbsimRoutesByLid() {
        IbUdHeader h = new IbUdHeader().init(256, true, false, false, true, 0, false, false);
        h.lrh.dlid = 1;
        h.lrh.slid = 5;
        h.grh.sgid[15] = 2;
        h.grh.dgid[15] = 3;
        h.bth.pkey = 0xFFFF;
        h.bth.destQpn = 1;
        h.deth.qkey = 0x80010000;
        h.deth.srcQpn = 1;
        Packet p = new Packet(LinkLayer.INFINIBAND);
        p.headerLength = h.pack(p.header, 0);
        p.payload = ByteBuffer.wrap(mad(3));
        p.payloadLength = 256;
        SimRequest r = MadFrame.toFrame(p);
        assertEquals(1, r.dlid);
        assertArrayEquals(mad(3), r.mad);
    }

    @Test
    void nonMadPacketsAreRefused() {
        Packet shortMad = new Packet(LinkLayer.INFINIBAND);
        MadFrame.build(shortMad, 0, 1, 5, 1, 0, 1, new byte[200]);
        assertThrows(IllegalArgumentException.class, () -> MadFrame.toFrame(shortMad));
        Packet rc = new Packet(LinkLayer.INFINIBAND);
        MadFrame.build(rc, 0, 1, 5, 1, 0, 1, mad(3));
        rc.header[8] = (byte) Bth.OPCODE_RC;
        assertThrows(IllegalArgumentException.class, () -> MadFrame.toFrame(rc));
        Packet imm = new Packet(LinkLayer.INFINIBAND);
        MadFrame.build(imm, 0, 1, 5, 1, 0, 1, mad(3));
        imm.header[8] = (byte) Bth.OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE;
        assertThrows(IllegalArgumentException.class, () -> MadFrame.toFrame(imm));
    }

    @Test
    void aFrameWhoseQpNumbersExceed24BitsIsRefused() {
        Packet p = new Packet(LinkLayer.INFINIBAND);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MadFrame.toPacket(SimRequest.of(3, 1, 0x0100_0000, 1, mad(0x81)), p));
        assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
    }
}
