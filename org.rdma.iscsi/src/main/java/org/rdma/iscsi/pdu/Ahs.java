package org.rdma.iscsi.pdu;

import java.nio.ByteBuffer;

/**
 * Additional header segments (RFC 7143 11.2.2): a 2-byte AHSLength counting the bytes after
 * AHSType (the AHS-specific byte included, the padding not), the 1-byte AHSType, then the
 * AHS-specific bytes padded to 4. The two types of the RFC are the extended CDB (11.2.2.3,
 * {@code struct iscsi_ecdb_ahdr}) and the bidirectional expected read-data length (11.2.2.4,
 * {@code struct iscsi_rlength_ahdr}). The region of a PDU's AHSs is the {@code buf[from, to)}
 * after its BHS; the methods do not move the buffer's position.
 */
public final class Ahs {
    /** AHSType of an extended CDB. */
    public static final int EXTENDED_CDB = 1;
    /** AHSType of the bidirectional expected read-data length. */
    public static final int BIDI_READ_LENGTH = 2;
    /** The largest CDB the extended CDB AHS can carry (SPC-4 variable-length CDBs, 16 + 244 in Linux). */
    public static final int MAX_CDB_LENGTH = 260;
    /** The bytes TotalAHSLength can describe: 255 words. */
    public static final int MAX_TOTAL_LENGTH = 255 * 4;

    private Ahs() {
    }

    /** The padded length on the wire of an AHS whose AHSLength is {@code ahsLength}. */
    static int wireLength(int ahsLength) {
        return Digest.padded(3 + ahsLength);
    }

    /**
     * Whether {@code buf[from, to)} is a sequence of whole AHSs: each AHSLength fits in the region
     * and their padded lengths add up to it. An AHS with AHSLength 0 has no AHS-specific byte,
     * which every type has, so it is refused.
     */
    public static boolean wellFormed(ByteBuffer buf, int from, int to) {
        int at = from;
        while (at < to) {
            if (to - at < 4) {
                return false;
            }
            int len = (buf.get(at) & 0xff) << 8 | buf.get(at + 1) & 0xff;
            if (len == 0 || wireLength(len) > to - at) {
                return false;
            }
            int type = buf.get(at + 2) & 0x3f;
            if (type == BIDI_READ_LENGTH && len != 5
                    || type == EXTENDED_CDB && (len < 2 || len > MAX_CDB_LENGTH - 15)) {
                return false;
            }
            at += wireLength(len);
        }
        return at == to;
    }

    /** The index of the first AHS of {@code type} in a well-formed region, or -1. */
    public static int find(ByteBuffer buf, int from, int to, int type) {
        int at = from;
        while (at + 4 <= to) {
            int len = (buf.get(at) & 0xff) << 8 | buf.get(at + 1) & 0xff;
            if ((buf.get(at + 2) & 0x3f) == type) {
                return at;
            }
            at += wireLength(Math.max(len, 1));
        }
        return -1;
    }

    /** The Bidirectional Read Expected Data Transfer Length of the region, or -1 when absent. */
    public static long bidiReadLength(ByteBuffer buf, int from, int to) {
        int at = find(buf, from, to, BIDI_READ_LENGTH);
        if (at < 0) {
            return -1;
        }
        return ((long) (buf.get(at + 4) & 0xff) << 24) | (buf.get(at + 5) & 0xff) << 16
                | (buf.get(at + 6) & 0xff) << 8 | buf.get(at + 7) & 0xff;
    }

    /** The CDB length a SCSI Command carries: 16, or 16 plus the extended CDB AHS's bytes. */
    public static int cdbLength(ByteBuffer buf, int from, int to) {
        int at = find(buf, from, to, EXTENDED_CDB);
        if (at < 0) {
            return 16;
        }
        return 15 + ((buf.get(at) & 0xff) << 8 | buf.get(at + 1) & 0xff);
    }

    /** Copies the whole CDB (BHS bytes 32-47, then the extended CDB AHS) into {@code dst}; returns its length. */
    public static int cdb(Bhs bhs, ByteBuffer buf, int from, int to, byte[] dst) {
        int len = cdbLength(buf, from, to);
        bhs.cdb(dst, 0);
        if (len > 16) {
            buf.get(find(buf, from, to, EXTENDED_CDB) + 4, dst, 16, len - 16);
        }
        return len;
    }

    /** Appends the extended CDB AHS for {@code cdb[16, len)} at {@code out}'s position; returns the bytes written. */
    public static int putExtendedCdb(ByteBuffer out, byte[] cdb, int len) {
        if (len <= 16 || len > MAX_CDB_LENGTH) {
            throw new IllegalArgumentException("EINVAL: extended CDB of " + len + " bytes");
        }
        int ahsLength = len - 15;
        int start = out.position();
        out.put((byte) (ahsLength >>> 8)).put((byte) ahsLength).put((byte) EXTENDED_CDB).put((byte) 0);
        out.put(cdb, 16, len - 16);
        pad(out, len - 16);
        return out.position() - start;
    }

    /** Appends the bidirectional read-length AHS at {@code out}'s position; returns the bytes written (8). */
    public static int putBidiReadLength(ByteBuffer out, int expectedReadLength) {
        out.put((byte) 0).put((byte) 5).put((byte) BIDI_READ_LENGTH).put((byte) 0);
        out.put((byte) (expectedReadLength >>> 24)).put((byte) (expectedReadLength >>> 16))
                .put((byte) (expectedReadLength >>> 8)).put((byte) expectedReadLength);
        return 8;
    }

    static void pad(ByteBuffer out, int length) {
        for (int i = Digest.padding(length); i > 0; i--) {
            out.put((byte) 0);
        }
    }
}
