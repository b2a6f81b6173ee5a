package org.rdma.target.internal.pr;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import org.rdma.scsi.Sense;
import org.rdma.scsi.ScsiException;

/**
 * iSCSI TransportIDs (SPC-4 7.6.4.6, tables 389 and 390; LIO's {@code iscsi_get_pr_transport_id()}
 * and {@code iscsi_parse_pr_out_transport_id()}): PROTOCOL IDENTIFIER 5h, FORMAT CODE 00b for an
 * initiator device ({@code NAME}) or 01b for an initiator port ({@code NAME,i,0xISID}); the
 * string is null-terminated and padded with nulls to a multiple of four, 24 bytes at least.
 *
 * @param initiatorName the iSCSI name
 * @param isid the ISID (12 lower-case hex digits) of format 01b, or null for format 00b
 * @param length the bytes the TransportID takes in a parameter list
 */
public record TransportId(String initiatorName, String isid, int length) {
    /** SPC-4 table 362: Internet SCSI. */
    public static final int PROTOCOL_ISCSI = 5;
    private static final int MIN_LENGTH = 24;
    private static final int MAX_NAME = 223;

    /** The TransportID of an initiator port (ISID given) or device (ISID null). */
    public static byte[] encode(String initiatorName, String isid) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write((isid != null ? 0x40 : 0) | PROTOCOL_ISCSI);
        o.writeBytes(new byte[3]);
        o.writeBytes((isid != null ? initiatorName + ItNexus.ISID_SEPARATOR + isid : initiatorName)
                .getBytes(StandardCharsets.UTF_8));
        o.write(0);
        while (o.size() % 4 != 0 || o.size() < MIN_LENGTH) {
            o.write(0);
        }
        byte[] b = o.toByteArray();
        b[2] = (byte) ((b.length - 4) >> 8);
        b[3] = (byte) (b.length - 4);
        return b;
    }

    /**
     * Reads the TransportID at {@code off}, at most {@code max} bytes long.
     *
     * @throws ScsiException ILLEGAL REQUEST, INVALID FIELD IN PARAMETER LIST pointing into it for
     *         another protocol, a reserved format, a length that is not a multiple of four, under
     *         24 or past {@code max}, an empty or unterminated name, or a malformed ISID
     */
    public static TransportId decode(byte[] b, int off, int max) throws ScsiException {
        if (max < MIN_LENGTH) {
            throw bad(off + 2, 7);
        }
        if ((b[off] & 0x0F) != PROTOCOL_ISCSI) {
            throw bad(off, 3);
        }
        int format = (b[off] & 0xFF) >> 6;
        if (format > 1) {
            throw bad(off, 7);
        }
        int length = 4 + ((b[off + 2] & 0xFF) << 8 | (b[off + 3] & 0xFF));
        if (length % 4 != 0 || length < MIN_LENGTH || length > max) {
            throw bad(off + 2, 7);
        }
        int end = off + 4;
        while (end < off + length && b[end] != 0) {
            end++;
        }
        if (end == off + length || end == off + 4 || end - off - 4 > MAX_NAME + 17) {
            throw bad(off + 4, 7);
        }
        String s = new String(b, off + 4, end - off - 4, StandardCharsets.UTF_8);
        String isid = null;
        if (format == 1) {
            int sep = s.indexOf(ItNexus.ISID_SEPARATOR);
            if (sep <= 0) {
                throw bad(off + 4, 7);
            }
            isid = s.substring(sep + ItNexus.ISID_SEPARATOR.length()).toLowerCase(Locale.ROOT);
            s = s.substring(0, sep);
            if (isid.length() != 12 || !isid.chars().allMatch(c -> HexFormat.isHexDigit(c))) {
                throw bad(off + 4 + sep, 7);
            }
        }
        if (s.length() > MAX_NAME || !s.chars().allMatch(c -> c > 0x20 && c != 0x7F)) {
            throw bad(off + 4, 7);
        }
        return new TransportId(s, isid, length);
    }

    private static ScsiException bad(int byteOffset, int bit) {
        return new ScsiException(Sense.invalidFieldInParameterList(byteOffset, bit));
    }
}
