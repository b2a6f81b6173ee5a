package org.rdma.scsi;

import java.util.OptionalLong;

/**
 * Sense data (SPC-4 4.5) in either format: fixed (response codes 0x70 current and 0x71 deferred,
 * 4.5.3) and descriptor (0x72 and 0x73, 4.5.2, with the information, command-specific information
 * and sense-key-specific descriptors of 4.5.2.2 to 4.5.2.4). The format is a choice of the
 * encoder (the D_SENSE bit of the control mode page, or the DESC bit of REQUEST SENSE), so a
 * {@code Sense} does not remember it. Mirrors Linux's {@code scsi_build_sense_buffer()} and
 * {@code scsi_normalize_sense()}.
 *
 * @param key the sense key
 * @param asc the additional sense code and qualifier
 * @param deferred a deferred error (0x71/0x73) rather than a current one (0x70/0x72)
 * @param information the INFORMATION field (for example the failing LBA or the offset of a
 *        miscompare); absent when the VALID bit is clear
 * @param commandSpecific the COMMAND-SPECIFIC INFORMATION field, 0 when absent
 * @param senseKeySpecific the three SENSE KEY SPECIFIC bytes as a big-endian 24-bit value, with
 *        {@link #SKSV} set when they are valid; 0 when absent
 */
