package org.rdma.target.internal.emul;

import java.nio.ByteBuffer;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;

/**
 * Logical block provisioning (SBC-3 4.7): WRITE SAME with and without UNMAP, UNMAP and GET LBA
 * STATUS; LIO's {@code sbc_setup_write_same()}, {@code sbc_execute_unmap()} and
 * {@code sbc_emulate_get_lba_status()}.
 */
final class Provisioning {
    /** PROVISIONING STATUS of GET LBA STATUS descriptors (SBC-3 5.8.2). */
    static final int MAPPED = 0, DEALLOCATED = 1;
    private static final int WS_ANCHOR = 0x10, WS_PBDATA = 0x04, WS_LBDATA = 0x02;
    /** How many blocks of WRITE SAME data one backstore write carries. */
    private static final int WS_CHUNK_BYTES = 1 << 20;

    private Provisioning() {
    }

    static void writeSame10(Cmd c) throws ScsiException {
        writeSame(c, c.field(2, 4), c.field(7, 2), 7);
    }

    static void writeSame16(Cmd c) throws ScsiException {
        writeSame(c, c.field(2, 8), c.field(10, 4), 10);
    }

    /**
     * WRITE SAME (SBC-3 5.45): one block of data-out written to every block of the range. ANCHOR
     * (not supported: ANC_SUP is 0), PBDATA and LBDATA (no protection information) and a
     * NUMBER OF LOGICAL BLOCKS of zero (WSNZ is 1) or above the maximum answer INVALID FIELD IN
     * CDB. With UNMAP on a thin device a block of zeros deallocates the range, which then reads
     * as zeros (LBPRZ); other data is written.
     */
    private static void writeSame(Cmd c, long lba, long blocks, int lengthOffset) throws ScsiException {
        Sbc.checkStarted(c);
        Sbc.checkWritable(c);
        Sbc.checkNoProtect(c);
        int flags = c.cdb[1];
        if ((flags & WS_ANCHOR) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 4));
        }
        if ((flags & (WS_PBDATA | WS_LBDATA)) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, (flags & WS_PBDATA) != 0 ? 2 : 1));
        }
        if (blocks == 0 || blocks > c.dev.attributes().maxWriteSameBlocks()) {
            throw new ScsiException(Sense.invalidFieldInCdb(lengthOffset, 7));
        }
        Sbc.checkRange(c, lba, blocks);
        boolean unmap = (flags & Cdb.WS_UNMAP) != 0 && c.dev.thin();
        int bs = c.dev.blockSize();
        c.dataOut(bs, x -> {
            byte[] block = x.dataOutBytes();
            if (unmap && isZero(block)) {
                x.dev.unmap(lba, blocks);
                return;
            }
            int perChunk = (int) Math.min(blocks, WS_CHUNK_BYTES / bs);
            ByteBuffer chunk = ByteBuffer.allocate(perChunk * bs);
            for (int i = 0; i < perChunk; i++) {
                chunk.put(block);
            }
            for (long done = 0; done < blocks; done += perChunk) {
                int n = (int) Math.min(perChunk, blocks - done);
                x.dev.write(lba + done, chunk.clear().limit(n * bs), false);
            }
        });
    }

    private static boolean isZero(byte[] b) {
        for (byte v : b) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * UNMAP (SBC-3 5.28): ANCHOR answers INVALID FIELD IN CDB; an empty parameter list does
     * nothing; one shorter than its
     * 8-byte header PARAMETER LIST LENGTH ERROR; more block descriptors or blocks than VPD 0xB0
     * allows INVALID FIELD IN PARAMETER LIST at the field; a range beyond the capacity LOGICAL
     * BLOCK ADDRESS OUT OF RANGE. Every descriptor is checked before any block is deallocated.
     */
    static void unmap(Cmd c) throws ScsiException {
        Sbc.checkStarted(c);
        Sbc.checkWritable(c);
        if ((c.cdb[1] & 1) != 0) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 0));
        }
        long length = c.field(7, 2);
        if (length == 0) {
            c.noData(x -> {
            });
            return;
        }
        c.dataOut(length, x -> {
            byte[] p = x.dataOutBytes();
            if (p.length < 8) {
                throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
            }
            int bdLength = (int) Math.min(Cdb.get(p, 2, 2), p.length - 8) & ~15;
            int n = bdLength / 16;
            if (n > x.dev.attributes().maxUnmapBlockDescriptors()) {
                throw new ScsiException(Sense.invalidFieldInParameterList(2, 7));
            }
            for (int i = 0; i < n; i++) {
                long count = Cdb.get(p, 16 + 16 * i, 4);
                if (count > x.dev.attributes().maxUnmapLbaCount()) {
                    throw new ScsiException(Sense.invalidFieldInParameterList(16 + 16 * i, 7));
                }
                Sbc.checkRange(x, Cdb.get(p, 8 + 16 * i, 8), count);
            }
            for (int i = 0; i < n; i++) {
                long count = Cdb.get(p, 16 + 16 * i, 4);
                if (count > 0) {
                    x.dev.unmap(Cdb.get(p, 8 + 16 * i, 8), count);
                }
            }
        });
    }

    /**
     * GET LBA STATUS (SBC-3 5.8): descriptors of runs of mapped and deallocated blocks from the
     * STARTING LBA, as many as the allocation length holds (at least one); an LBA beyond the last
     * answers LOGICAL BLOCK ADDRESS OUT OF RANGE.
     */
    static void getLbaStatus(Cmd c) throws ScsiException {
        long start = c.field(2, 8);
        if (start >= c.dev.blockCount() || start < 0) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.LOGICAL_BLOCK_ADDRESS_OUT_OF_RANGE);
        }
        long alloc = c.field(10, 4);
        c.dataIn(alloc, x -> {
            int max = (int) Math.max(1, Math.min((x.length() - 8) / 16, 64));
            var store = x.dev.backstore();
            ByteBuffer b = ByteBuffer.allocate(8 + 16 * max);
            b.position(8);
            long lba = start;
            int n = 0;
            while (n < max && lba < x.dev.blockCount()) {
                long left = x.dev.blockCount() - lba;
                long run = Math.min(x.dev.thin() ? store.runLength(lba, left) : left, 0xFFFF_FFFFL);
                b.putLong(lba).putInt((int) run).put((byte) (x.dev.thin() && !store.isMapped(lba) ? DEALLOCATED : MAPPED))
                        .put(new byte[3]);
                lba += run;
                n++;
            }
            b.putInt(0, 4 + 16 * n);
            x.respond(java.util.Arrays.copyOf(b.array(), 8 + 16 * n));
        });
    }
}
