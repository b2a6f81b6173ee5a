package org.rdma.scsi;

/**
 * Builders of the CDBs initiators send and the target's tests drive it with (SPC-4 6, SBC-3 5),
 * laid out field by field as the standards' tables do, control byte 0; and the big-endian field
 * accessors every CDB parser needs.
 */
public final class Cdb {
    /** DPO, byte 1 bit 4 of the READ/WRITE(10/12/16) family (SBC-3 5.9). */
    public static final int DPO = 0x10;
    /** FUA, byte 1 bit 3 of the READ/WRITE(10/12/16) family and COMPARE AND WRITE. */
    public static final int FUA = 0x08;
    /** UNMAP, byte 1 bit 3 of WRITE SAME(10/16) (SBC-3 5.45). */
    public static final int WS_UNMAP = 0x08;

    private Cdb() {
    }

    private static byte[] cdb(int opcode, int length) {
        byte[] c = new byte[length];
        c[0] = (byte) opcode;
        return c;
    }

    /** TEST UNIT READY (SPC-4 6.47). */
    public static byte[] testUnitReady() {
        return cdb(Opcode.TEST_UNIT_READY, 6);
    }

    /** REQUEST SENSE (SPC-4 6.39): {@code desc} asks for descriptor-format sense. */
    public static byte[] requestSense(boolean desc, int allocationLength) {
        byte[] c = cdb(Opcode.REQUEST_SENSE, 6);
        c[1] = (byte) (desc ? 1 : 0);
        c[4] = (byte) checkWidth(allocationLength, 8, "allocation length");
        return c;
    }

    /** INQUIRY (SPC-4 6.6): standard data when {@code evpd} is false, else VPD page {@code page}. */
    public static byte[] inquiry(boolean evpd, int page, int allocationLength) {
        byte[] c = cdb(Opcode.INQUIRY, 6);
        c[1] = (byte) (evpd ? 1 : 0);
        c[2] = (byte) checkWidth(page, 8, "page code");
        put(c, 3, checkWidth(allocationLength, 16, "allocation length"), 2);
        return c;
    }

    /** REPORT LUNS (SPC-4 6.33). */
    public static byte[] reportLuns(int selectReport, long allocationLength) {
        byte[] c = cdb(Opcode.REPORT_LUNS, 12);
        c[2] = (byte) checkWidth(selectReport, 8, "select report");
        put(c, 6, checkWidth(allocationLength, 32, "allocation length"), 4);
        return c;
    }

    /** READ(6) (SBC-3 5.10): a transfer length of 0 means 256 blocks. */
    public static byte[] read6(long lba, int blocks) {
        return rw6(Opcode.READ_6, lba, blocks);
    }

    /** WRITE(6) (SBC-3 5.37). */
    public static byte[] write6(long lba, int blocks) {
        return rw6(Opcode.WRITE_6, lba, blocks);
    }

    private static byte[] rw6(int opcode, long lba, int blocks) {
        byte[] c = cdb(opcode, 6);
        put(c, 1, checkWidth(lba, 21, "LBA"), 3);
        c[4] = (byte) checkWidth(blocks == 256 ? 0 : blocks, 8, "transfer length");
        return c;
    }

    /** READ(10) (SBC-3 5.11); {@code flags} is byte 1 (RDPROTECT, {@link #DPO}, {@link #FUA}). */
    public static byte[] read10(long lba, int blocks, int flags) {
        return lba32(Opcode.READ_10, 10, flags, lba, 7, blocks, 2);
    }

    /** WRITE(10) (SBC-3 5.38). */
    public static byte[] write10(long lba, int blocks, int flags) {
        return lba32(Opcode.WRITE_10, 10, flags, lba, 7, blocks, 2);
    }

    /** READ(12) (SBC-3 5.12). */
    public static byte[] read12(long lba, long blocks, int flags) {
        return lba32(Opcode.READ_12, 12, flags, lba, 6, blocks, 4);
    }

    /** WRITE(12) (SBC-3 5.39). */
    public static byte[] write12(long lba, long blocks, int flags) {
        return lba32(Opcode.WRITE_12, 12, flags, lba, 6, blocks, 4);
    }

    /** READ(16) (SBC-3 5.13). */
    public static byte[] read16(long lba, long blocks, int flags) {
        return lba64(Opcode.READ_16, flags, lba, blocks);
    }

