package org.rdma.rvt.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OpcodesTest {
    @Test
    void headerLengthsAndOffsetsMatchIbta() {
        assertEquals("RC_SEND_ONLY", Opcodes.name(0x04));
        assertEquals(12, Opcodes.length(0x04));
        assertEquals(28, Opcodes.length(Opcodes.RC | Opcodes.WRITE_ONLY));
        assertEquals(12, Opcodes.offset(Opcodes.RC | Opcodes.WRITE_ONLY, Opcodes.RETH));
        assertEquals(32, Opcodes.length(Opcodes.RC | Opcodes.WRITE_ONLY_IMM));
        assertEquals(28, Opcodes.offset(Opcodes.RC | Opcodes.WRITE_ONLY_IMM, Opcodes.IMMDT));
        assertEquals(40, Opcodes.length(Opcodes.RC | Opcodes.COMPARE_SWAP));
        assertEquals(24, Opcodes.length(Opcodes.RC | Opcodes.ATOMIC_ACKNOWLEDGE));
        assertEquals(16, Opcodes.offset(Opcodes.RC | Opcodes.ATOMIC_ACKNOWLEDGE, Opcodes.ATMACK));
        assertEquals(20, Opcodes.length(0x64));
        assertEquals(24, Opcodes.length(0x65));
        assertEquals(20, Opcodes.offset(0x65, Opcodes.IMMDT));
        assertEquals(16, Opcodes.length(Opcodes.RC | Opcodes.SEND_ONLY_INV));
        assertEquals(16, Opcodes.length(Opcodes.RC | Opcodes.ACKNOWLEDGE));
        assertEquals("UD_SEND_ONLY_WITH_IMMEDIATE", Opcodes.name(0x65));
    }

    @Test
    void capabilityBits() {
        int rcReadReq = Opcodes.RC | Opcodes.READ_REQUEST;
        assertTrue(Opcodes.has(rcReadReq, Opcodes.REQ | Opcodes.READ | Opcodes.RETH | Opcodes.START | Opcodes.END));
        assertFalse(Opcodes.has(rcReadReq, Opcodes.PAYLOAD));
        assertTrue(Opcodes.has(Opcodes.UC | Opcodes.WRITE_LAST_IMM, Opcodes.RWR | Opcodes.COMP | Opcodes.IMMDT));
        assertEquals(0, Opcodes.mask(Opcodes.UC | Opcodes.READ_REQUEST));
        assertEquals(0, Opcodes.mask(Opcodes.UD | Opcodes.SEND_FIRST));
        assertEquals(0, Opcodes.mask(0xff));
        int known = 0;
        for (int op = 0; op < 256; op++) {
            if (Opcodes.mask(op) != 0) {
                known++;
                assertTrue(Opcodes.length(op) >= 12 && Opcodes.length(op) <= 64);
            }
        }
        assertEquals(23 + 12 + 24 + 2, known);
    }

    @Test
    void psnArithmeticWraps() {
        assertTrue(Psn.compare(0, 0xffffff) > 0);
        assertTrue(Psn.compare(0xffffff, 0) < 0);
        assertEquals(0, Psn.compare(5, 5));
        assertEquals(1, Psn.add(0xffffff, 2));
        assertEquals(3, Psn.distance(0xfffffe, 1));
    }

    @Test
    void aethCreditsAndTimers() {
        assertEquals(0, Aeth.creditCode(0));
        assertEquals(4, Aeth.creditCode(5));
        assertEquals(5, Aeth.creditCode(6));
        assertEquals(0x1e, Aeth.creditCode(1 << 20));
        assertEquals(32768, Aeth.credits(0x1e));
        assertEquals(-1, Aeth.credits(Aeth.CREDIT_INVALID));
        for (int n = 0; n < 40000; n += 7) {
            assertTrue(Aeth.credits(Aeth.creditCode(n)) <= n);
        }
        assertEquals(655_360_000L, Aeth.rnrNanos(0));
        assertEquals(10_000L, Aeth.rnrNanos(1));
        assertEquals(491_520_000L, Aeth.rnrNanos(31));
        assertEquals(4096L << 14, Aeth.ackTimeoutNanos(14));
        assertEquals(0, Aeth.ackTimeoutNanos(0));
        int a = Aeth.make(Aeth.NAK_REM_ACCESS, 0x123456);
        assertEquals(Aeth.NAK_REM_ACCESS, Aeth.syndrome(a));
        assertEquals(Aeth.TYPE_NAK, Aeth.type(Aeth.syndrome(a)));
        assertEquals(0x123456, Aeth.msn(a));
    }

    @Test
    void directAccessorsRoundTrip() {
        byte[] h = new byte[64];
        int op = Opcodes.RC | Opcodes.COMPARE_SWAP;
        Hdr.setBth(h, op, true, 3, 0x8001, 0xabcdef, true, 0x00fffe);
        Hdr.setAtmeth(h, op, 0x1122334455667788L, 0xdeadbeef, 42, -7);
        assertEquals(op, Hdr.bthOpcode(h));
        assertTrue(Hdr.bthSe(h));
        assertEquals(3, Hdr.bthPad(h));
        assertEquals(0x8001, Hdr.bthPkey(h));
        assertEquals(0xabcdef, Hdr.bthQpn(h));
        assertTrue(Hdr.bthAckReq(h));
        assertEquals(0xfffe, Hdr.bthPsn(h));
        assertEquals(0x1122334455667788L, Hdr.atmethVa(h, op));
        assertEquals(0xdeadbeef, Hdr.atmethRkey(h, op));
        assertEquals(42, Hdr.atmethSwapAdd(h, op));
        assertEquals(-7, Hdr.atmethCompare(h, op));
        // the generic BTH codec of the API agrees with the direct accessors
        org.rdma.verbs.wire.Bth b = new org.rdma.verbs.wire.Bth().unpack(h, 0);
        assertEquals(op, b.opcode);
        assertEquals(0xabcdef, b.destQpn);
        assertEquals(0xfffe, b.psn);
        assertTrue(b.ackReq);
        assertEquals(3, b.padCount);
    }
}
