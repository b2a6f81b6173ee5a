package org.rdma.target.internal.pr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiException;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * The reservation parsers that read outside input: the APTPL state a store hands back (a file)
 * and PERSISTENT RESERVE OUT parameter lists with their TransportIDs (the wire). Each either
 * refuses (EINVAL, or a SCSI status) or yields a state that encodes and parses back to itself.
 */
class ReservationsFuzzTest {
    private static final String PORT = "iqn.2003-01.org.example:t1,t,0x0001";
    private static final ItNexus ME = new ItNexus("iqn.1994-05.com.example:h1", "023d00000001", PORT);

    /** A device reached through one port by everyone. */
    private static final PrContext CONTEXT = new PrContext() {
        @Override
        public void unitAttention(Predicate<ItNexus> who, Asc asc) {
            who.test(ME);
        }

        @Override
        public void abortTasks(Predicate<ItNexus> who) {
            who.test(ME);
        }

        @Override
        public int relativePortId(String name) {
            return name.equals(PORT) ? 1 : 0;
        }

        @Override
        public String targetPortName(int rel) {
            return rel == 1 ? PORT : null;
        }

        @Override
        public boolean canAccess(String initiator, String port) {
            return port.equals(PORT);
        }
    };

    /** The whole input as the text of a saved state. */
    @FuzzTest
    void savedState(byte[] input) {
        PrState s;
        try {
            s = PrState.parse(new String(input, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
            return;
        }
        assertEquals(s, PrState.parse(s.encode()));
    }

    /**
     * Byte 0 picks the service action and byte 1 the type; the rest is a parameter list, sent by
     * a registered holder of a reservation so every service action gets past the key checks.
     */
    @FuzzTest
    void parameterList(byte[] input) throws Exception {
        if (input.length < 2) {
            return;
        }
        Reservations r = new Reservations(PrStore.NONE);
        r.out(ME, CONTEXT, Opcode.PRO_REGISTER, null, basic(0, 1));
        r.out(ME, CONTEXT, Opcode.PRO_RESERVE, PrType.WRITE_EXCLUSIVE, basic(1, 0));
        PrType type = PrType.values()[(input[1] & 0xFF) % PrType.values().length];
        try {
            r.out(ME, CONTEXT, input[0] & 7, type, Arrays.copyOfRange(input, 2, input.length));
        } catch (ScsiException refused) {
            assertEquals(1, r.state().registrations().stream().filter(g -> g.covers(ME)).count(), "a refusal changes nothing");
        }
        PrState s = r.state();
        assertEquals(s, PrState.parse(s.encode()));
        for (int sa = 0; sa < 4; sa++) {
            r.in(sa, CONTEXT);
        }
    }

    private static byte[] basic(long key, long sark) {
        byte[] p = new byte[24];
        Cdb.put(p, 0, key, 8);
        Cdb.put(p, 8, sark, 8);
        return p;
    }

    @Test
    void seeds() throws Exception {
        Map<String, byte[]> state = new LinkedHashMap<>();
        PrState two = new PrState(java.util.List.of(new PrState.Registration(0x1234, ME, false),
                new PrState.Registration(7, new ItNexus("iqn.1994-05.com.example:h2", null, PORT), true)),
                new PrState.Reservation(ME, PrType.EXCLUSIVE_ACCESS_REGISTRANTS_ONLY));
        state.put("two-registrations-reserved", two.encode().getBytes(StandardCharsets.UTF_8));
        state.put("empty", PrState.EMPTY.encode().getBytes(StandardCharsets.UTF_8));
        FuzzSeeds.check(ReservationsFuzzTest.class, "savedState", state);
        Map<String, byte[]> lists = new LinkedHashMap<>();
        byte[] tid = TransportId.encode("iqn.1994-05.com.example:h2", "400001370000");
        byte[] move = new byte[2 + 24 + tid.length];
        move[0] = Opcode.PRO_REGISTER_AND_MOVE;
        Cdb.put(move, 2, 1, 8);
        Cdb.put(move, 10, 9, 8);
        Cdb.put(move, 2 + 18, 1, 2);
        Cdb.put(move, 2 + 20, tid.length, 4);
        System.arraycopy(tid, 0, move, 2 + 24, tid.length);
        lists.put("register-and-move", move);
        byte[] preempt = new byte[2 + 24];
        preempt[0] = Opcode.PRO_PREEMPT_AND_ABORT;
        preempt[1] = 3;
        Cdb.put(preempt, 2, 1, 8);
        Cdb.put(preempt, 10, 1, 8);
        lists.put("preempt-and-abort-self", preempt);
        byte[] dev = TransportId.encode("iqn.1994-05.com.example:h3", null);
        byte[] spec = new byte[2 + 28 + dev.length];
        spec[0] = Opcode.PRO_REGISTER;
        Cdb.put(spec, 2, 1, 8);
        spec[2 + 20] = 0x08;
        Cdb.put(spec, 2 + 24, dev.length, 4);
        System.arraycopy(dev, 0, spec, 2 + 28, dev.length);
        lists.put("register-spec-i-pt", spec);
        FuzzSeeds.check(ReservationsFuzzTest.class, "parameterList", lists);
    }
}
