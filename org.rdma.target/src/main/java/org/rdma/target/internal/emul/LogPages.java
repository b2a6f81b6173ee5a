package org.rdma.target.internal.emul;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * LOG SENSE (SPC-4 6.8) over the pages a virtual device has something true to say in: Supported
 * Log Pages (and Supported Log Pages and Subpages), Logical Block Provisioning (SBC-3 6.3.4, when
 * thin provisioned: the mapped and unmapped block counts) and Informational Exceptions (SPC-4
 * 7.3.8: nothing to report). No parameter is counted, so every PAGE CONTROL value answers the
 * same values, and none is saved.
 */
final class LogPages {
    static final int SUPPORTED = 0x00, PROVISIONING = 0x0C, INFORMATIONAL_EXCEPTIONS = 0x2F;
    /** FORMAT AND LINKING 11b (binary format list), the control byte of every parameter here. */
    private static final int BINARY = 0x03;

    private LogPages() {
    }

    /** The page codes of a device, ascending. */
    private static List<Integer> pages(ScsiDevice dev) {
        List<Integer> p = new ArrayList<>(List.of(SUPPORTED));
        if (dev.thin()) {
            p.add(PROVISIONING);
        }
        p.add(INFORMATIONAL_EXCEPTIONS);
        return p;
    }

    /**
     * LOG SENSE: SP (saving) answers INVALID FIELD IN CDB, as does a page the device does not
     * have, a subpage other than 00h (FFh with page 00h lists the subpages too), or a PARAMETER
     * POINTER above the page's last parameter code.
     */
    static void logSense(Cmd c) throws ScsiException {
        if ((c.cdb[1] & 0x01) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 0));
        }
        int page = c.cdb[2] & 0x3F;
        int subpage = c.cdb[3] & 0xFF;
        int pointer = (int) c.field(5, 2);
        if (!pages(c.dev).contains(page)) {
            throw new ScsiException(Sense.invalidFieldInCdb(2, 5));
        }
        if (subpage != 0 && !(page == SUPPORTED && subpage == 0xFF)) {
            throw new ScsiException(Sense.invalidFieldInCdb(3, 7));
        }
        int lastParameter = switch (page) {
            case PROVISIONING -> 2;
            default -> 0;
        };
        if (pointer > lastParameter) {
            throw new ScsiException(Sense.invalidFieldInCdb(5, 7));
        }
        c.dataIn(c.field(7, 2), x -> x.respond(page(x.dev, page, subpage, pointer)));
    }

    private static byte[] page(ScsiDevice dev, int page, int subpage, int pointer) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        switch (page) {
            case SUPPORTED -> {
                for (int p : pages(dev)) {
                    body.write(p);
                    if (subpage == 0xFF) {
                        body.write(0);
                        if (p == SUPPORTED) {
                            body.write(SUPPORTED);
                            body.write(0xFF);
                        }
                    }
                }
            }
            case PROVISIONING -> {
                long used = Provisioning.mappedBlocks(dev);
                if (pointer <= 1) {
                    resourceCount(body, 0x0001, dev.blockCount() - used);
                }
                resourceCount(body, 0x0002, used);
            }
            default -> {
                // INFORMATIONAL EXCEPTION ASC/ASCQ 00h/00h; no temperature reading (FFh).
                body.writeBytes(new byte[] {0, 0, BINARY, 3, 0, 0, (byte) 0xFF});
            }
        }
        byte[] b = new byte[4 + body.size()];
        b[0] = (byte) (page | (subpage == 0xFF ? 0x40 : 0));
        b[1] = (byte) subpage;
        Cdb.put(b, 2, body.size(), 2);
        System.arraycopy(body.toByteArray(), 0, b, 4, body.size());
        return b;
    }

    /**
     * An LBA mapping resource count parameter (SBC-3 6.3.4.2): the count in blocks (THRESHOLD
     * EXPONENT zero), saturated at 2^32 - 1; SCOPE 01b, dedicated to this logical unit.
     */
    private static void resourceCount(ByteArrayOutputStream o, int code, long blocks) {
        byte[] p = new byte[12];
        Cdb.put(p, 0, code, 2);
        p[2] = BINARY;
        p[3] = 8;
        Cdb.put(p, 4, Math.min(blocks, 0xFFFF_FFFFL), 4);
        p[8] = 0x01;
        o.writeBytes(p);
    }
}
