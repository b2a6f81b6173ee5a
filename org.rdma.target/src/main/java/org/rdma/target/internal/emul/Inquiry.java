package org.rdma.target.internal.emul;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * INQUIRY (SPC-4 6.6): standard data and the VPD pages of SPC-4 7.8 and SBC-3 6.5; LIO's
 * {@code spc_emulate_inquiry_std()} and {@code spc_emulate_evpd_*()}.
 */
final class Inquiry {
    /** The VPD pages, ascending, as page 0x00 lists them. */
    static final int[] PAGES = {0x00, 0x80, 0x83, 0x86, 0xB0, 0xB1, 0xB2};
    /** Version descriptors (SPC-4 table 145): SAM-5, SPC-4, SBC-3. */
    private static final int[] VERSIONS = {0x00A0, 0x0460, 0x04C0};
    /** PERIPHERAL QUALIFIER 011b, DEVICE TYPE 1Fh: no logical unit at this LUN (SPC-4 6.6.2). */
    static final int NO_LUN = 0x7F;
    /** Code sets and designator types of the designation descriptor (SPC-4 7.8.6.1). */
    private static final int BINARY = 1, ASCII = 2, UTF8 = 3;
    private static final int T10_VENDOR_ID = 1, NAA = 3, RELATIVE_TARGET_PORT = 4, SCSI_NAME_STRING = 8;
    private static final int ASSOC_LU = 0, ASSOC_TARGET_PORT = 1, ASSOC_TARGET_DEVICE = 2;

    private Inquiry() {
    }

