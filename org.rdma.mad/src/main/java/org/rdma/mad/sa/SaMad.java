package org.rdma.mad.sa;

/**
 * The SA MAD layout ({@code struct ib_sa_mad}): common header (0..23), RMPP header (24..35), SA
 * header (SM_Key 36..43, AttributeOffset 44..45, ComponentMask 48..55), data from 56. Also the
 * SA attribute IDs of include/rdma/ib_sa.h.
 */
public final class SaMad {
    /** {@code IB_SA_CLASS_VERSION}. */
    public static final int IB_SA_CLASS_VERSION = 2;
    /** {@code IB_SA_ATTR_CLASS_PORTINFO}. */
    public static final int ATTR_CLASS_PORTINFO = 0x01;
    /** {@code IB_SA_ATTR_NOTICE}. */
    public static final int ATTR_NOTICE = 0x02;
    /** {@code IB_SA_ATTR_INFORM_INFO}. */
    public static final int ATTR_INFORM_INFO = 0x03;
    /** {@code IB_SA_ATTR_NODE_REC}. */
    public static final int ATTR_NODE_REC = 0x11;
    /** {@code IB_SA_ATTR_PORT_INFO_REC}. */
    public static final int ATTR_PORT_INFO_REC = 0x12;
    /** {@code IB_SA_ATTR_GUID_INFO_REC}. */
    public static final int ATTR_GUID_INFO_REC = 0x30;
    /** {@code IB_SA_ATTR_SERVICE_REC}. */
    public static final int ATTR_SERVICE_REC = 0x31;
    /** {@code IB_SA_ATTR_PATH_REC}. */
    public static final int ATTR_PATH_REC = 0x35;
    /** {@code IB_SA_ATTR_MC_MEMBER_REC}. */
    public static final int ATTR_MC_MEMBER_REC = 0x38;
    /** Offset of the SA header. */
    public static final int SA_HDR_OFFSET = 36;
    /** Offset of the SA data ({@code IB_MGMT_SA_HDR}). */
    public static final int DATA_OFFSET = 56;
    /** Bytes of SA data in one MAD ({@code IB_MGMT_SA_DATA}). */
    public static final int DATA_SIZE = 200;

    private SaMad() {
    }

    /** {@code sa_hdr.sm_key}. */
    public static long smKey(byte[] mad) {
        return getLong(mad, 36);
    }

    /** {@code sa_hdr.attr_offset}: record size in units of 8 bytes. */
    public static int attrOffset(byte[] mad) {
        return (mad[44] & 0xff) << 8 | (mad[45] & 0xff);
    }

    /** Sets {@code sa_hdr.attr_offset}. */
    public static void setAttrOffset(byte[] mad, int units) {
        mad[44] = (byte) (units >>> 8);
        mad[45] = (byte) units;
    }

    /** {@code sa_hdr.comp_mask}. */
    public static long compMask(byte[] mad) {
        return getLong(mad, 48);
    }

    /** Sets {@code sa_hdr.comp_mask}. */
    public static void setCompMask(byte[] mad, long mask) {
        for (int i = 0; i < 8; i++) {
            mad[48 + i] = (byte) (mask >>> (56 - 8 * i));
        }
    }

    /** {@code IB_SA_COMP_MASK(n)}. */
    public static long compMaskBit(int n) {
        return 1L << n;
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[off + i] & 0xff);
        }
        return v;
    }
}
