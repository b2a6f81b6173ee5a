package org.rdma.scsi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * The decoders that read bytes from a target: sense data (a SCSI Response's sense segment, a
 * REQUEST SENSE answer) and 8-byte LUNs (REPORT LUNS lists, a command's LUN field). Each either
 * refuses with {@code EINVAL} or yields a value whose encoding decodes back to the same value.
 */
class DecodeFuzzTest {

    private static <T> T orEinval(Supplier<T> decode) {
        try {
            return decode.get();
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
            return null;
        }
    }

    /** The whole input as sense data of either format. */
    @FuzzTest
    void sense(byte[] input) {
        Sense s = orEinval(() -> Sense.decode(input, 0, input.length));
        if (s == null) {
            return;
        }
        for (boolean descriptor : new boolean[] {false, true}) {
            byte[] once = s.encode(descriptor);
            Sense again = Sense.decode(once, 0, once.length);
            assertEquals(s.key(), again.key());
            assertEquals(s.asc(), again.asc());
            assertEquals(s.deferred(), again.deferred());
            assertArrayEquals(once, again.encode(descriptor), "encoding is not stable for " + s);
        }
        if (s.senseKeySpecific() == 0 || s.sksValid()) {
            byte[] d = s.encode(true);
            assertEquals(s, Sense.decode(d, 0, d.length));
        }
    }

    /** The first eight bytes as a LUN. */
    @FuzzTest
    void lun(byte[] input) {
        long lun = Lun.fromBytes(Arrays.copyOf(input, 8), 0);
        Integer n = orEinval(() -> Lun.decode(lun));
        if (n != null) {
            assertTrue(n >= 0 && n <= Lun.MAX_FLAT, "LUN " + n);
            assertEquals(n, Lun.decode(Lun.encode(n)));
        }
    }

    @Test
    void seeds() throws Exception {
        Map<String, byte[]> sense = new LinkedHashMap<>();
        sense.put("fixed-invalid-field-in-cdb", Sense.invalidFieldInCdb(2, 7).encode(false));
        sense.put("fixed-miscompare-information",
                Sense.of(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION).withInformation(513).encode(false));
        sense.put("descriptor-all-three", Sense.invalidFieldInParameterList(3, 1).withInformation(1L << 40)
                .withCommandSpecific(9).encode(true));
        sense.put("fixed-short", Arrays.copyOf(Sense.of(SenseKey.UNIT_ATTENTION,
                Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED).encode(false), 14));
        FuzzSeeds.check(DecodeFuzzTest.class, "sense", sense);
        Map<String, byte[]> lun = new LinkedHashMap<>();
        lun.put("peripheral", Lun.toBytes(Lun.encode(5)));
        lun.put("flat", Lun.toBytes(Lun.encode(4000)));
        lun.put("well-known-report-luns", Lun.toBytes(Lun.REPORT_LUNS_WELL_KNOWN));
        lun.put("two-levels", Lun.toBytes(0x0001_0002_0000_0000L));
        FuzzSeeds.check(DecodeFuzzTest.class, "lun", lun);
    }
}
