package org.rdma.target.internal.emul;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * MODE SENSE(6/10) and MODE SELECT(6/10) (SPC-4 6.9-6.12) over the caching (SBC-3 6.4.5),
 * control (SPC-4 7.5.8) and informational exceptions control (SPC-4 7.5.10) pages; LIO's
 * {@code spc_emulate_modesense()}/{@code spc_emulate_modeselect()}, with MODE SELECT
 * changing the bits of each page's changeable mask instead of only accepting the current values.
 */
final class ModePages {
    /** PC values of MODE SENSE (SPC-4 6.11.1). */
    static final int CURRENT = 0, CHANGEABLE = 1, DEFAULT = 2, SAVED = 3;
    private static final int ALL_PAGES = 0x3F;

    /** One mode page: its code, length (bytes after the 2-byte header) and how it reads and applies. */
    private interface Page {
        int code();

        /** The page, header included, for a page control value other than SAVED. */
        byte[] get(ScsiDevice dev, int pc);

        /** Applies a page already checked against the changeable mask. */
        void set(ScsiDevice dev, byte[] page);
    }

    private record SimplePage(int code, int length, int byteIndex, int bit,
            java.util.function.Predicate<ScsiDevice> current, java.util.function.Predicate<ScsiDevice> dflt,
            java.util.function.BiConsumer<ScsiDevice, Boolean> apply, int[] fixed) implements Page {
        @Override
        public byte[] get(ScsiDevice dev, int pc) {
            byte[] p = new byte[2 + length];
            p[0] = (byte) code;
            p[1] = (byte) length;
            if (pc == CHANGEABLE) {
                p[byteIndex] = (byte) bit;
                return p;
            }
            for (int i = 0; i + 1 < fixed.length; i += 2) {
                p[fixed[i]] = (byte) fixed[i + 1];
            }
            if (pc == CURRENT ? current.test(dev) : dflt.test(dev)) {
                p[byteIndex] |= (byte) bit;
            }
            return p;
        }

        @Override
        public void set(ScsiDevice dev, byte[] page) {
            apply.accept(dev, (page[byteIndex] & bit) != 0);
        }
    }

    /** Ascending page codes, as "all pages" returns them. */
    private static final List<Page> PAGES = List.of(
            // Caching: WCE (byte 2 bit 2) changeable.
            new SimplePage(0x08, 0x12, 2, 0x04, ScsiDevice::writeCacheEnabled, d -> d.attributes().writeCache(),
                    ScsiDevice::setWriteCacheEnabled, new int[0]),
            // Control: D_SENSE (byte 2 bit 2) changeable; QUEUE ALGORITHM MODIFIER 1 (unrestricted
            // reordering of SIMPLE tasks), busy timeout unlimited.
            new SimplePage(0x0A, 0x0A, 2, 0x04, ScsiDevice::descriptorSense, d -> false, ScsiDevice::setDescriptorSense,
                    new int[] {3, 0x10, 8, 0xFF, 9, 0xFF}),
            // Informational exceptions control: DEXCPT (byte 2 bit 3) changeable; nothing to report.
            new SimplePage(0x1C, 0x0A, 2, 0x08, ScsiDevice::dexcpt, d -> true, ScsiDevice::setDexcpt, new int[0]));

    private ModePages() {
    }

    private static Page page(int code) {
        return PAGES.stream().filter(p -> p.code() == code).findFirst().orElse(null);
    }