    /** WRITE(16) (SBC-3 5.40). */
    public static byte[] write16(long lba, long blocks, int flags) {
        return lba64(Opcode.WRITE_16, flags, lba, blocks);
    }

    /** VERIFY(10) (SBC-3 5.33); {@code bytchk} 0 (medium only), 1 (compare) or 3 (one block against each). */
    public static byte[] verify10(long lba, int blocks, int bytchk) {
        return lba32(Opcode.VERIFY_10, 10, checkWidth(bytchk, 2, "BYTCHK") << 1, lba, 7, blocks, 2);
    }

    /** VERIFY(16) (SBC-3 5.35). */
    public static byte[] verify16(long lba, long blocks, int bytchk) {
        return lba64(Opcode.VERIFY_16, checkWidth(bytchk, 2, "BYTCHK") << 1, lba, blocks);
    }

    /** WRITE AND VERIFY(10) (SBC-3 5.42). */
    public static byte[] writeAndVerify10(long lba, int blocks) {
        return lba32(Opcode.WRITE_AND_VERIFY_10, 10, 0, lba, 7, blocks, 2);
    }

    /** WRITE AND VERIFY(16) (SBC-3 5.44). */
    public static byte[] writeAndVerify16(long lba, long blocks) {
        return lba64(Opcode.WRITE_AND_VERIFY_16, 0, lba, blocks);
    }

    /** WRITE SAME(10) (SBC-3 5.45); {@code flags} is byte 1 ({@link #WS_UNMAP}, ANCHOR...). */
    public static byte[] writeSame10(long lba, int blocks, int flags) {
        return lba32(Opcode.WRITE_SAME_10, 10, flags, lba, 7, blocks, 2);
    }

    /** WRITE SAME(16) (SBC-3 5.46). */
    public static byte[] writeSame16(long lba, long blocks, int flags) {
        return lba64(Opcode.WRITE_SAME_16, flags, lba, blocks);
    }

    /** SYNCHRONIZE CACHE(10) (SBC-3 5.22); 0 blocks means to the end of the medium. */
    public static byte[] synchronizeCache10(long lba, int blocks) {
        return lba32(Opcode.SYNCHRONIZE_CACHE_10, 10, 0, lba, 7, blocks, 2);
    }

    /** SYNCHRONIZE CACHE(16) (SBC-3 5.23). */
    public static byte[] synchronizeCache16(long lba, long blocks) {
        return lba64(Opcode.SYNCHRONIZE_CACHE_16, 0, lba, blocks);
    }

    /** COMPARE AND WRITE (SBC-3 5.2): the data-out buffer holds the verify then the write blocks. */
    public static byte[] compareAndWrite(long lba, int blocks, int flags) {
        byte[] c = cdb(Opcode.COMPARE_AND_WRITE, 16);
        c[1] = (byte) checkWidth(flags, 8, "flags");
        put(c, 2, lba, 8);
        c[13] = (byte) checkWidth(blocks, 8, "number of logical blocks");
        return c;
    }

    /** UNMAP (SBC-3 5.28). */
    public static byte[] unmap(int parameterListLength) {
        byte[] c = cdb(Opcode.UNMAP, 10);
        put(c, 7, checkWidth(parameterListLength, 16, "parameter list length"), 2);
        return c;
    }

    /**
     * The UNMAP parameter list (SBC-3 5.28.2): its header and one 16-byte block descriptor per
     * {@code lba, blocks} pair.
     */
    public static byte[] unmapParameterList(long... lbaBlockPairs) {
        if (lbaBlockPairs.length % 2 != 0) {
            throw new IllegalArgumentException("EINVAL: UNMAP descriptors come as LBA, block count pairs");
        }
        int n = lbaBlockPairs.length / 2;
        byte[] p = new byte[8 + 16 * n];
        put(p, 0, p.length - 2, 2);
        put(p, 2, 16L * n, 2);
        for (int i = 0; i < n; i++) {
            put(p, 8 + 16 * i, lbaBlockPairs[2 * i], 8);
            put(p, 16 + 16 * i, checkWidth(lbaBlockPairs[2 * i + 1], 32, "number of logical blocks"), 4);
        }
        return p;
    }

    /** READ CAPACITY(10) (SBC-3 5.15). */
    public static byte[] readCapacity10() {
        return cdb(Opcode.READ_CAPACITY_10, 10);
    }

