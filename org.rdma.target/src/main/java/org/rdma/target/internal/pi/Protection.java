package org.rdma.target.internal.pi;

import java.nio.ByteBuffer;
import org.rdma.scsi.Asc;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.T10Pi;

/**
 * The protection information one command works with (SBC-3 4.22.3): the checks it makes and
 * the tags it expects or writes. The reference tag of the block at {@code i} blocks from the
 * command's first is {@code referenceSeed + i} (modulo 2^32): for type 1 the seed is the LBA, for
 * type 2 the EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG of a 32-byte CDB; type 3 checks no
 * reference tag. The application tag is checked only where a 32-byte CDB gives it with a mask.
 *
 * @param type the DIF type, 1 to 3
 * @param checks {@link #GUARD}, {@link #APPLICATION}, {@link #REFERENCE}, as the type allows
 * @param applicationTag the expected application tag, and the one written when generating
 * @param applicationTagMask the bits of the application tag to check; zero checks none
 */
public record Protection(int type, int checks, long referenceSeed, int applicationTag, int applicationTagMask) {
    public static final int GUARD = 1, APPLICATION = 2, REFERENCE = 4;

    /**
     * The checks of the protection information on the medium for RDPROTECT (SBC-3 table 105) and
     * VRPROTECT (table 123): 000b, 001b and 101b all three, 010b the tags, 011b none, 100b the guard.
     */
    public static int mediumChecks(int protect) {
        return switch (protect) {
            case 0, 1, 5 -> GUARD | APPLICATION | REFERENCE;
            case 2 -> APPLICATION | REFERENCE;
            case 3 -> 0;
            case 4 -> GUARD;
            default -> throw new IllegalArgumentException("EINVAL: protect field " + protect);
        };
    }

    /**
     * The checks of the protection information in the data-out buffer for WRPROTECT (SBC-3 table
     * 118; VRPROTECT with BYTCHK likewise): 000b has none to check, 001b and 101b all three, 010b
     * the tags, 011b none, 100b the guard.
     */
    public static int dataOutChecks(int protect) {
        return switch (protect) {
            case 0, 3 -> 0;
            case 1, 5 -> GUARD | APPLICATION | REFERENCE;
            case 2 -> APPLICATION | REFERENCE;
            case 4 -> GUARD;
            default -> throw new IllegalArgumentException("EINVAL: protect field " + protect);
        };
    }

    /**
     * The protection of a command.
     *
     * @param lba the command's first LBA
     * @param expected the tags of a 32-byte CDB, or null for the shorter CDBs, which carry none
     */
    public static Protection of(int type, int checks, long lba, ExpectedTags expected) {
        boolean referenceKnown = type == 1 || type == 2 && expected != null;
        return new Protection(type, referenceKnown ? checks : checks & ~REFERENCE,
                expected != null ? expected.initialReferenceTag() : lba, expected != null ? expected.applicationTag() : 0,
                expected != null ? expected.applicationTagMask() : 0);
    }

    /**
     * The tags of a 32-byte CDB (SBC-3 5.17): EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG,
     * EXPECTED LOGICAL BLOCK APPLICATION TAG and LOGICAL BLOCK APPLICATION TAG MASK.
     */
    public record ExpectedTags(long initialReferenceTag, int applicationTag, int applicationTagMask) {
    }

    private long reference(int i) {
        return type == 3 ? 0 : referenceSeed + i & 0xFFFF_FFFFL;
    }

    /**
     * The tuples of blocks written without protection information (WRPROTECT 000b, LIO's
     * {@code sbc_dif_generate()}): the guard of each block, this application tag, the reference
     * tags from the seed (zero for type 3, whose reference tag the device server does not own).
     *
     * @param data the blocks from absolute index 0 to its limit
     */
    public ByteBuffer generate(ByteBuffer data, int blockSize) {
        int blocks = data.limit() / blockSize;
        ByteBuffer pi = ByteBuffer.allocate(blocks * T10Pi.TUPLE_BYTES);
        for (int i = 0; i < blocks; i++) {
            T10Pi.put(pi, i * T10Pi.TUPLE_BYTES, T10Pi.crc16(data, i * blockSize, blockSize), applicationTag, reference(i));
        }
        return pi;
    }