    /**
     * MODE SENSE(6) and (10): PC SAVED answers SAVING PARAMETERS NOT SUPPORTED; an unknown page or
     * a subpage other than 0 (0xFF with all pages) INVALID FIELD IN CDB at the field. The header
     * carries WP for a read-only device and DPOFUA; DBD clear adds the block descriptor, long
     * (16 bytes) with LLBAA in MODE SENSE(10).
     */
    static void modeSense(Cmd c) throws ScsiException {
        boolean ten = (c.cdb[0] & 0xFF) == Opcode.MODE_SENSE_10;
        boolean dbd = (c.cdb[1] & 0x08) != 0;
        boolean llbaa = ten && (c.cdb[1] & 0x10) != 0;
        int pc = (c.cdb[2] & 0xFF) >> 6;
        int code = c.cdb[2] & 0x3F;
        int subpage = c.cdb[3] & 0xFF;
        if (pc == SAVED) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.SAVING_PARAMETERS_NOT_SUPPORTED);
        }
        if (code != ALL_PAGES && page(code) == null) {
            throw new ScsiException(Sense.invalidFieldInCdb(2, 5));
        }
        if (subpage != 0 && !(code == ALL_PAGES && subpage == 0xFF)) {
            throw new ScsiException(Sense.invalidFieldInCdb(3, 7));
        }
        c.dataIn(ten ? c.field(7, 2) : c.cdb[4] & 0xFF, x -> {
            ScsiDevice dev = x.dev;
            ByteArrayOutputStream pages = new ByteArrayOutputStream();
            for (Page p : PAGES) {
                if (code == ALL_PAGES || p.code() == code) {
                    pages.writeBytes(p.get(dev, pc));
                }
            }
            byte[] bd = dbd ? new byte[0] : blockDescriptor(dev, llbaa);
            int header = ten ? 8 : 4;
            byte[] b = new byte[header + bd.length + pages.size()];
            int deviceSpecific = (x.writeProtected() ? 0x80 : 0) | 0x10;
            if (ten) {
                Cdb.put(b, 0, b.length - 2, 2);
                b[3] = (byte) deviceSpecific;
                b[4] = (byte) (llbaa && !dbd ? 1 : 0);
                Cdb.put(b, 6, bd.length, 2);
            } else {
                b[0] = (byte) (b.length - 1);
                b[2] = (byte) deviceSpecific;
                b[3] = (byte) bd.length;
            }
            System.arraycopy(bd, 0, b, header, bd.length);
            System.arraycopy(pages.toByteArray(), 0, b, header + bd.length, pages.size());
            x.respond(b);
        });
    }

    /** The direct-access block descriptor (SBC-3 6.4.2): blocks (saturated in the short form) and block length. */
    private static byte[] blockDescriptor(ScsiDevice dev, boolean longLba) {
        if (longLba) {
            byte[] d = new byte[16];
            Cdb.put(d, 0, dev.blockCount(), 8);
            Cdb.put(d, 12, dev.blockSize(), 4);
            return d;
        }
        byte[] d = new byte[8];
        Cdb.put(d, 0, Math.min(dev.blockCount(), 0xFFFF_FFFFL), 4);
        Cdb.put(d, 5, dev.blockSize(), 3);
        return d;
    }

    /**
     * MODE SELECT(6) and (10): PF zero or SP one answer INVALID FIELD IN CDB (only the standard
     * page format, no saved pages). In the parameter list a header or page cut short is a
     * PARAMETER LIST LENGTH ERROR; a block descriptor whose block length differs from the device's,
     * a subpage-format or unknown page, a wrong page length or a change outside the page's
     * changeable mask INVALID FIELD IN PARAMETER LIST at the field. Every page is checked before
     * any is applied; a change establishes MODE PARAMETERS CHANGED for the other nexuses.
     */
    static void modeSelect(Cmd c) throws ScsiException {
        boolean ten = (c.cdb[0] & 0xFF) == Opcode.MODE_SELECT_10;
        if ((c.cdb[1] & 0x10) == 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 4));
        }
        if ((c.cdb[1] & 0x01) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 0));
        }
        c.dataOut(ten ? c.field(7, 2) : c.cdb[4] & 0xFF, x -> select(x, ten));
    }

    private static void select(Cmd c, boolean ten) throws ScsiException {
        byte[] p = c.dataOutBytes();
        int header = ten ? 8 : 4;
        if (p.length < header) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
        }
        int bdLength = ten ? (int) Cdb.get(p, 6, 2) : p[3] & 0xFF;
        boolean longLba = ten && (p[4] & 1) != 0;
        int bdSize = longLba ? 16 : 8;
        if (header + bdLength > p.length) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
        }
        if (bdLength % bdSize != 0) {
            throw new ScsiException(Sense.invalidFieldInParameterList(ten ? 6 : 3, 7));
        }
        for (int d = header; d < header + bdLength; d += bdSize) {
            int lenOff = longLba ? d + 12 : d + 5;
            if (Cdb.get(p, lenOff, longLba ? 4 : 3) != c.dev.blockSize()) {
                throw new ScsiException(Sense.invalidFieldInParameterList(lenOff, 7));
            }
        }
        List<byte[]> changes = new java.util.ArrayList<>();
        List<Page> targets = new java.util.ArrayList<>();
        for (int off = header + bdLength; off < p.length;) {
            if (off + 2 > p.length) {
                throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
            }
            if ((p[off] & 0x40) != 0) {
                throw new ScsiException(Sense.invalidFieldInParameterList(off, 6));
            }
            Page page = page(p[off] & 0x3F);
            if (page == null) {
                throw new ScsiException(Sense.invalidFieldInParameterList(off, 5));
            }
            byte[] current = page.get(c.dev, CURRENT);
            byte[] mask = page.get(c.dev, CHANGEABLE);
            if ((p[off + 1] & 0xFF) != current.length - 2) {
                throw new ScsiException(Sense.invalidFieldInParameterList(off + 1, 7));
            }
            if (off + current.length > p.length) {
                throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
            }
            byte[] wanted = java.util.Arrays.copyOfRange(p, off, off + current.length);
            for (int i = 2; i < current.length; i++) {
                int bad = (wanted[i] ^ current[i]) & ~mask[i] & 0xFF;
                if (bad != 0) {
                    throw new ScsiException(Sense.invalidFieldInParameterList(off + i, 31 - Integer.numberOfLeadingZeros(bad)));
                }
            }
            wanted[0] = current[0];
            if (!java.util.Arrays.equals(wanted, current)) {
                changes.add(wanted);
                targets.add(page);
            }
            off += current.length;
        }
        for (int i = 0; i < changes.size(); i++) {
            targets.get(i).set(c.dev, changes.get(i));
        }
        if (!changes.isEmpty()) {
            c.nexus.modeParametersChanged();
        }
    }
}
