package org.rdma.mad;

/**
 * The RMPP header (IBTA 13.6.2; {@code struct ib_rmpp_hdr}, include/rdma/ib_mad.h) at bytes
 * 24..35 of an RMPP-class MAD, read and written in place.
 */
public final class Rmpp {
    /** Offset of the RMPP header. */
    public static final int OFFSET = 24;
    /** {@code IB_MGMT_RMPP_TYPE_DATA}. */
    public static final int TYPE_DATA = 1;
    /** {@code IB_MGMT_RMPP_TYPE_ACK}. */
    public static final int TYPE_ACK = 2;
    /** {@code IB_MGMT_RMPP_TYPE_STOP}. */
    public static final int TYPE_STOP = 3;
    /** {@code IB_MGMT_RMPP_TYPE_ABORT}. */
    public static final int TYPE_ABORT = 4;
    /** {@code IB_MGMT_RMPP_FLAG_ACTIVE}. */
    public static final int FLAG_ACTIVE = 1;
    /** {@code IB_MGMT_RMPP_FLAG_FIRST}. */
    public static final int FLAG_FIRST = 1 << 1;
    /** {@code IB_MGMT_RMPP_FLAG_LAST}. */
    public static final int FLAG_LAST = 1 << 2;
    /** {@code IB_MGMT_RMPP_NO_RESPTIME}. */
    public static final int NO_RESPTIME = 0x1F;
    /** {@code IB_MGMT_RMPP_STATUS_SUCCESS}. */
    public static final int STATUS_SUCCESS = 0;
    /** {@code IB_MGMT_RMPP_STATUS_RESX}: resources exhausted. */
    public static final int STATUS_RESX = 1;
    /** {@code IB_MGMT_RMPP_STATUS_T2L}: total time too long. */
    public static final int STATUS_T2L = 118;
    /** {@code IB_MGMT_RMPP_STATUS_BAD_LEN}. */
    public static final int STATUS_BAD_LEN = 119;
    /** {@code IB_MGMT_RMPP_STATUS_BAD_SEG}. */
    public static final int STATUS_BAD_SEG = 120;
    /** {@code IB_MGMT_RMPP_STATUS_BADT}: illegal type. */
    public static final int STATUS_BADT = 121;
    /** {@code IB_MGMT_RMPP_STATUS_W2S}: newwindowlast too small. */
    public static final int STATUS_W2S = 122;
    /** {@code IB_MGMT_RMPP_STATUS_S2B}: segment number too big. */
    public static final int STATUS_S2B = 123;
    /** {@code IB_MGMT_RMPP_STATUS_BAD_STATUS}. */
    public static final int STATUS_BAD_STATUS = 124;
    /** {@code IB_MGMT_RMPP_STATUS_UNV}: unsupported version. */
    public static final int STATUS_UNV = 125;
    /** {@code IB_MGMT_RMPP_STATUS_TMR}: too many retries. */
    public static final int STATUS_TMR = 126;
    /** {@code IB_MGMT_RMPP_STATUS_UNSPEC}. */
    public static final int STATUS_UNSPEC = 127;

    private Rmpp() {
    }

    /** {@code rmpp_version}. */
    public static int version(byte[] mad) {
        return mad[OFFSET] & 0xff;
    }

    /** {@code rmpp_type}. */
    public static int type(byte[] mad) {
        return mad[OFFSET + 1] & 0xff;
    }

    /** {@code ib_get_rmpp_flags()}. */
    public static int flags(byte[] mad) {
        return mad[OFFSET + 2] & 0x7;
    }

    /** {@code ib_get_rmpp_resptime()}. */
    public static int respTime(byte[] mad) {
        return (mad[OFFSET + 2] & 0xff) >>> 3;
    }

    /** {@code rmpp_status}. */
    public static int status(byte[] mad) {
        return mad[OFFSET + 3] & 0xff;
    }

    /** {@code seg_num}. */
    public static int segNum(byte[] mad) {
        return getInt(mad, OFFSET + 4);
    }

    /** {@code paylen_newwin}. */
    public static int paylenNewwin(byte[] mad) {
        return getInt(mad, OFFSET + 8);
    }

    /** Whether the ACTIVE flag is set. */
    public static boolean isActive(byte[] mad) {
        return (flags(mad) & FLAG_ACTIVE) != 0;
    }

    /** Writes the whole RMPP header. */
    public static void set(byte[] mad, int version, int type, int flags, int status, int segNum, int paylenNewwin) {
        mad[OFFSET] = (byte) version;
        mad[OFFSET + 1] = (byte) type;
        mad[OFFSET + 2] = (byte) (NO_RESPTIME << 3 | (flags & 0x7));
        mad[OFFSET + 3] = (byte) status;
        putInt(mad, OFFSET + 4, segNum);
        putInt(mad, OFFSET + 8, paylenNewwin);
    }

    static int getInt(byte[] b, int off) {
        return (b[off] & 0xff) << 24 | (b[off + 1] & 0xff) << 16 | (b[off + 2] & 0xff) << 8 | (b[off + 3] & 0xff);
    }

    static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