    /** EVPD zero with a PAGE CODE, or an unsupported VPD page: INVALID FIELD IN CDB at the page code. */
    static void parse(Cmd c) throws ScsiException {
        boolean evpd = (c.cdb[1] & 1) != 0;
        int page = c.cdb[2] & 0xFF;
        if (!evpd && page != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(2, 7));
        }
        if (evpd && c.dev != null && java.util.Arrays.stream(PAGES).noneMatch(p -> p == page)) {
            throw new ScsiException(Sense.invalidFieldInCdb(2, 7));
        }
        c.dataIn(c.field(3, 2), x -> x.respond(x.dev == null ? noLun(evpd, page)
                : evpd ? vpd(x, page) : standard(x.dev)));
    }

    private static byte[] noLun(boolean evpd, int page) {
        byte[] b = new byte[evpd ? 4 : 36];
        b[0] = (byte) NO_LUN;
        if (evpd) {
            b[1] = (byte) page;
        } else {
            b[2] = 0x06;
            b[3] = 0x12;
            b[4] = 31;
        }
        return b;
    }

    /**
     * Standard INQUIRY data (SPC-4 6.6.2): direct-access block device, not removable, SPC-4,
     * HISUP and response format 2, CMDQUE; vendor, product (the backstore type), revision; version
     * descriptors.
     */
    static byte[] standard(ScsiDevice dev) {
        byte[] b = new byte[58 + 2 * VERSIONS.length];
        b[0] = 0x00;
        b[2] = 0x06;
        b[3] = 0x12;
        b[4] = (byte) (b.length - 5);
        b[7] = 0x02;
        ascii(b, 8, DeviceIdentity.VENDOR, 8);
        ascii(b, 16, dev.backstore().type().toUpperCase(java.util.Locale.ROOT), 16);
        ascii(b, 32, "1.0", 4);
        for (int i = 0; i < VERSIONS.length; i++) {
            Cdb.put(b, 58 + 2 * i, VERSIONS[i], 2);
        }
        return b;
    }

    private static void ascii(byte[] b, int off, String s, int width) {
        byte[] v = s.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < width; i++) {
            b[off + i] = i < v.length ? v[i] : (byte) ' ';
        }
    }

    private static byte[] vpd(Cmd c, int page) {
        byte[] body = switch (page) {
            case 0x00 -> supportedPages();
            case 0x80 -> c.dev.identity().serial().getBytes(StandardCharsets.US_ASCII);
            case 0x83 -> deviceIdentification(c);
            case 0x86 -> extendedInquiry(c.dev);
            case 0xB0 -> blockLimits(c.dev);
            case 0xB1 -> blockDeviceCharacteristics(c.dev);
            default -> logicalBlockProvisioning(c.dev);
        };
        byte[] b = new byte[4 + body.length];
        b[1] = (byte) page;
        Cdb.put(b, 2, body.length, 2);
        System.arraycopy(body, 0, b, 4, body.length);
        return b;
    }

    private static byte[] supportedPages() {
        byte[] b = new byte[PAGES.length];
        for (int i = 0; i < PAGES.length; i++) {
            b[i] = (byte) PAGES[i];
        }
        return b;
    }

    /**
     * Device Identification (SPC-4 7.8.6): the logical unit's NAA 6 and T10 vendor ID designators,
     * then the target port's relative port and SCSI name string designators (PIV set, the port's
     * protocol), then the target device's SCSI name string.
     */
    static byte[] deviceIdentification(Cmd c) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        DeviceIdentity id = c.dev.identity();
        TargetPort port = c.nexus.port();
        designator(o, 0, BINARY, false, ASSOC_LU, NAA, id.naa());
        designator(o, 0, ASCII, false, ASSOC_LU, T10_VENDOR_ID,
                (DeviceIdentity.VENDOR + id.serial()).getBytes(StandardCharsets.US_ASCII));
        byte[] rel = new byte[4];
        Cdb.put(rel, 2, port.relativePortId(), 2);
        designator(o, port.protocolId(), BINARY, true, ASSOC_TARGET_PORT, RELATIVE_TARGET_PORT, rel);
        designator(o, port.protocolId(), UTF8, true, ASSOC_TARGET_PORT, SCSI_NAME_STRING, nameString(port.portName()));
        designator(o, port.protocolId(), UTF8, true, ASSOC_TARGET_DEVICE, SCSI_NAME_STRING,
                nameString(port.targetName()));
        return o.toByteArray();
    }

    /** A SCSI name string: UTF-8, null-terminated, padded with nulls to a multiple of 4 (SPC-4 7.8.6.11). */
    private static byte[] nameString(String s) {
        byte[] v = s.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.copyOf(v, (v.length + 4) & ~3);
    }

    private static void designator(ByteArrayOutputStream o, int protocol, int codeSet, boolean piv, int assoc, int type,
            byte[] value) {
        o.write(protocol << 4 | codeSet);
        o.write((piv ? 0x80 : 0) | assoc << 4 | type);
        o.write(0);
        o.write(value.length);
        o.writeBytes(value);
    }

    /**
     * Extended INQUIRY Data (SPC-4 7.8.7): HEADSUP, ORDSUP and SIMPSUP (the task attributes the
     * queue honours), V_SUP when a write cache is emulated.
     */
    private static byte[] extendedInquiry(ScsiDevice dev) {
        byte[] b = new byte[0x3C];
        b[1] = 0x07;
        b[2] = (byte) (dev.writeCacheEnabled() ? 0x01 : 0);
        return b;
    }

    /**
     * Block Limits (SBC-3 6.5.3): WSNZ, MAXIMUM COMPARE AND WRITE LENGTH, MAXIMUM and OPTIMAL
     * TRANSFER LENGTH, the UNMAP limits and granularity when thin provisioned, MAXIMUM WRITE SAME
     * LENGTH.
     */
    private static byte[] blockLimits(ScsiDevice dev) {
        byte[] b = new byte[0x3C];
        b[0] = 0x01;
        b[1] = Sbc.MAX_COMPARE_AND_WRITE;
        Cdb.put(b, 2, 1, 2);
        Cdb.put(b, 4, dev.maxTransferBlocks(), 4);
        Cdb.put(b, 8, dev.maxTransferBlocks(), 4);
        if (dev.thin()) {
            Cdb.put(b, 16, dev.attributes().maxUnmapLbaCount(), 4);
            Cdb.put(b, 20, dev.attributes().maxUnmapBlockDescriptors(), 4);
            Cdb.put(b, 24, dev.backstore().unmapGranularity(), 4);
        }
        Cdb.put(b, 32, dev.attributes().maxWriteSameBlocks(), 8);
        return b;
    }

    /** Block Device Characteristics (SBC-3 6.5.2): MEDIUM ROTATION RATE 1 for non-rotating media. */
    private static byte[] blockDeviceCharacteristics(ScsiDevice dev) {
        byte[] b = new byte[0x3C];
        Cdb.put(b, 0, dev.attributes().nonRotational() ? 1 : 0, 2);
        return b;
    }

    /**
     * Logical Block Provisioning (SBC-3 6.5.4): when thin provisioned LBPU, LBPWS, LBPWS10 and
     * LBPRZ, provisioning type thin (010b).
     */
    private static byte[] logicalBlockProvisioning(ScsiDevice dev) {
        byte[] b = new byte[4];
        if (dev.thin()) {
            b[1] = (byte) 0xE4;
            b[2] = 0x02;
        }
        return b;
    }
}
