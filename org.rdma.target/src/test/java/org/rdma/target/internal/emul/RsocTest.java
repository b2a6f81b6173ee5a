package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;
import org.rdma.scsi.Opcode;
import org.rdma.target.internal.device.DeviceAttributes;

/** REPORT SUPPORTED OPERATION CODES / TASK MANAGEMENT FUNCTIONS (SPC-4 6.35, 6.36) and REPORT LUNS (6.33). */
class RsocTest {
    private final Harness h = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS);

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void oneCommandReportsItsUsageData() {
        assertArrayEquals(hex("00 03 000a 28 fc ffffffff 1f ffff 00"),
                h.run(Cdb.reportSupportedOperationCodes(false, 1, Opcode.READ_10, 0, 64)).good().data());
        assertArrayEquals(hex("00 83 0010 9e 10 ffffffffffffffff ffffffff 01 00 000a 0000 00000000 00000000"),
                h.run(Cdb.reportSupportedOperationCodes(true, 2, 0x9E, 0x10, 64)).good().data());
        assertArrayEquals(hex("00 01 0000"), h.run(Cdb.reportSupportedOperationCodes(false, 1, 0xC0, 0, 64)).good().data());
        assertArrayEquals(hex("00 01 0000"), h.run(Cdb.reportSupportedOperationCodes(false, 1, Opcode.UNMAP, 0, 64)).good().data());
    }

    @Test
    void allCommandsInOpcodeOrder() {
        byte[] all = h.run(Cdb.reportSupportedOperationCodes(false, 0, 0, 0, 4096)).good().data();
        int n = (all.length - 4) / 8;
        assertEquals(all.length - 4, Cdb.get(all, 0, 4));
        assertEquals(32, n, "commands of a device without thin provisioning");
        assertArrayEquals(hex("00 00 0000 00 00 0006"), java.util.Arrays.copyOfRange(all, 4, 12));
        // SERVICE ACTION IN(16) READ CAPACITY(16): SERVACTV.
        int rc16 = 4 + 8 * 25;
        assertArrayEquals(hex("9e 00 0010 00 01 0010"), java.util.Arrays.copyOfRange(all, rc16, rc16 + 8));
        byte[] withTimeouts = h.run(Cdb.reportSupportedOperationCodes(true, 0, 0, 0, 4096)).good().data();
        assertEquals(4 + 20 * n, withTimeouts.length);
        assertEquals(0x02, withTimeouts[4 + 5]);
    }

    @Test
    void reportingOptionChecks() {
        h.expectInvalidField(Cdb.reportSupportedOperationCodes(false, 1, 0x9E, 0, 64), 2, 2);
        h.expectInvalidField(Cdb.reportSupportedOperationCodes(false, 2, Opcode.READ_10, 0, 64), 2, 2);
        h.expectInvalidField(Cdb.reportSupportedOperationCodes(false, 3, Opcode.READ_10, 0, 64), 2, 2);
    }

    @Test
    void taskManagementFunctions() {
        assertArrayEquals(hex("de 01 00 00"), h.run(Cdb.reportSupportedTaskManagementFunctions(false, 4)).good().data());
        assertArrayEquals(hex("de 01 00 0c 00000000 00000000 00000000"),
                h.run(Cdb.reportSupportedTaskManagementFunctions(true, 64)).good().data());
    }

    @Test
    void reportLuns() {
        h.luns = new long[] {Lun.encode(0), Lun.encode(300)};
        assertArrayEquals(hex("00000010 00000000 0000000000000000 412c000000000000"), h.run(Cdb.reportLuns(0, 64)).good().data());
        assertArrayEquals(hex("00000000 00000000"), h.run(Cdb.reportLuns(1, 64)).good().data());
        h.expectInvalidField(Cdb.reportLuns(2, 8), 6, 7);
        h.expectInvalidField(Cdb.reportLuns(3, 64), 2, 7);
    }
}
