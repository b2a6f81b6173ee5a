package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.RvtPacket;
import org.rdma.verbs.wire.Icrc;

/**
 * Receiving IPv4 datagrams whose ICRC covers an Identification other than 0, as Linux rxe and
 * RoCE NICs send them: UD ones are checked with the Identification recovered from the ICRC, the
 * rest stay ICRC errors.
 */
class Ipv4IdentTest {
    private static final byte[] SRC = {10, 47, 91, 11};
    private static final byte[] DST = {(byte) 239, 77, 3, 1};
    private static final int SPORT = 0xC123;
    private static final int DPORT = RxeWire.ROCE_V2_PORT;

    private final ByteBuffer bb = ByteBuffer.allocateDirect(RxeWire.HEADROOM + RxeWire.MAX_DATAGRAM);
    private final byte[] scratch = new byte[RxeWire.HEADROOM + RvtPacket.MAX_HDR];
    private final Ipv4Ident ident = new Ipv4Ident();

    /**
     * A datagram as Linux sends it: BTH {@code opcode} to QPN 0xFFFFFF (UD: with a DETH),
     * {@code payload} bytes, its ICRC computed over IPv4 header with Identification {@code id}.
     * Returns the UDP payload.
     */
    static byte[] linuxDatagram(int opcode, int payload, int id, SplittableRandom rnd) {
        int hl = RxeWire.headerLength(opcode);
        int n = hl + payload + RxeWire.ICRC;
        byte[] h = new byte[RxeWire.IP4 + RxeWire.UDP + n];
        int at = RxeWire.pseudo4(h, 0, SRC, DST, SPORT, DPORT, n);
        RxeWire.put16(h, Ipv4Ident.FIELD, id);
        h[at] = (byte) opcode;
        h[at + 2] = (byte) 0xFF;
        h[at + 3] = (byte) 0xFF;
        h[at + 5] = (byte) 0xFF;
        h[at + 6] = (byte) 0xFF;
        h[at + 7] = (byte) 0xFF;
        for (int i = at + hl; i < h.length - RxeWire.ICRC; i++) {
            h[i] = (byte) rnd.nextInt();
        }
        Icrc.put(Icrc.computeRoceV2(h, 0, h.length - RxeWire.ICRC), h, h.length - RxeWire.ICRC);
        byte[] udp = new byte[n];
        System.arraycopy(h, at, udp, 0, n);
        return udp;
    }

    private int decode(byte[] udp, RvtPacket r, Ipv4Ident with) {
        bb.clear();
        bb.put(RxeWire.HEADROOM, udp);
        return RxeWire.decode(bb, udp.length, scratch, SRC, SPORT, DST, DPORT, r, with);
    }

    @Test
    void udDatagramsAreCheckedWithTheIdentificationTheirIcrcCovers() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 200; i++) {
            int id = 1 + rnd.nextInt(0xFFFF);
            int len = rnd.nextInt(4097);
            byte[] udp = linuxDatagram(0x64 + (i & 1), len, id, rnd);
            RvtPacket r = new RvtPacket();
            assertEquals(RxeWire.RX_BAD_ICRC, decode(udp, new RvtPacket(), null), "without recovery, an ICRC error");
            assertEquals(RxeWire.RX_OK_IDENT, decode(udp, r, ident), "id " + id + ", " + len + " bytes");
            assertEquals(id, (r.grh[24] & 0xFF) << 8 | r.grh[25] & 0xFF,
                    "the IPv4 header handed up carries the Identification recovered");
            assertEquals(len, r.payloadLength);
        }
        byte[] zero = linuxDatagram(0x64, 100, 0, rnd);
        assertEquals(RxeWire.RX_OK, decode(zero, new RvtPacket(), ident), "Identification 0 needs no recovery");
    }

    @Test
    void corruptedUdDatagramsStayIcrcErrors() {
        SplittableRandom rnd = new SplittableRandom(11);
        int accepted = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] udp = linuxDatagram(0x64, 256, 1 + rnd.nextInt(0xFFFF), rnd);
            int bit = rnd.nextInt((udp.length - RxeWire.ICRC) * 8);
            if (bit / 8 == 4) {
                continue; // BTH byte 4 (FECN, BECN) is masked out of the ICRC
            }
            udp[bit / 8] ^= (byte) (1 << (bit % 8));
            if (decode(udp, new RvtPacket(), ident) != RxeWire.RX_BAD_ICRC) {
                accepted++;
            }
        }
        assertEquals(0, accepted, "a flipped bit is never taken for another Identification");
    }

    @Test
    void otherTransportsAreNotRecovered() {
        SplittableRandom rnd = new SplittableRandom(3);
        // RC SEND_ONLY and UC SEND_ONLY: their peers must answer, which over IPv4 cannot work anyway
        for (int opcode : new int[] {0x04, 0x24}) {
            assertEquals(RxeWire.RX_BAD_ICRC, decode(linuxDatagram(opcode, 64, 0x2a08, rnd), new RvtPacket(), ident));
        }
    }

    /** Through the receive socket: counted as recovered, handed to the transport, no ICRC error. */
    @Test
    void theDeviceTakesLinuxUdDatagrams() throws Exception {
        try (Pair pair = new Pair()) {
            RxeDevice b = pair.db;
            InetAddress lo = InetAddress.getByName("127.0.0.1");
            try (DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET)) {
                ch.bind(new InetSocketAddress(lo, 0));
                int sport = ((InetSocketAddress) ch.getLocalAddress()).getPort();
                int n = RxeWire.headerLength(0x64) + 32 + RxeWire.ICRC;
                byte[] h = new byte[RxeWire.IP4 + RxeWire.UDP + n];
                int at = RxeWire.pseudo4(h, 0, lo.getAddress(), lo.getAddress(), sport, pair.portB, n);
                RxeWire.put16(h, Ipv4Ident.FIELD, 0x5a5b);
                h[at] = 0x64;
                h[at + 2] = (byte) 0xFF;
                h[at + 3] = (byte) 0xFF;
                h[at + 7] = 0x77;
                Icrc.put(Icrc.computeRoceV2(h, 0, h.length - RxeWire.ICRC), h, h.length - RxeWire.ICRC);
                long rx = b.rxPackets();
                ch.send(ByteBuffer.wrap(h, at, n), new InetSocketAddress(lo, pair.portB));
                Pair.await(() -> b.rxPackets() == rx + 1, 5000, "the datagram to reach the transport");
                assertEquals(1, b.rxIdentRecovered());
                assertEquals(0, b.rxCrcErrors());
            }
        }
    }
}
