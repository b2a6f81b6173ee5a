package org.rdma.cm.ib;

/**
 * Constants of include/rdma/ib_cm.h: private data sizes ({@code enum ib_cm_data_size}), the
 * well-known service IDs and masks, the CM attribute IDs and {@code IB_CM_MRA_FLAG_DELAY}.
 * Service IDs are Java {@code long}s in host order; the wire carries them big-endian.
 */
public final class IbCm {
    /** {@code IB_CM_REQ_PRIVATE_DATA_SIZE}. */
    public static final int REQ_PRIVATE_DATA_SIZE = 92;
    /** {@code IB_CM_MRA_PRIVATE_DATA_SIZE}. */
    public static final int MRA_PRIVATE_DATA_SIZE = 222;
    /** {@code IB_CM_REJ_PRIVATE_DATA_SIZE}. */
    public static final int REJ_PRIVATE_DATA_SIZE = 148;
    /** {@code IB_CM_REP_PRIVATE_DATA_SIZE}. */
    public static final int REP_PRIVATE_DATA_SIZE = 196;
    /** {@code IB_CM_RTU_PRIVATE_DATA_SIZE}. */
    public static final int RTU_PRIVATE_DATA_SIZE = 224;
    /** {@code IB_CM_DREQ_PRIVATE_DATA_SIZE}. */
    public static final int DREQ_PRIVATE_DATA_SIZE = 220;
    /** {@code IB_CM_DREP_PRIVATE_DATA_SIZE}. */
    public static final int DREP_PRIVATE_DATA_SIZE = 224;
    /** {@code IB_CM_REJ_ARI_LENGTH}. */
    public static final int REJ_ARI_LENGTH = 72;
    /** {@code IB_CM_LAP_PRIVATE_DATA_SIZE}. */
    public static final int LAP_PRIVATE_DATA_SIZE = 168;
    /** {@code IB_CM_APR_PRIVATE_DATA_SIZE}. */
    public static final int APR_PRIVATE_DATA_SIZE = 148;
    /** {@code IB_CM_APR_INFO_LENGTH}. */
    public static final int APR_INFO_LENGTH = 72;
    /** {@code IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE}. */
    public static final int SIDR_REQ_PRIVATE_DATA_SIZE = 216;
    /** {@code IB_CM_SIDR_REP_PRIVATE_DATA_SIZE}. */
    public static final int SIDR_REP_PRIVATE_DATA_SIZE = 136;
    /** {@code IB_CM_SIDR_REP_INFO_LENGTH}. */
    public static final int SIDR_REP_INFO_LENGTH = 72;

    /** {@code IB_SERVICE_ID_AGN_MASK}: the administration-group bits of a service ID. */
    public static final long SERVICE_ID_AGN_MASK = 0xFF00_0000_0000_0000L;
    /** {@code IB_CM_ASSIGN_SERVICE_ID}: {@code ib_cm_listen()} picks a locally administered ID. */
    public static final long ASSIGN_SERVICE_ID = 0x0200_0000_0000_0000L;
    /** {@code IB_CMA_SERVICE_ID}: the RDMA CM's IP-based service ID range. */
    public static final long CMA_SERVICE_ID = 0x0000_0000_0100_0000L;
    /** {@code IB_CMA_SERVICE_ID_MASK}. */
    public static final long CMA_SERVICE_ID_MASK = 0xFFFF_FFFF_FF00_0000L;
    /** {@code IB_SDP_SERVICE_ID}. */
    public static final long SDP_SERVICE_ID = 0x0000_0000_0001_0000L;
    /** {@code IB_SDP_SERVICE_ID_MASK}. */
    public static final long SDP_SERVICE_ID_MASK = 0xFFFF_FFFF_FFFF_0000L;

    /** {@code IB_CM_MRA_FLAG_DELAY}: send the MRA only when a duplicate of the message arrives. */
    public static final int MRA_FLAG_DELAY = 0x80;

    /** {@code IB_CM_CLASS_VERSION}: the CM class version of every CM MAD. */
    public static final int CLASS_VERSION = 2;
    /** ClassPortInfo attribute ID. */
    public static final int CLASS_PORT_INFO_ATTR_ID = 0x0001;
    /** {@code CM_REQ_ATTR_ID}. */
    public static final int REQ_ATTR_ID = 0x0010;
    /** {@code CM_MRA_ATTR_ID}. */
    public static final int MRA_ATTR_ID = 0x0011;
    /** {@code CM_REJ_ATTR_ID}. */
    public static final int REJ_ATTR_ID = 0x0012;
    /** {@code CM_REP_ATTR_ID}. */
    public static final int REP_ATTR_ID = 0x0013;
    /** {@code CM_RTU_ATTR_ID}. */
    public static final int RTU_ATTR_ID = 0x0014;
    /** {@code CM_DREQ_ATTR_ID}. */
    public static final int DREQ_ATTR_ID = 0x0015;
    /** {@code CM_DREP_ATTR_ID}. */
    public static final int DREP_ATTR_ID = 0x0016;
    /** {@code CM_SIDR_REQ_ATTR_ID}. */
    public static final int SIDR_REQ_ATTR_ID = 0x0017;
    /** {@code CM_SIDR_REP_ATTR_ID}. */
    public static final int SIDR_REP_ATTR_ID = 0x0018;
    /** {@code CM_LAP_ATTR_ID}. */
    public static final int LAP_ATTR_ID = 0x0019;
    /** {@code CM_APR_ATTR_ID}. */
    public static final int APR_ATTR_ID = 0x001A;

    private IbCm() {
    }
}
