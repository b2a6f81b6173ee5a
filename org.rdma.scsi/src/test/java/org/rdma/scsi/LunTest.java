package org.rdma.scsi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rdma.scsi.SenseTest.assertErrno;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** SAM-5 4.6 LUN layouts: peripheral (4.6.6), flat space (4.6.8), well-known (4.6.10). */
class LunTest {
    @Test
    void peripheralUpTo255FlatAbove() {
        assertArrayEquals(HexFormat.of().parseHex("0000000000000000"), Lun.toBytes(Lun.encode(0)));
        assertArrayEquals(HexFormat.of().parseHex("00ff000000000000"), Lun.toBytes(Lun.encode(255)));
        assertArrayEquals(HexFormat.of().parseHex("4100000000000000"), Lun.toBytes(Lun.encode(256)));
        assertArrayEquals(HexFormat.of().parseHex("7fff000000000000"), Lun.toBytes(Lun.encode(16383)));
        assertErrno(() -> Lun.encode(16384));
        assertErrno(() -> Lun.encode(-1));
    }

    @Test
    void decodeTakesBothSingleLevelMethods() {
        assertEquals(7, Lun.decode(0x0007_0000_0000_0000L));
        assertEquals(7, Lun.decode(0x4007_0000_0000_0000L));
        assertEquals(300, Lun.decode(Lun.encode(300)));
        assertEquals(300, Lun.decode(Lun.fromBytes(Lun.toBytes(Lun.encode(300)), 0)));
    }

    @Test
    void decodeRefusesWhatTheTargetDoesNotAddress() {
        assertErrno(() -> Lun.decode(0x0100_0000_0000_0000L)); // bus 1
        assertErrno(() -> Lun.decode(0x0001_0001_0000_0000L)); // second level
        assertErrno(() -> Lun.decode(0x8001_0000_0000_0000L)); // logical unit addressing
        assertErrno(() -> Lun.decode(Lun.REPORT_LUNS_WELL_KNOWN));
        assertTrue(Lun.isWellKnown(Lun.REPORT_LUNS_WELL_KNOWN));
        assertFalse(Lun.isWellKnown(Lun.encode(1)));
        assertEquals("c101000000000000", Lun.toString(Lun.REPORT_LUNS_WELL_KNOWN));
    }
}
