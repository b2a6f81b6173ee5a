package org.rdma.hca.rxe.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.RvtPacket;
import org.rdma.rvt.internal.wire.Hdr;
import org.rdma.rvt.internal.wire.Opcodes;
import org.rdma.verbs.fuzz.FuzzSeeds;
import org.rdma.verbs.wire.Icrc;

/**
 * Fuzzing of rxe's datagram receive ({@link RxeWire#decode}, what the receive thread runs on every
 * UDP payload before the transport sees it): the length checks, the ICRC over the pseudo IP/UDP
 * header, the split of transport headers, payload and pad by the opcode. Every verdict must be
 * one of the three the receive thread counts; a packet it lets through must describe exactly the
 * datagram's bytes and survive a round trip through {@link RxeWire#encode}, the transmit path.
 *
 * <p>Input: {@code [flags][UDP payload]}; flags bit 0 chooses IPv4 (else IPv6), bit 1 rewrites the
 * last four bytes with the right ICRC, so the fuzzer reaches the parsing behind the check.
 */
class DatagramFuzzTest {
    private static final byte[] SRC4 = {127, 0, 0, 1};
    private static final byte[] DST4 = {127, 0, 0, 2};
    private static final byte[] SRC6 = ip6(1);
    private static final byte[] DST6 = ip6(2);
    private static final int SPORT = 0xC123;
    private static final int DPORT = RxeWire.ROCE_V2_PORT;

    private final ByteBuffer bb = ByteBuffer.allocateDirect(RxeWire.HEADROOM + RxeWire.MAX_DATAGRAM);
    private final byte[] scratch = new byte[RxeWire.HEADROOM + RvtPacket.MAX_HDR];
    private final Ipv4Ident ident = new Ipv4Ident();

    @FuzzTest
    void datagram(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean v4 = (input[0] & 1) != 0;
        byte[] src = v4 ? SRC4 : SRC6;
        byte[] dst = v4 ? DST4 : DST6;
        byte[] udp = Arrays.copyOfRange(input, 1, Math.min(input.length, 1 + bb.capacity() - RxeWire.HEADROOM));
        int n = udp.length;
        bb.clear();
        bb.put(RxeWire.HEADROOM, udp);
        if ((input[0] & 2) != 0 && n >= RxeWire.ICRC && RxeWire.HEADROOM + n < bb.capacity()) {
            fixIcrc(n, src, dst);
        }
        RvtPacket r = new RvtPacket();
        int verdict = RxeWire.decode(bb, n, scratch, src, SPORT, dst, DPORT, r, ident);
        assertTrue(verdict == RxeWire.RX_OK || verdict == RxeWire.RX_OK_IDENT || verdict == RxeWire.RX_MALFORMED
                || verdict == RxeWire.RX_BAD_ICRC, "verdict " + verdict);
        if (verdict != RxeWire.RX_OK && verdict != RxeWire.RX_OK_IDENT) {
            return;
        }
        int hl = r.hdrLen;
        assertEquals(RxeWire.headerLength(r.hdr[0]), hl);
        assertTrue(hl >= RxeWire.BTH && hl <= RvtPacket.MAX_HDR);
        assertArrayEquals(Arrays.copyOf(udp, hl), Arrays.copyOf(r.hdr, hl));
        assertEquals(RxeWire.HEADROOM + hl, r.payloadOffset);
        assertEquals(n, hl + r.payloadLength + r.padCount + RxeWire.ICRC, "header, payload, pad and ICRC fill the datagram");
        assertEquals(r.payloadLength > 0, r.payload != null);
        assertEquals(v4 ? 2 : 3, r.networkHdrType);
        assertTrue(r.hasGrh);

        // the transmit path makes a datagram of the same packet, which decodes to the same packet
        RvtPacket again = new RvtPacket();
        byte[] payload = new byte[r.payloadLength];
        if (r.payloadLength > 0) {
            r.payload.get(r.payloadOffset, payload);
        }
        r.payload = ByteBuffer.wrap(payload);
        r.payloadOffset = 0;
        ByteBuffer out = ByteBuffer.allocate(RxeWire.HEADROOM + RxeWire.MAX_DATAGRAM);
        assertEquals(RxeWire.HEADROOM, RxeWire.encode(r, new byte[scratch.length], out, src, dst, SPORT, DPORT));
        assertEquals(RxeWire.RX_OK, RxeWire.decode(out, n, new byte[scratch.length], src, SPORT, dst, DPORT, again, null));
        assertArrayEquals(Arrays.copyOf(r.hdr, hl), Arrays.copyOf(again.hdr, again.hdrLen));
        assertEquals(r.payloadLength, again.payloadLength);
        assertEquals(r.padCount, again.padCount);
        assertEquals(r.sgidLo, again.sgidLo);
        assertEquals(r.dgidLo, again.dgidLo);
    }