    /**
     * Checks the tuples of blocks (LIO's {@code sbc_dif_verify()}): a block whose application tag
     * is FFFFh (types 1 and 2), or with a reference tag of FFFFFFFFh too (type 3), is not
     * checked; else the guard, the application tag under the mask and the reference tag, in that
     * order, as this command's checks ask.
     *
     * @param data the blocks from absolute index 0; {@code pi} their tuples from absolute index 0
     * @param lba the LBA of the first block, for the INFORMATION field
     * @throws ScsiException ABORTED COMMAND with LOGICAL BLOCK GUARD CHECK FAILED, LOGICAL BLOCK
     *         APPLICATION TAG CHECK FAILED or LOGICAL BLOCK REFERENCE TAG CHECK FAILED, and the
     *         failing LBA in the INFORMATION field
     */
    public void verify(ByteBuffer data, ByteBuffer pi, int blockSize, long lba) throws ScsiException {
        if (checks == 0) {
            return;
        }
        int blocks = pi.limit() / T10Pi.TUPLE_BYTES;
        for (int i = 0; i < blocks; i++) {
            int t = i * T10Pi.TUPLE_BYTES;
            int app = T10Pi.applicationTag(pi, t);
            long ref = T10Pi.referenceTag(pi, t);
            if (app == T10Pi.ESCAPE_APPLICATION_TAG && (type != 3 || ref == T10Pi.ESCAPE_REFERENCE_TAG)) {
                continue;
            }
            if ((checks & GUARD) != 0 && T10Pi.crc16(data, i * blockSize, blockSize) != T10Pi.guard(pi, t)) {
                throw failed(Asc.LOGICAL_BLOCK_GUARD_CHECK_FAILED, lba + i);
            }
            if ((checks & APPLICATION) != 0 && ((app ^ applicationTag) & applicationTagMask) != 0) {
                throw failed(Asc.LOGICAL_BLOCK_APPLICATION_TAG_CHECK_FAILED, lba + i);
            }
            if ((checks & REFERENCE) != 0 && ref != reference(i)) {
                throw failed(Asc.LOGICAL_BLOCK_REFERENCE_TAG_CHECK_FAILED, lba + i);
            }
        }
    }

    private static ScsiException failed(Asc asc, long lba) {
        return new ScsiException(Sense.of(SenseKey.ABORTED_COMMAND, asc).withInformation(lba));
    }

    /** Each block followed by its tuple, as SBC-3 4.22.1 transfers them, into {@code out} from its position. */
    public static void interleave(ByteBuffer data, ByteBuffer pi, int blockSize, ByteBuffer out) {
        int blocks = pi.limit() / T10Pi.TUPLE_BYTES;
        for (int i = 0; i < blocks; i++) {
            out.put(data.slice(i * blockSize, blockSize)).put(pi.slice(i * T10Pi.TUPLE_BYTES, T10Pi.TUPLE_BYTES));
        }
    }

    /** The blocks and the tuples of an interleaved buffer (absolute indexes from 0 to its limit), apart. */
    public static ByteBuffer[] split(ByteBuffer in, int blockSize) {
        int unit = blockSize + T10Pi.TUPLE_BYTES;
        int blocks = in.limit() / unit;
        ByteBuffer data = ByteBuffer.allocate(blocks * blockSize);
        ByteBuffer pi = ByteBuffer.allocate(blocks * T10Pi.TUPLE_BYTES);
        for (int i = 0; i < blocks; i++) {
            data.put(in.slice(i * unit, blockSize));
            pi.put(in.slice(i * unit + blockSize, T10Pi.TUPLE_BYTES));
        }
        return new ByteBuffer[] {data.flip(), pi.flip()};
    }
}
