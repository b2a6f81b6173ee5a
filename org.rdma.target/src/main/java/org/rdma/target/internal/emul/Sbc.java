package org.rdma.target.internal.emul;

import java.nio.ByteBuffer;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.device.ScsiDevice;

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
     * RDPROTECT/WRPROTECT/VRPROTECT (byte 1 bits 7:5) other than zero on a device formatted
     * without protection information: INVALID FIELD IN CDB (SBC-3 4.22.2; LIO's {@code sbc_check_prot()}).
     */
    static void checkNoProtect(Cmd c) throws ScsiException {
        if ((c.cdb[1] & 0xE0) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 7));
        }
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
        read(c, c.field(1, 3) & 0x1F_FFFF, blocks == 0 ? 256 : blocks, 4);
    }

    static void read10(Cmd c) throws ScsiException {
        read(c, c.field(2, 4), c.field(7, 2), 7);
    }

    static void read12(Cmd c) throws ScsiException {
        read(c, c.field(2, 4), c.field(6, 4), 6);
    }

    static void read16(Cmd c) throws ScsiException {
        read(c, c.field(2, 8), c.field(10, 4), 10);
    }

    private static void read(Cmd c, long lba, long blocks, int lengthOffset) throws ScsiException {
        checkStarted(c);
        checkNoProtect(c);
        checkTransferLength(c, blocks, lengthOffset);
        checkRange(c, lba, blocks);
        c.dataIn(blocks * c.dev.blockSize(), x -> {
            ByteBuffer b = x.data().clear();
            x.dev.read(lba, b);
            x.produced(b.position());
        });
    }

    static void write6(Cmd c) throws ScsiException {
        long blocks = c.cdb[4] & 0xFF;
        write(c, c.field(1, 3) & 0x1F_FFFF, blocks == 0 ? 256 : blocks, 4, false);
    }

    static void write10(Cmd c) throws ScsiException {
        write(c, c.field(2, 4), c.field(7, 2), 7, (c.cdb[1] & Cdb.FUA) != 0);
    }

    static void write12(Cmd c) throws ScsiException {
        write(c, c.field(2, 4), c.field(6, 4), 6, (c.cdb[1] & Cdb.FUA) != 0);
    }

    static void write16(Cmd c) throws ScsiException {
        write(c, c.field(2, 8), c.field(10, 4), 10, (c.cdb[1] & Cdb.FUA) != 0);
    }

    /** WRITE AND VERIFY(10) (SBC-3 5.42): the verify is of the medium, so the write is forced. */
    static void writeAndVerify10(Cmd c) throws ScsiException {
        write(c, c.field(2, 4), c.field(7, 2), 7, true);
    }

    static void writeAndVerify16(Cmd c) throws ScsiException {
        write(c, c.field(2, 8), c.field(10, 4), 10, true);
    }

    private static void write(Cmd c, long lba, long blocks, int lengthOffset, boolean fua) throws ScsiException {
        checkStarted(c);
        checkWritable(c);
        checkNoProtect(c);
        checkTransferLength(c, blocks, lengthOffset);
        checkRange(c, lba, blocks);
        c.dataOut(blocks * c.dev.blockSize(), x -> x.dev.write(lba, x.data().clear(), fua));
    }

    static void verify10(Cmd c) throws ScsiException {
        verify(c, c.field(2, 4), c.field(7, 2), 7);
    }

    static void verify16(Cmd c) throws ScsiException {
        verify(c, c.field(2, 8), c.field(10, 4), 10);
    }

    /**
     * VERIFY (SBC-3 5.33): BYTCHK 00b checks the medium only, 01b compares the data-out buffer
     * with the blocks, 11b compares one block of data-out with each block; 10b is reserved. A
     * difference answers MISCOMPARE, MISCOMPARE DURING VERIFY OPERATION with the INFORMATION field
     * set to the offset of the first differing byte.
     */
    private static void verify(Cmd c, long lba, long blocks, int lengthOffset) throws ScsiException {
        checkStarted(c);
        checkNoProtect(c);
        int bytchk = c.cdb[1] >> 1 & 3;
        if (bytchk == 2) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 2));
        }
        checkTransferLength(c, blocks, lengthOffset);
        checkRange(c, lba, blocks);
        int bs = c.dev.blockSize();
        if (bytchk == 0 || blocks == 0) {
            c.noData(x -> {
            });
            return;
        }
        c.dataOut(bytchk == 1 ? blocks * bs : bs, x -> {
            ByteBuffer medium = ByteBuffer.allocate((int) (blocks * bs));
            x.dev.read(lba, medium);
            byte[] out = x.dataOutBytes();
            for (int i = 0; i < medium.capacity(); i++) {
                if (medium.get(i) != out[bytchk == 1 ? i : i % bs]) {
                    throw new ScsiException(Sense.of(SenseKey.MISCOMPARE, Asc.MISCOMPARE_DURING_VERIFY_OPERATION)
                            .withInformation(i));
                }
            }
        });
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
     * READ CAPACITY(16) (SBC-3 5.16): last LBA, block length, no protection, one logical block
     * per physical block, LBPME and LBPRZ when thin provisioned.
     */
    static void readCapacity16(Cmd c) throws ScsiException {
        checkPmi(c, c.field(2, 8), (c.cdb[14] & 1) != 0, 2);
        c.dataIn(c.field(10, 4), x -> {
            byte[] b = new byte[32];
            Cdb.put(b, 0, x.dev.blockCount() - 1, 8);
            Cdb.put(b, 8, x.dev.blockSize(), 4);
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
        c.noData(x -> {
            if (loej && !start && x.dev.removalPrevented()) {
                throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.MEDIUM_REMOVAL_PREVENTED);
            }
            x.dev.setStopped(!start);
        });
    }
}
