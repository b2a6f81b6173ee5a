package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Cdb;
import org.rdma.target.internal.device.DeviceAttributes;

/** LOG SENSE laid out by hand from SPC-4 7.3.1 (page format), 7.3.18, 7.3.8 and SBC-3 6.3.4. */
class LogPagesTest {
    private final Harness plain = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS);
    private final Harness thin = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS.withThinProvisioning(true));

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void supportedPagesAndSubpages() {
        assertArrayEquals(hex("00 00 0002 00 2f"), plain.run(Cdb.logSense(1, 0, 0, 0, 64)).good().data());
        assertArrayEquals(hex("00 00 0003 00 0c 2f"), thin.run(Cdb.logSense(1, 0, 0, 0, 64)).good().data());
        assertArrayEquals(hex("40 ff 0008 00 00 00 ff 0c 00 2f 00"), thin.run(Cdb.logSense(1, 0, 0xFF, 0, 64)).good().data());
        assertArrayEquals(hex("00 00 0003 00"), thin.run(Cdb.logSense(1, 0, 0, 0, 5)).good().data(), "cut to the allocation length");
    }

    @Test
    void informationalExceptionsHaveNothingToReport() {
        assertArrayEquals(hex("2f 00 0007 0000 03 03 00 00 ff"), plain.run(Cdb.logSense(1, 0x2F, 0, 0, 64)).good().data());
    }

    @Test
    void provisioningCountsMappedBlocksInPages() {
        thin.run(Cdb.write10(5, 1, 0), new byte[512]).good();
        // The ramdisk maps 64 KiB pages: one write maps 128 blocks of the 1024.
        assertArrayEquals(hex("0c 00 0018 0001 03 08 00000380 01 000000 0002 03 08 00000080 01 000000"),
                thin.run(Cdb.logSense(1, 0x0C, 0, 0, 64)).good().data());
        assertArrayEquals(hex("0c 00 000c 0002 03 08 00000080 01 000000"), thin.run(Cdb.logSense(3, 0x0C, 0, 2, 64)).good().data(),
                "from PARAMETER POINTER on");
    }

    @Test
    void checks() {
        byte[] save = Cdb.logSense(1, 0, 0, 0, 64);
        save[1] = 1;
        plain.expectInvalidField(save, 1, 0);
        plain.expectInvalidField(Cdb.logSense(1, 0x0C, 0, 0, 64), 2, 5);
        plain.expectInvalidField(Cdb.logSense(1, 0x2F, 1, 0, 64), 3, 7);
        thin.expectInvalidField(Cdb.logSense(1, 0x0C, 0, 3, 64), 5, 7);
        plain.expectInvalidField(Cdb.logSense(1, 0, 0, 1, 64), 5, 7);
    }
}
