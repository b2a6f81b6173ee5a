package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rdma.target.internal.emul.SbcTest.pattern;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.device.DeviceAttributes;

/** WRITE SAME, UNMAP and GET LBA STATUS on a thin ramdisk (pages of 128 blocks of 512 bytes). */
class ProvisioningTest {
    private final Harness h = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS.withThinProvisioning(true));

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void writeSameRepeatsTheBlock() {
        byte[] block = pattern(512, 4);
        h.run(Cdb.writeSame10(10, 5, 0), block).good();
        byte[] five = h.run(Cdb.read10(10, 5, 0)).good().data();
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(block, java.util.Arrays.copyOfRange(five, i * 512, i * 512 + 512));
        }
    }

    @Test
    void writeSameWithUnmapAndZerosDeallocatesAndReadsZeros() {
        h.run(Cdb.write16(0, 256, 0), pattern(256 * 512, 1)).good();
        h.run(Cdb.writeSame16(0, 128, Cdb.WS_UNMAP), new byte[512]).good();
        assertArrayEquals(new byte[128 * 512], h.run(Cdb.read10(0, 128, 0)).good().data());
        // LBA 0..127 deallocated, 128..255 mapped, the rest never written.
        assertArrayEquals(hex("00000024 00000000"
                + "0000000000000000 00000080 01 000000"
                + "0000000000000080 00000080 00 000000"), h.run(Cdb.getLbaStatus(0, 40)).good().data());
    }

    @Test
    void writeSameChecks() {
        h.expectInvalidField(Cdb.writeSame10(0, 0, 0), 7, 7);
        h.expectInvalidField(Cdb.writeSame16(0, 2 << 20, 0), 10, 7);
        h.expectInvalidField(Cdb.writeSame10(0, 1, 0x10), 1, 4);
        h.expectInvalidField(Cdb.writeSame10(0, 1, 0x04), 1, 2);
        h.expectInvalidField(Cdb.writeSame16(0, 1, 0x02), 1, 1);
        h.expectInvalidField(Cdb.writeSame16(0, 1, 0x01), 1, 0); // NDOB is not supported
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.writeSame16(1000, 25, 0));
    }

    @Test
    void unmapDeallocatesEveryDescriptor() {
        h.run(Cdb.write16(0, 1024, 0), pattern(1024 * 512, 2)).good();
        byte[] p = Cdb.unmapParameterList(0, 128, 512, 128);
        h.run(Cdb.unmap(p.length), p).good();
        assertArrayEquals(new byte[128 * 512], h.run(Cdb.read10(512, 128, 0)).good().data());
        byte[] status = h.run(Cdb.getLbaStatus(0, 1024)).good().data();
        assertEquals(8 + 4 * 16, status.length);
        assertEquals(Provisioning.DEALLOCATED, status[8 + 12]);
        assertEquals(Provisioning.MAPPED, status[24 + 12]);
        assertEquals(Provisioning.DEALLOCATED, status[40 + 12]);
    }

    @Test
    void unmapChecks() {
        h.run(Cdb.unmap(0)).good();
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR, Cdb.unmap(6), new byte[6]);
        byte[] far = Cdb.unmapParameterList(0, 1, 1020, 8);
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.unmap(far.length), far);
        byte[] many = Cdb.unmapParameterList(0, (1 << 20) + 1);
        Sense s = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST, Cdb.unmap(many.length), many);
        assertEquals(Sense.invalidFieldInParameterList(16, 7), s);
        long[] pairs = new long[2 * 257];
        byte[] tooMany = Cdb.unmapParameterList(pairs);
        s = h.expect(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST, Cdb.unmap(tooMany.length), tooMany);
        assertEquals(Sense.invalidFieldInParameterList(2, 7), s);
        byte[] anchor = Cdb.unmap(24);
        anchor[1] = 1;
        h.expectInvalidField(anchor, 1, 0);
    }

    @Test
    void getLbaStatusBeyondTheLastLba() {
        h.expect(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE, Cdb.getLbaStatus(1024, 24));
        Harness full = Harness.ramdisk(1024, 512, DeviceAttributes.DEFAULTS);
        assertArrayEquals(hex("00000014 00000000 0000000000000010 000003f0 00 000000"),
                full.run(Cdb.getLbaStatus(16, 24)).good().data());
    }
}