    /** Rewrites the last four bytes of the UDP payload with the ICRC the receiver computes. */
    private void fixIcrc(int n, byte[] src, byte[] dst) {
        int ip = src.length == 4 ? RxeWire.IP6 - RxeWire.IP4 : 0;
        if (src.length == 4) {
            RxeWire.pseudo4(scratch, ip, src, dst, SPORT, DPORT, n);
        } else {
            RxeWire.pseudo6(scratch, ip, src, dst, SPORT, DPORT, n);
        }
        bb.put(ip, scratch, ip, RxeWire.HEADROOM - ip);
        int len = RxeWire.HEADROOM - ip + n - RxeWire.ICRC;
        if (len >= RxeWire.HEADROOM - ip + RxeWire.BTH) {
            Icrc.put(Icrc.computeRoceV2(bb, ip, len), bb, ip + len);
        }
    }

    private static byte[] ip6(int last) {
        byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[15] = (byte) last;
        return a;
    }

    // ---------------------------------------------------------------- the corpus

    /** Datagrams of the opcodes rxe carries, laid out by the transmit path, over IPv4 and IPv6. */
    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        for (boolean v4 : new boolean[] {false, true}) {
            String fam = v4 ? "-ipv4" : "-ipv6";
            s.put("rc-send-only" + fam, seed(v4, Opcodes.RC | Opcodes.SEND_ONLY, 10, h -> { }));
            s.put("rc-write-first" + fam, seed(v4, Opcodes.RC | Opcodes.WRITE_FIRST, 64,
                    h -> Hdr.setReth(h, Opcodes.RC | Opcodes.WRITE_FIRST, 0x1000, 0x1234, 4096)));
            s.put("rc-read-request" + fam, seed(v4, Opcodes.RC | Opcodes.READ_REQUEST, 0,
                    h -> Hdr.setReth(h, Opcodes.RC | Opcodes.READ_REQUEST, 0x2000, 0x1234, 100)));
            s.put("rc-ack" + fam, seed(v4, Opcodes.RC | Opcodes.ACKNOWLEDGE, 0,
                    h -> Hdr.setAeth(h, Opcodes.RC | Opcodes.ACKNOWLEDGE, 0x1f000005)));
            s.put("rc-compare-swap" + fam, seed(v4, Opcodes.RC | Opcodes.COMPARE_SWAP, 0,
                    h -> Hdr.setAtmeth(h, Opcodes.RC | Opcodes.COMPARE_SWAP, 0x3000, 0x1234, 7, 5)));
            s.put("ud-send-imm" + fam, seed(v4, Opcodes.UD | Opcodes.SEND_ONLY_IMM, 33, h -> {
                Hdr.setDeth(h, Opcodes.UD | Opcodes.SEND_ONLY_IMM, 0x11111111, 0x42);
                Hdr.setImmdt(h, Opcodes.UD | Opcodes.SEND_ONLY_IMM, 0x01020304);
            }));
        }
        return s;
    }

    private static byte[] seed(boolean v4, int opcode, int len, java.util.function.Consumer<byte[]> ext) {
        RvtPacket p = new RvtPacket();
        p.hdrLen = Opcodes.length(opcode);
        p.padCount = (4 - (len & 3)) & 3;
        Hdr.setBth(p.hdr, opcode, false, p.padCount, 0xffff, 0x11, true, 0x123);
        ext.accept(p.hdr);
        byte[] payload = new byte[len];
        for (int i = 0; i < len; i++) {
            payload[i] = (byte) (i * 7 + 1);
        }
        p.payload = ByteBuffer.wrap(payload);
        p.payloadLength = len;
        ByteBuffer out = ByteBuffer.allocate(RxeWire.HEADROOM + RxeWire.MAX_DATAGRAM);
        int at = RxeWire.encode(p, new byte[RxeWire.HEADROOM + RvtPacket.MAX_HDR], out,
                v4 ? SRC4 : SRC6, v4 ? DST4 : DST6, SPORT, DPORT);
        int n = p.hdrLen + len + p.padCount + RxeWire.ICRC;
        byte[] b = new byte[1 + n];
        b[0] = (byte) (v4 ? 1 : 0);
        out.get(at, b, 1, n);
        return b;
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(DatagramFuzzTest.class, "datagram", seeds());
    }

    /** The seeds pass the ICRC check and parse, so fuzzing starts behind the check. */
    @Test
    void seedsDecode() {
        for (Map.Entry<String, byte[]> e : seeds().entrySet()) {
            byte[] in = e.getValue();
            boolean v4 = in[0] == 1;
            bb.clear();
            bb.put(RxeWire.HEADROOM, in, 1, in.length - 1);
            assertEquals(RxeWire.RX_OK, RxeWire.decode(bb, in.length - 1, scratch, v4 ? SRC4 : SRC6, SPORT,
                    v4 ? DST4 : DST6, DPORT, new RvtPacket(), null), e.getKey());
        }
    }
}