    /** READ CAPACITY(16) (SBC-3 5.16): SERVICE ACTION IN(16) with service action 0x10. */
    public static byte[] readCapacity16(int allocationLength) {
        return serviceActionIn16(Opcode.SAI_READ_CAPACITY_16, 0, allocationLength);
    }

    /** GET LBA STATUS (SBC-3 5.8). */
    public static byte[] getLbaStatus(long lba, int allocationLength) {
        return serviceActionIn16(Opcode.SAI_GET_LBA_STATUS, lba, allocationLength);
    }

    private static byte[] serviceActionIn16(int sa, long lba, long allocationLength) {
        byte[] c = cdb(Opcode.SERVICE_ACTION_IN_16, 16);
        c[1] = (byte) sa;
        put(c, 2, lba, 8);
        put(c, 10, checkWidth(allocationLength, 32, "allocation length"), 4);
        return c;
    }

    /**
     * MODE SENSE(6) (SPC-4 6.11).
     *
     * @param pc page control: 0 current, 1 changeable, 2 default, 3 saved
     */
    public static byte[] modeSense6(boolean dbd, int pc, int page, int subpage, int allocationLength) {
        byte[] c = cdb(Opcode.MODE_SENSE_6, 6);
        c[1] = (byte) (dbd ? 0x08 : 0);
        c[2] = (byte) (checkWidth(pc, 2, "PC") << 6 | checkWidth(page, 6, "page code"));
        c[3] = (byte) checkWidth(subpage, 8, "subpage code");
        c[4] = (byte) checkWidth(allocationLength, 8, "allocation length");
        return c;
    }

    /** MODE SENSE(10) (SPC-4 6.12); {@code llbaa} allows long LBA block descriptors. */
    public static byte[] modeSense10(boolean llbaa, boolean dbd, int pc, int page, int subpage, int allocationLength) {
        byte[] c = cdb(Opcode.MODE_SENSE_10, 10);
        c[1] = (byte) ((llbaa ? 0x10 : 0) | (dbd ? 0x08 : 0));
        c[2] = (byte) (checkWidth(pc, 2, "PC") << 6 | checkWidth(page, 6, "page code"));
        c[3] = (byte) checkWidth(subpage, 8, "subpage code");
        put(c, 7, checkWidth(allocationLength, 16, "allocation length"), 2);
        return c;
    }

    /** MODE SELECT(6) (SPC-4 6.9): PF page format, SP save pages. */
    public static byte[] modeSelect6(boolean pf, boolean sp, int parameterListLength) {
        byte[] c = cdb(Opcode.MODE_SELECT_6, 6);
        c[1] = (byte) ((pf ? 0x10 : 0) | (sp ? 1 : 0));
        c[4] = (byte) checkWidth(parameterListLength, 8, "parameter list length");
        return c;
    }

    /** MODE SELECT(10) (SPC-4 6.10). */
    public static byte[] modeSelect10(boolean pf, boolean sp, int parameterListLength) {
        byte[] c = cdb(Opcode.MODE_SELECT_10, 10);
        c[1] = (byte) ((pf ? 0x10 : 0) | (sp ? 1 : 0));
        put(c, 7, checkWidth(parameterListLength, 16, "parameter list length"), 2);
        return c;
    }

    /**
     * REPORT SUPPORTED OPERATION CODES (SPC-4 6.35).
     *
     * @param rctd return command timeouts descriptors
     * @param options REPORTING OPTIONS: 0 all, 1 one opcode, 2 one opcode and service action
     */
    public static byte[] reportSupportedOperationCodes(boolean rctd, int options, int opcode, int serviceAction,
            long allocationLength) {
        byte[] c = cdb(Opcode.MAINTENANCE_IN, 12);
        c[1] = Opcode.MI_REPORT_SUPPORTED_OPERATION_CODES;
        c[2] = (byte) ((rctd ? 0x80 : 0) | checkWidth(options, 3, "reporting options"));
        c[3] = (byte) checkWidth(opcode, 8, "requested operation code");
        put(c, 4, checkWidth(serviceAction, 16, "requested service action"), 2);
        put(c, 6, checkWidth(allocationLength, 32, "allocation length"), 4);
        return c;
    }

