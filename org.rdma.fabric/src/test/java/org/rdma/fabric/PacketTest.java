package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.Vcrc;

/** The packet contract: header helpers, the CRC engines, ownership. */
class PacketTest {

    /** A port stand-in that only hands out standalone packets. */
    private static FabricPort fakePort(LinkLayer ll) {
        return (FabricPort) java.lang.reflect.Proxy.newProxyInstance(PacketTest.class.getClassLoader(),
                new Class<?>[] {EthernetPort.class}, (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "allocPacket":
                            return new Packet(ll);
                        case "macAddress":
                            return MacAddress.parse("02:00:00:00:00:01");
                        default:
                            throw new UnsupportedOperationException(m.getName());
                    }
                });
    }

    private static Packet ibPacket(int len) {
        ByteBuffer mr = ByteBuffer.allocate(len + 10);
        for (int i = 0; i < mr.capacity(); i++) {
            mr.put(i, (byte) (31 * i + 1));
        }
        return Pkts.ud(fakePort(LinkLayer.INFINIBAND), 2, 4, 0x123, 0x456, 0xABCDEF, 0x654321, mr, 5, len);
    }

    @Test
    void headerHelpersReadTheLrhAndBth() {
        Packet p = ibPacket(13);
        assertEquals(LinkLayer.INFINIBAND, p.linkLayer());
        assertEquals(2, p.vl());
        assertEquals(4, p.sl());
        assertEquals(Lrh.LNH_IBA_LOCAL, p.lnh());
        assertEquals(0x123, p.dlid());
        assertEquals(0x456, p.slid());
        assertEquals((28 + 13 + 3 + 4) / 4, p.lrhPacketLength());
        int bth = p.bthOffset();
        assertEquals(8, bth);
        assertEquals(0x64, p.opcode(bth));
        assertEquals(3, p.bthPadCount(bth));
        assertEquals(0xFFFF, p.pkey(bth));
        assertEquals(0xABCDEF, p.destQpn(bth));
        assertEquals(0x654321, p.psn(bth));
        assertEquals(0x11111111, p.u32(20));
        assertTrue(p.hasIcrc());
        assertEquals(28 + 13 + 3 + 4 + 2, p.wireLength());
        p.setVl(7);
        assertEquals(7, p.vl());
        assertEquals(4, p.sl());
    }

    @Test
    void materializeLaysOutTheWireBytesWithIcrcAndVcrc() {
        Packet p = ibPacket(13);
        int len = p.materialize();
        assertEquals(28 + 13 + 3 + 4 + 2, len);
        byte[] f = p.frame();
        assertTrue(Vcrc.verify(f, 0, len));
        assertTrue(Icrc.verifyIb(f, 0, len - 2));
        assertTrue(p.verifyCrcs());
        // The payload now lives in the frame: the sender's buffer may change.
        assertTrue(p.ownsPayload());
        for (int i = 0; i < 13; i++) {
            assertEquals((byte) (31 * (5 + i) + 1), f[28 + i]);
        }
        assertEquals(0, f[28 + 13]);
        // The ICRC does not cover the VL, the VCRC does.
        p.frame()[0] ^= (byte) 0x10;
        assertFalse(p.verifyCrcs());
        p.frame()[0] ^= (byte) 0x10;
        assertTrue(p.verifyCrcs());
    }

    @Test
    void everySingleBitFlipIsDetectedOnInfiniBand() {
        Packet p = ibPacket(9);
        int bits = p.corruptibleBits();
        assertEquals((28 + 9 + 3 + 4 + 2) * 8, bits);
        for (int bit = 0; bit < bits; bit++) {
            p.flipBit(bit);
            assertFalse(p.verifyCrcs(), "bit " + bit);
            p.flipBit(bit);
            assertTrue(p.verifyCrcs(), "bit " + bit + " restored");
        }
    }

    @Test
    void everySingleBitFlipIsDetectedOnRoce() throws Exception {
        EthernetPort port = (EthernetPort) fakePort(LinkLayer.ETHERNET);
        for (InetAddress[] ips : new InetAddress[][] {
                {InetAddress.getByName("10.0.0.1"), InetAddress.getByName("10.0.0.2")},
                {InetAddress.getByName("fd00::1"), InetAddress.getByName("fd00::2")}}) {
            ByteBuffer mr = ByteBuffer.wrap(new byte[] {9, 8, 7, 6, 5});
            Packet p = Pkts.roce(port, MacAddress.parse("02:00:00:00:00:02"), ips[0], ips[1], 0x11, 3, mr, 0, 5);
            assertTrue(p.isRoce());
            assertTrue(p.hasIcrc());
            int bth = p.bthOffset();
            assertEquals(ips[0].getAddress().length == 4 ? 14 + 20 + 8 : 14 + 40 + 8, bth);
            assertEquals(0x11, p.destQpn(bth));
            int len = p.materialize();
            int l3 = 14;
            assertTrue(Icrc.verifyRoceV2(p.frame(), l3, len - l3));
            for (int bit = 0; bit < p.corruptibleBits(); bit++) {
                p.flipBit(bit);
                assertFalse(p.verifyCrcs(), "bit " + bit);
                p.flipBit(bit);
            }
            assertTrue(p.verifyCrcs());
        }
    }

    @Test
    void shortEthernetFramesArePaddedTo60() {
        Packet p = new Packet(LinkLayer.ETHERNET);
        MacAddress.BROADCAST.writeTo(p.header, 0);
        MacAddress.parse("02:00:00:00:00:01").writeTo(p.header, 6);
        p.header[12] = 0x08;
        p.header[13] = 0x06;
        p.headerLength = 42;
        assertFalse(p.hasIcrc());
        assertEquals(60, p.materialize());
        assertEquals(0x0806, p.etherType());
        assertEquals(-1, p.bthOffset());
        assertTrue(p.verifyCrcs());
    }

    @Test
    void retainPayloadCopiesTheSendersMemory() {
        ByteBuffer mr = ByteBuffer.allocateDirect(8);
        mr.put(0, (byte) 42);
        Packet p = Pkts.ud(fakePort(LinkLayer.INFINIBAND), 0, 0, 1, 2, 3, 4, mr, 0, 8);
        assertSame(mr, p.payload);
        assertFalse(p.ownsPayload());
        p.retainPayload();
        assertNotSame(mr, p.payload);
        mr.put(0, (byte) 0);
        assertEquals(42, p.payload.get(p.payloadOffset));
        assertEquals(42, p.byteAt(28));
        byte[] all = new byte[28 + 8];
        p.readBytes(0, all, 0, all.length);
        assertEquals(42, all[28]);
        Packet copy = new Packet(LinkLayer.INFINIBAND).copyFrom(p);
        assertTrue(copy.ownsPayload());
        assertEquals(42, copy.payload.get(copy.payloadOffset));
        assertArrayEquals(java.util.Arrays.copyOf(p.header, 28), java.util.Arrays.copyOf(copy.header, 28));
    }

    @Test
    void referenceCountingReturnsPacketsToTheirPool() {
        List<Packet> pool = new ArrayList<>();
        Packet p = new Packet(LinkLayer.INFINIBAND, pool::add);
        p.headerLength = 8;
        p.payload = ByteBuffer.allocate(1);
        p.retain();
        p.release();
        assertTrue(pool.isEmpty());
        p.release();
        assertEquals(List.of(p), pool);
        assertEquals(0, p.headerLength);
        assertEquals(null, p.payload);
        assertThrows(IllegalStateException.class, p::release);
        assertThrows(IllegalStateException.class, p::retain);
        assertSame(p, p.reuse());
        assertEquals(1, p.refCount());
        assertThrows(IllegalStateException.class, p::reuse);
    }

    @Test
    void macAddressEui64RoundTrip() {
        MacAddress m = MacAddress.parse("00:02:c9:a1:b2:c3");
        assertEquals(0x0202c9fffea1b2c3L, m.toEui64());
        assertEquals(m, MacAddress.fromEui64(m.toEui64()));
        assertEquals("fe80:0:0:0:202:c9ff:fea1:b2c3", m.linkLocalIpv6().getHostAddress().replaceAll("%.*", ""));
        assertTrue(MacAddress.BROADCAST.isMulticast());
        assertFalse(m.isMulticast());
    }
}
