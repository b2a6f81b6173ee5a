package org.rdma.target.internal.emul;

import java.nio.ByteBuffer;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.T10Pi;
import org.rdma.target.internal.device.ScsiDevice;
import org.rdma.target.internal.pi.Protection;
import org.rdma.target.internal.pi.Protection.ExpectedTags;

/**
 * SBC-3 medium access and capacity commands (LIO's {@code sbc_parse_cdb()},
 * {@code sbc_execute_rw()}, {@code sbc_emulate_readcapacity*()}, {@code compare_and_write}).
 * The checks run in LIO's order: stopped, write protected, protection fields, transfer length,
 * LBA range.
 */
final class Sbc {
    /** VPD 0xB0's MAXIMUM COMPARE AND WRITE LENGTH. */
    static final int MAX_COMPARE_AND_WRITE = 64;

    private Sbc() {
    }

    /** NOT READY, LOGICAL UNIT NOT READY, INITIALIZING COMMAND REQUIRED after a stop (SBC-3 4.20). */
    static void checkStarted(Cmd c) throws ScsiException {
        if (c.dev.stopped()) {
            throw new ScsiException(SenseKey.NOT_READY, Asc.LOGICAL_UNIT_NOT_READY_INITIALIZING_COMMAND_REQUIRED);
        }
    }

    /** DATA PROTECT, WRITE PROTECTED for a read-only device or LUN mapping. */
    static void checkWritable(Cmd c) throws ScsiException {
        if (c.writeProtected()) {
            throw new ScsiException(SenseKey.DATA_PROTECT, Asc.WRITE_PROTECTED);
        }
    }