public record Sense(SenseKey key, Asc asc, boolean deferred, OptionalLong information, long commandSpecific,
        int senseKeySpecific) {
    /** Fixed format, current error (SPC-4 4.5.3). */
    public static final int FIXED_CURRENT = 0x70;
    /** Fixed format, deferred error. */
    public static final int FIXED_DEFERRED = 0x71;
    /** Descriptor format, current error (SPC-4 4.5.2). */
    public static final int DESCRIPTOR_CURRENT = 0x72;
    /** Descriptor format, deferred error. */
    public static final int DESCRIPTOR_DEFERRED = 0x73;
    /** The length of the fixed format this encoder writes (additional sense length 10). */
    public static final int FIXED_LENGTH = 18;
    /** SKSV, the valid bit of the sense-key-specific bytes (bit 7 of their first byte). */
    public static final int SKSV = 0x80_0000;
    /** C/D of a field pointer: the field is in the CDB, not in the parameter list (SPC-4 4.5.2.4.2). */
    public static final int SKS_CD = 0x40_0000;
    /** BPV of a field pointer: the BIT POINTER is valid. */
    public static final int SKS_BPV = 0x08_0000;

    static final int DESC_INFORMATION = 0x00;
    static final int DESC_COMMAND_SPECIFIC = 0x01;
    static final int DESC_SENSE_KEY_SPECIFIC = 0x02;

    public Sense {
        if (key == null || asc == null || information == null) {
            throw new IllegalArgumentException("EINVAL: sense key, ASC and information must be given");
        }
        if ((senseKeySpecific & ~0xFF_FFFF) != 0) {
            throw new IllegalArgumentException("EINVAL: sense-key-specific bytes wider than 24 bits");
        }
    }

    /** A current error with this key and code and nothing else. */
    public static Sense of(SenseKey key, Asc asc) {
        return new Sense(key, asc, false, OptionalLong.empty(), 0, 0);
    }

    /**
     * ILLEGAL REQUEST, INVALID FIELD IN CDB, with the field pointer at the most significant bit of
     * the bad field (SPC-4 4.5.2.4.2); LIO's {@code TCM_INVALID_CDB_FIELD} with
     * {@code transport_set_sense_data()}'s pointer.
     *
     * @param byteOffset the CDB byte of the field
     * @param bit the bit of that byte, 0..7, or -1 for the whole byte
     */
    public static Sense invalidFieldInCdb(int byteOffset, int bit) {
        return of(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_CDB).withSenseKeySpecific(fieldPointer(true, byteOffset, bit));
    }

    /** ILLEGAL REQUEST, INVALID FIELD IN PARAMETER LIST, with a field pointer into the parameter data. */
    public static Sense invalidFieldInParameterList(int byteOffset, int bit) {
        return of(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_PARAMETER_LIST)
                .withSenseKeySpecific(fieldPointer(false, byteOffset, bit));
    }

    /**
     * The sense-key-specific bytes of a field pointer (SPC-4 4.5.2.4.2): SKSV, C/D, BPV, BIT
     * POINTER and the 16-bit FIELD POINTER.
     */
    public static int fieldPointer(boolean inCdb, int byteOffset, int bit) {
        if (byteOffset < 0 || byteOffset > 0xFFFF || bit > 7) {
            throw new IllegalArgumentException("EINVAL: field pointer byte " + byteOffset + " bit " + bit);
        }
        return SKSV | (inCdb ? SKS_CD : 0) | (bit >= 0 ? SKS_BPV | bit << 16 : 0) | byteOffset;
    }

    /** This sense with the INFORMATION field set (VALID bit on). */
    public Sense withInformation(long info) {
        return new Sense(key, asc, deferred, OptionalLong.of(info), commandSpecific, senseKeySpecific);
    }

    /** This sense with the sense-key-specific bytes set. */
    public Sense withSenseKeySpecific(int sks) {
        return new Sense(key, asc, deferred, information, commandSpecific, sks);
    }

    /** This sense with the command-specific information set. */
    public Sense withCommandSpecific(long csi) {
        return new Sense(key, asc, deferred, information, csi, senseKeySpecific);
    }

    /** Whether the sense-key-specific bytes are valid (SKSV). */
    public boolean sksValid() {
        return (senseKeySpecific & SKSV) != 0;
    }

    /** The FIELD POINTER of a field-pointer sense-key-specific value. */
    public int fieldPointerByte() {
        return senseKeySpecific & 0xFFFF;
    }

    /** The BIT POINTER of a field pointer, or -1 when BPV is clear. */
    public int fieldPointerBit() {
        return (senseKeySpecific & SKS_BPV) != 0 ? senseKeySpecific >> 16 & 7 : -1;
    }

    /**
     * Encodes this sense in the fixed (18 bytes) or descriptor format. An INFORMATION value wider
     * than 32 bits cannot be carried in the fixed format: the VALID bit is then clear, as SPC-4
     * 4.5.3 asks (use the descriptor format for such values).
     */
    public byte[] encode(boolean descriptorFormat) {
        return descriptorFormat ? encodeDescriptor() : encodeFixed();
    }

    private byte[] encodeFixed() {
        byte[] b = new byte[FIXED_LENGTH];
        boolean valid = information.isPresent() && (information.getAsLong() >>> 32) == 0;
        b[0] = (byte) ((valid ? 0x80 : 0) | (deferred ? FIXED_DEFERRED : FIXED_CURRENT));
        b[2] = (byte) key.code();
        if (valid) {
            putBe(b, 3, information.getAsLong(), 4);
        }
        b[7] = FIXED_LENGTH - 8;
        putBe(b, 8, commandSpecific, 4);
        b[12] = (byte) asc.asc();
        b[13] = (byte) asc.ascq();
        putBe(b, 15, senseKeySpecific, 3);
        return b;
    }

    private byte[] encodeDescriptor() {
        int len = 8 + (information.isPresent() ? 12 : 0) + (commandSpecific != 0 ? 12 : 0) + (sksValid() ? 8 : 0);
        byte[] b = new byte[len];
        b[0] = (byte) (deferred ? DESCRIPTOR_DEFERRED : DESCRIPTOR_CURRENT);
        b[1] = (byte) key.code();
        b[2] = (byte) asc.asc();
        b[3] = (byte) asc.ascq();
        b[7] = (byte) (len - 8);
        int off = 8;
        if (information.isPresent()) {
            off = putEightByteDescriptor(b, off, DESC_INFORMATION, information.getAsLong());
        }
        if (commandSpecific != 0) {
            off = putEightByteDescriptor(b, off, DESC_COMMAND_SPECIFIC, commandSpecific);
        }
        if (sksValid()) {
            b[off] = DESC_SENSE_KEY_SPECIFIC;
            b[off + 1] = 0x06;
            putBe(b, off + 4, senseKeySpecific, 3);
        }
        return b;
    }

    /** The information (4.5.2.2) and command-specific information (4.5.2.3) descriptor layout. */
    private static int putEightByteDescriptor(byte[] b, int off, int type, long value) {
        b[off] = (byte) type;
        b[off + 1] = 0x0A;
        if (type == DESC_INFORMATION) {
            b[off + 2] = (byte) 0x80; // VALID, which SPC-4 requires to be one
        }
        putBe(b, off + 4, value, 8);
        return off + 12;
    }

    /**
     * Decodes sense data of either format, as received (it may be cut short by an allocation
     * length: fields beyond the data read as zero, as SPC-4 4.5.1 allows). Unknown descriptors
     * are skipped; a descriptor that runs past the data ends the walk.
     *
     * @throws IllegalArgumentException {@code EINVAL} for a response code other than 0x70..0x73 or
     *         data too short to hold the sense key and additional sense code of its format
     */
    public static Sense decode(byte[] buf, int off, int len) {
        if (off < 0 || len < 0 || off > buf.length - len) {
            throw new IllegalArgumentException("EINVAL: sense range " + off + "+" + len + " outside " + buf.length);
        }
        if (len < 1) {
            throw new IllegalArgumentException("EINVAL: empty sense data");
        }
        int code = buf[off] & 0x7F;
        return switch (code) {
            case FIXED_CURRENT, FIXED_DEFERRED -> decodeFixed(buf, off, len, code == FIXED_DEFERRED);
            case DESCRIPTOR_CURRENT, DESCRIPTOR_DEFERRED -> decodeDescriptor(buf, off, len, code == DESCRIPTOR_DEFERRED);
            default -> throw new IllegalArgumentException("EINVAL: sense response code 0x" + Integer.toHexString(code));
        };
    }

    private static Sense decodeFixed(byte[] buf, int off, int len, boolean deferred) {
        if (len < 3) {
            throw new IllegalArgumentException("EINVAL: fixed sense of " + len + " bytes has no sense key");
        }
        int end = len < 8 ? len : Math.min(len, 8 + (buf[off + 7] & 0xFF));
        OptionalLong info = (buf[off] & 0x80) != 0 && end >= 7 ? OptionalLong.of(getBe(buf, off + 3, 4))
                : OptionalLong.empty();
        long csi = end >= 12 ? getBe(buf, off + 8, 4) : 0;
        int asc = end >= 13 ? buf[off + 12] & 0xFF : 0;
        int ascq = end >= 14 ? buf[off + 13] & 0xFF : 0;
        int sks = end >= 18 ? (int) getBe(buf, off + 15, 3) : 0;
        return new Sense(SenseKey.of(buf[off + 2]), Asc.of(asc, ascq), deferred, info, csi, sks);
    }

    private static Sense decodeDescriptor(byte[] buf, int off, int len, boolean deferred) {
        if (len < 4) {
            throw new IllegalArgumentException("EINVAL: descriptor sense of " + len + " bytes has no ASC/ASCQ");
        }
        OptionalLong info = OptionalLong.empty();
        long csi = 0;
        int sks = 0;
        int end = len < 8 ? len : Math.min(len, 8 + (buf[off + 7] & 0xFF));
        for (int d = 8; d + 2 <= end;) {
            int type = buf[off + d] & 0xFF;
            int next = d + 2 + (buf[off + d + 1] & 0xFF);
            if (next > end) {
                break;
            }
            if (type == DESC_INFORMATION && next - d == 12 && (buf[off + d + 2] & 0x80) != 0) {
                info = OptionalLong.of(getBe(buf, off + d + 4, 8));
            } else if (type == DESC_COMMAND_SPECIFIC && next - d == 12) {
                csi = getBe(buf, off + d + 4, 8);
            } else if (type == DESC_SENSE_KEY_SPECIFIC && next - d == 8) {
                sks = (int) getBe(buf, off + d + 4, 3);
            }
            d = next;
        }
        return new Sense(SenseKey.of(buf[off + 1]), Asc.of(buf[off + 2], buf[off + 3]), deferred, info, csi, sks);
    }

    static void putBe(byte[] b, int off, long v, int n) {
        for (int i = n - 1; i >= 0; i--, v >>>= 8) {
            b[off + i] = (byte) v;
        }
    }

    static long getBe(byte[] b, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = v << 8 | (b[off + i] & 0xFF);
        }
        return v;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(key.name().replace('_', ' ')).append(": ").append(asc.description());
        information.ifPresent(i -> s.append(", information 0x").append(Long.toHexString(i)));
        if (sksValid() && (key == SenseKey.ILLEGAL_REQUEST)) {
            s.append(", field pointer ").append((senseKeySpecific & SKS_CD) != 0 ? "CDB" : "parameter list")
                    .append(" byte ").append(fieldPointerByte());
            if (fieldPointerBit() >= 0) {
                s.append(" bit ").append(fieldPointerBit());
            }
        }
        return s.toString();
    }
}