    /** REPORT SUPPORTED TASK MANAGEMENT FUNCTIONS (SPC-4 6.36); {@code repd} asks for extended data. */
    public static byte[] reportSupportedTaskManagementFunctions(boolean repd, long allocationLength) {
        byte[] c = cdb(Opcode.MAINTENANCE_IN, 12);
        c[1] = Opcode.MI_REPORT_SUPPORTED_TASK_MANAGEMENT_FUNCTIONS;
        c[2] = (byte) (repd ? 0x80 : 0);
        put(c, 6, checkWidth(allocationLength, 32, "allocation length"), 4);
        return c;
    }

    /** START STOP UNIT (SBC-3 5.25). */
    public static byte[] startStopUnit(boolean immed, boolean loej, boolean start) {
        byte[] c = cdb(Opcode.START_STOP_UNIT, 6);
        c[1] = (byte) (immed ? 1 : 0);
        c[4] = (byte) ((loej ? 2 : 0) | (start ? 1 : 0));
        return c;
    }

    /** PREVENT ALLOW MEDIUM REMOVAL (SBC-3 5.9 / SPC-4 6.13); {@code prevent} is the 2-bit field. */
    public static byte[] preventAllowMediumRemoval(int prevent) {
        byte[] c = cdb(Opcode.PREVENT_ALLOW_MEDIUM_REMOVAL, 6);
        c[4] = (byte) checkWidth(prevent, 2, "PREVENT");
        return c;
    }

    /** PERSISTENT RESERVE IN (SPC-4 6.15). */
    public static byte[] persistentReserveIn(int serviceAction, int allocationLength) {
        byte[] c = cdb(Opcode.PERSISTENT_RESERVE_IN, 10);
        c[1] = (byte) checkWidth(serviceAction, 5, "service action");
        put(c, 7, checkWidth(allocationLength, 16, "allocation length"), 2);
        return c;
    }

    /** PERSISTENT RESERVE OUT (SPC-4 6.16); {@code type} the reservation type, scope LU. */
    public static byte[] persistentReserveOut(int serviceAction, int type, long parameterListLength) {
        byte[] c = cdb(Opcode.PERSISTENT_RESERVE_OUT, 10);
        c[1] = (byte) checkWidth(serviceAction, 5, "service action");
        c[2] = (byte) checkWidth(type, 4, "type");
        put(c, 5, checkWidth(parameterListLength, 32, "parameter list length"), 4);
        return c;
    }

    /** RESERVE(6) (SPC-2 7.21, obsolete in SPC-4 but still sent by initiators). */
    public static byte[] reserve6() {
        return cdb(Opcode.RESERVE_6, 6);
    }

    /** RELEASE(6) (SPC-2 7.19). */
    public static byte[] release6() {
        return cdb(Opcode.RELEASE_6, 6);
    }

    /** RESERVE(10) (SPC-2 7.22), no third-party reservation. */
    public static byte[] reserve10() {
        return cdb(Opcode.RESERVE_10, 10);
    }

    /** RELEASE(10) (SPC-2 7.20). */
    public static byte[] release10() {
        return cdb(Opcode.RELEASE_10, 10);
    }

    private static byte[] lba32(int opcode, int len, int flags, long lba, int lenOff, long blocks, int lenBytes) {
        byte[] c = cdb(opcode, len);
        c[1] = (byte) checkWidth(flags, 8, "flags");
        put(c, 2, checkWidth(lba, 32, "LBA"), 4);
        put(c, lenOff, checkWidth(blocks, 8 * lenBytes, "transfer length"), lenBytes);
        return c;
    }

    private static byte[] lba64(int opcode, int flags, long lba, long blocks) {
        byte[] c = cdb(opcode, 16);
        c[1] = (byte) checkWidth(flags, 8, "flags");
        put(c, 2, lba, 8);
        put(c, 10, checkWidth(blocks, 32, "transfer length"), 4);
        return c;
    }

    private static long checkWidth(long v, int bits, String what) {
        if (v < 0 || (bits < 64 && v >>> bits != 0)) {
            throw new IllegalArgumentException("EINVAL: " + what + " " + v + " does not fit " + bits + " bits");
        }
        return v;
    }

    private static int checkWidth(int v, int bits, String what) {
        return (int) checkWidth((long) v, bits, what);
    }

    /** Writes {@code v} big-endian into {@code n} bytes at {@code off}. */
    public static void put(byte[] b, int off, long v, int n) {
        Sense.putBe(b, off, v, n);
    }

    /** Reads {@code n} (at most 8) big-endian bytes at {@code off} as an unsigned value. */
    public static long get(byte[] b, int off, int n) {
        return Sense.getBe(b, off, n);
    }
}