    /**
     * A *PROTECT field (byte 1 bits 7:5) other than zero for a command that carries no protection
     * information here (WRITE SAME, COMPARE AND WRITE, ORWRITE): INVALID FIELD IN CDB, as SBC-3 4.22.2 asks
     * of a device formatted without it (LIO's {@code sbc_check_prot()}).
     */
    static void checkNoProtect(Cmd c) throws ScsiException {
        if ((c.cdb[1] & 0xE0) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 7));
        }
    }

    /**
     * The RDPROTECT, WRPROTECT or VRPROTECT field (bits 7:5 of byte 1, or of byte 10 in a 32-byte
     * CDB), checked as SBC-3 4.22 and LIO's {@code sbc_check_prot()} check it: other than zero on
     * a device without protection information or above {@code max} (the reserved values), INVALID
     * FIELD IN CDB at the field; other than zero in a 6- to 16-byte CDB on a type 2 device, INVALID
     * COMMAND OPERATION CODE (type 2 protection is reached through the 32-byte CDBs).
     */
    private static int protectField(Cmd c, ExpectedTags expected, int max) throws ScsiException {
        int at = expected != null ? 10 : 1;
        int protect = (c.cdb[at] & 0xFF) >> 5;
        if (protect == 0) {
            return 0;
        }
        int type = c.dev.protectionType();
        if (type == 0 || protect > max) {
            throw new ScsiException(Sense.invalidFieldInCdb(at, 7));
        }
        if (type == 2 && expected == null) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_COMMAND_OPERATION_CODE);
        }
        return protect;
    }

    /** The tags of a 32-byte CDB; its ADDITIONAL CDB LENGTH must be 18h. */
    private static ExpectedTags expectedTags(Cmd c) throws ScsiException {
        if ((c.cdb[7] & 0xFF) != 0x18) {
            throw new ScsiException(Sense.invalidFieldInCdb(7, 7));
        }
        return new ExpectedTags(c.field(20, 4), (int) c.field(24, 2), (int) c.field(26, 2));
    }

    /** LOGICAL BLOCK ADDRESS OUT OF RANGE unless {@code lba + blocks} stays within the capacity. */
    static void checkRange(Cmd c, long lba, long blocks) throws ScsiException {
        long capacity = c.dev.blockCount();
        if (lba < 0 || blocks < 0 || lba > capacity || blocks > capacity - lba) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE);
        }
    }

    /** A transfer longer than VPD 0xB0's MAXIMUM TRANSFER LENGTH: INVALID FIELD IN CDB at the length. */
    static void checkTransferLength(Cmd c, long blocks, int lengthOffset) throws ScsiException {
        if (blocks > c.dev.maxTransferBlocks()) {
            throw new ScsiException(Sense.invalidFieldInCdb(lengthOffset, 7));
        }
    }

    static void read6(Cmd c) throws ScsiException {
        long blocks = c.cdb[4] & 0xFF;
        read(c, c.field(1, 3) & 0x1F_FFFF, blocks == 0 ? 256 : blocks, 4, null);
    }

    static void read10(Cmd c) throws ScsiException {
        read(c, c.field(2, 4), c.field(7, 2), 7, null);
    }

    static void read12(Cmd c) throws ScsiException {
        read(c, c.field(2, 4), c.field(6, 4), 6, null);
    }

    static void read16(Cmd c) throws ScsiException {
        read(c, c.field(2, 8), c.field(10, 4), 10, null);
    }

    /** READ(32) (SBC-3 5.17), for type 2 protection. */
    static void read32(Cmd c) throws ScsiException {
        read(c, c.field(12, 8), c.field(28, 4), 28, expectedTags(c));
    }

    /**
     * READ: on a device with protection information the tuples are read too and checked as
     * RDPROTECT asks (000b checks them and strips them, as LIO's DIN_STRIP); with RDPROTECT other
     * than zero each block goes out followed by its tuple.
     */
    private static void read(Cmd c, long lba, long blocks, int lengthOffset, ExpectedTags expected) throws ScsiException {
        checkStarted(c);
        int rdprotect = protectField(c, expected, 5);
        checkTransferLength(c, blocks, lengthOffset);
        checkRange(c, lba, blocks);
        int bs = c.dev.blockSize();
        c.mediumIn(blocks * (bs + (rdprotect != 0 ? T10Pi.TUPLE_BYTES : 0)), x -> {
            ByteBuffer out = x.data().clear();
            int type = x.dev.protectionType();
            if (type == 0) {
                x.dev.read(lba, out);
            } else {
                ByteBuffer data = rdprotect != 0 ? ByteBuffer.allocate((int) blocks * bs) : out;
                ByteBuffer pi = ByteBuffer.allocate((int) blocks * T10Pi.TUPLE_BYTES);
                x.dev.read(lba, data.duplicate());
                x.dev.readPi(lba, pi.duplicate());
                Protection.of(type, Protection.mediumChecks(rdprotect), lba, expected).verify(data, pi, bs, lba);
                if (rdprotect != 0) {
                    Protection.interleave(data, pi, bs, out);
                } else {
                    out.position(out.limit());
                }
            }
            x.produced(out.position());
        });
    }

    static void write6(Cmd c) throws ScsiException {
        long blocks = c.cdb[4] & 0xFF;
        write(c, c.field(1, 3) & 0x1F_FFFF, blocks == 0 ? 256 : blocks, 4, false, null);
    }

    static void write10(Cmd c) throws ScsiException {
        write(c, c.field(2, 4), c.field(7, 2), 7, (c.cdb[1] & Cdb.FUA) != 0, null);
    }

    static void write12(Cmd c) throws ScsiException {
        write(c, c.field(2, 4), c.field(6, 4), 6, (c.cdb[1] & Cdb.FUA) != 0, null);
    }

    static void write16(Cmd c) throws ScsiException {
        write(c, c.field(2, 8), c.field(10, 4), 10, (c.cdb[1] & Cdb.FUA) != 0, null);
    }

    /** WRITE(32) (SBC-3 5.41), for type 2 protection. */
    static void write32(Cmd c) throws ScsiException {
        write(c, c.field(12, 8), c.field(28, 4), 28, (c.cdb[10] & Cdb.FUA) != 0, expectedTags(c));
    }

    /** WRITE AND VERIFY(10) (SBC-3 5.42): the verify is of the medium, so the write is forced. */
    static void writeAndVerify10(Cmd c) throws ScsiException {
        write(c, c.field(2, 4), c.field(7, 2), 7, true, null);
    }

    static void writeAndVerify16(Cmd c) throws ScsiException {
        write(c, c.field(2, 8), c.field(10, 4), 10, true, null);
    }

    static void writeAndVerify32(Cmd c) throws ScsiException {
        write(c, c.field(12, 8), c.field(28, 4), 28, true, expectedTags(c));
    }

    /**
     * WRITE: on a device with protection information, WRPROTECT 000b has the device server
     * generate the tuples (LIO's DOUT_INSERT); another value brings each block followed by its
     * tuple, checked as WRPROTECT asks before anything is written.
     */
    private static void write(Cmd c, long lba, long blocks, int lengthOffset, boolean fua, ExpectedTags expected)
            throws ScsiException {
        checkStarted(c);
        checkWritable(c);
        int wrprotect = protectField(c, expected, 5);
        checkTransferLength(c, blocks, lengthOffset);
        checkRange(c, lba, blocks);
        int bs = c.dev.blockSize();
        c.dataOut(blocks * (bs + (wrprotect != 0 ? T10Pi.TUPLE_BYTES : 0)), x -> {
            int type = x.dev.protectionType();
            if (type == 0) {
                x.dev.write(lba, x.data().clear(), fua);
                return;
            }
            Protection p = Protection.of(type, Protection.dataOutChecks(wrprotect), lba, expected);
            if (wrprotect == 0) {
                ByteBuffer data = x.data().clear();
                x.dev.writeWithPi(lba, data, p.generate(data, bs), fua);
                return;
            }
            ByteBuffer[] split = Protection.split(x.data().clear(), bs);
            p.verify(split[0], split[1], bs, lba);
            x.dev.writeWithPi(lba, split[0], split[1], fua);
        });
    }

    static void verify10(Cmd c) throws ScsiException {
        verify(c, c.field(2, 4), c.field(7, 2), 7, null);
    }

    static void verify16(Cmd c) throws ScsiException {
        verify(c, c.field(2, 8), c.field(10, 4), 10, null);
    }

    /** VERIFY(32) (SBC-3 5.36), for type 2 protection. */
    static void verify32(Cmd c) throws ScsiException {
        verify(c, c.field(12, 8), c.field(28, 4), 28, expectedTags(c));
    }

    /**
     * VERIFY (SBC-3 5.33): BYTCHK 00b checks the medium only, 01b compares the data-out buffer
     * with the blocks, 11b compares one block of data-out with each block; 10b is reserved. A
     * difference answers MISCOMPARE, MISCOMPARE DURING VERIFY OPERATION with the INFORMATION field
     * set to the offset of the first differing byte. With protection information the medium's
     * tuples are checked as VRPROTECT asks; with VRPROTECT other than zero and BYTCHK, each block
     * of data-out comes with a tuple, checked too, and the offset counts the tuples.
     */
    private static void verify(Cmd c, long lba, long blocks, int lengthOffset, ExpectedTags expected) throws ScsiException {
        checkStarted(c);
        int vrprotect = protectField(c, expected, 4);
        int bytchk = c.cdb[expected != null ? 10 : 1] >> 1 & 3;
        if (bytchk == 2) {
            throw new ScsiException(Sense.invalidFieldInCdb(expected != null ? 10 : 1, 2));
        }
        checkTransferLength(c, blocks, lengthOffset);
        checkRange(c, lba, blocks);
        int bs = c.dev.blockSize();
        int unit = bs + (vrprotect != 0 ? T10Pi.TUPLE_BYTES : 0);
        Exec medium = x -> {
            ByteBuffer data = ByteBuffer.allocate((int) (blocks * bs));
            x.dev.read(lba, data.duplicate());
            int type = x.dev.protectionType();
            if (type != 0) {
                ByteBuffer pi = ByteBuffer.allocate((int) blocks * T10Pi.TUPLE_BYTES);
                x.dev.readPi(lba, pi.duplicate());
                Protection.of(type, Protection.mediumChecks(vrprotect), lba, expected).verify(data, pi, bs, lba);
            }
            if (bytchk == 0) {
                return;
            }
            ByteBuffer out = x.data().clear();
            if (vrprotect != 0) {
                ByteBuffer[] split = Protection.split(out, bs);
                Protection.of(type, Protection.dataOutChecks(vrprotect), lba, expected).verify(split[0], split[1], bs, lba);
                out = split[0];
            }
            for (int i = 0; i < data.capacity(); i++) {
                int o = bytchk == 1 ? i : i % bs;
                if (data.get(i) != out.get(o)) {
                    throw new ScsiException(Sense.of(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION)
                            .withInformation(vrprotect != 0 ? o / bs * unit + o % bs : i));
                }
            }
        };
        if (bytchk == 0 || blocks == 0) {
            c.noData(medium);
        } else {
            c.dataOut(bytchk == 1 ? blocks * unit : unit, medium);
        }
    }

    /**
     * COMPARE AND WRITE (SBC-3 5.2): the data-out buffer holds the verify blocks then the write
     * blocks; the compare and the write run under the device's exclusive lock, so no other write
     * lands between them. A difference answers MISCOMPARE with the offset of the first differing
     * byte and writes nothing.
     */
    static void compareAndWrite(Cmd c) throws ScsiException {
        checkStarted(c);
        checkWritable(c);
        checkNoProtect(c);
        long lba = c.field(2, 8);
        int blocks = c.cdb[13] & 0xFF;
        if (blocks > MAX_COMPARE_AND_WRITE) {
            throw new ScsiException(Sense.invalidFieldInCdb(13, 7));
        }
        checkRange(c, lba, blocks);
        boolean fua = (c.cdb[1] & Cdb.FUA) != 0;
        int len = blocks * c.dev.blockSize();
        c.dataOut(2L * len, x -> {
            ScsiDevice dev = x.dev;
            dev.atomicLock().writeLock().lock();
            try {
                ByteBuffer medium = ByteBuffer.allocate(len);
                dev.read(lba, medium);
                ByteBuffer data = x.data().clear();
                for (int i = 0; i < len; i++) {
                    if (medium.get(i) != data.get(i)) {
                        throw new ScsiException(Sense.of(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION)
                                .withInformation(i));
                    }
                }
                dev.writeLocked(lba, data.position(len).slice(), fua);
            } finally {
                dev.atomicLock().writeLock().unlock();
            }
        });
    }

    /**
     * ORWRITE(16) (SBC-3 5.12): each block becomes the OR of itself and the data-out, under the
     * device's exclusive lock as COMPARE AND WRITE, so no write lands between the read and the
     * write. ORPROTECT is refused (INVALID FIELD IN CDB) where there is no protection information
     * and, not carrying tuples, where there is; a TRANSFER LENGTH of zero does nothing.
     */
    static void orwrite(Cmd c) throws ScsiException {
        checkStarted(c);
        checkWritable(c);
        checkNoProtect(c);
        long lba = c.field(2, 8);
        long blocks = c.field(10, 4);
        checkTransferLength(c, blocks, 10);
        checkRange(c, lba, blocks);
        boolean fua = (c.cdb[1] & Cdb.FUA) != 0;
        c.dataOut(blocks * c.dev.blockSize(), x -> {
            ScsiDevice dev = x.dev;
            ByteBuffer data = x.data().clear();
            dev.atomicLock().writeLock().lock();
            try {
                ByteBuffer medium = ByteBuffer.allocate(data.remaining());
                dev.read(lba, medium.duplicate());
                for (int i = 0; i < medium.capacity(); i++) {
                    medium.put(i, (byte) (medium.get(i) | data.get(i)));
                }
                dev.writeLocked(lba, medium, fua);
            } finally {
                dev.atomicLock().writeLock().unlock();
            }
        });
    }

    static void synchronizeCache10(Cmd c) throws ScsiException {
        synchronizeCache(c, c.field(2, 4), c.field(7, 2));
    }

    static void synchronizeCache16(Cmd c) throws ScsiException {
        synchronizeCache(c, c.field(2, 8), c.field(10, 4));
    }

    /**
     * SYNCHRONIZE CACHE (SBC-3 5.22): forces the whole backstore (a range is no cheaper with
     * {@code FileChannel.force}); IMMED is honoured by not using it: status follows the force.
     */
    private static void synchronizeCache(Cmd c, long lba, long blocks) throws ScsiException {
        checkStarted(c);
        checkRange(c, lba, blocks);
        c.noData(x -> x.dev.flush());
    }

    /** READ CAPACITY(10) (SBC-3 5.15): last LBA (0xFFFFFFFF when larger) and block length. */
    static void readCapacity10(Cmd c) throws ScsiException {
        checkPmi(c, c.field(2, 4), (c.cdb[8] & 1) != 0, 2);
        c.dataIn(8, x -> {
            byte[] b = new byte[8];
            Cdb.put(b, 0, Math.min(x.dev.blockCount() - 1, 0xFFFF_FFFFL), 4);
            Cdb.put(b, 4, x.dev.blockSize(), 4);
            x.respond(b);
        });
    }

    /**
     * READ CAPACITY(16) (SBC-3 5.16): last LBA, block length, P_TYPE and PROT_EN for the
     * protection information type, one logical block per physical block, LBPME and LBPRZ when thin
     * provisioned.
     */
    static void readCapacity16(Cmd c) throws ScsiException {
        checkPmi(c, c.field(2, 8), (c.cdb[14] & 1) != 0, 2);
        c.dataIn(c.field(10, 4), x -> {
            byte[] b = new byte[32];
            Cdb.put(b, 0, x.dev.blockCount() - 1, 8);
            Cdb.put(b, 8, x.dev.blockSize(), 4);
            int type = x.dev.protectionType();
            if (type != 0) {
                b[12] = (byte) ((type - 1) << 1 | 1);
            }
            if (x.dev.thin()) {
                b[14] = (byte) 0xC0;
            }
            x.respond(b);
        });
    }

    /** PMI zero with an LBA other than zero: INVALID FIELD IN CDB at the LBA (SBC-3 5.15.1). */
    private static void checkPmi(Cmd c, long lba, boolean pmi, int lbaOffset) throws ScsiException {
        if (!pmi && lba != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(lbaOffset, 7));
        }
    }

    /**
     * START STOP UNIT (SBC-3 5.25): START starts or stops the unit; power conditions are not
     * supported (INVALID FIELD IN CDB); ejecting while removal is prevented answers ILLEGAL
     * REQUEST, MEDIUM REMOVAL PREVENTED.
     */
    static void startStopUnit(Cmd c) throws ScsiException {
        if ((c.cdb[4] & 0xF0) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(4, 7));
        }
        if ((c.cdb[3] & 0x0F) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(3, 3));
        }
        boolean loej = (c.cdb[4] & 2) != 0;
        boolean start = (c.cdb[4] & 1) != 0;
        if (start) {
            // SBC-3's table of commands under reservations: starting the unit is always allowed.
            c.setAccess(org.rdma.target.internal.pr.Access.ALLOWED);
        }
        c.noData(x -> {
            if (loej && !start && x.dev.removalPrevented()) {
                throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.MEDIUM_REMOVAL_PREVENTED);
            }
            x.dev.setStopped(!start);
        });
    }
}
