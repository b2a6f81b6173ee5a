package org.rdma.verbs;

/** Bits of the {@code ib_modify_qp()} attribute mask ({@code enum ib_qp_attr_mask}). */
public final class QpAttrMask {
    private QpAttrMask() {
    }

    /** {@code IB_QP_STATE}. */
    public static final int STATE = 1;
    /** {@code IB_QP_CUR_STATE}. */
    public static final int CUR_STATE = 1 << 1;
    /** {@code IB_QP_EN_SQD_ASYNC_NOTIFY}. */
    public static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    /** {@code IB_QP_ACCESS_FLAGS}. */
    public static final int ACCESS_FLAGS = 1 << 3;
    /** {@code IB_QP_PKEY_INDEX}. */
    public static final int PKEY_INDEX = 1 << 4;
    /** {@code IB_QP_PORT}. */
    public static final int PORT = 1 << 5;
    /** {@code IB_QP_QKEY}. */
    public static final int QKEY = 1 << 6;
    /** {@code IB_QP_AV}. */
    public static final int AV = 1 << 7;
    /** {@code IB_QP_PATH_MTU}. */
    public static final int PATH_MTU = 1 << 8;
    /** {@code IB_QP_TIMEOUT}. */
    public static final int TIMEOUT = 1 << 9;
    /** {@code IB_QP_RETRY_CNT}. */
    public static final int RETRY_CNT = 1 << 10;
    /** {@code IB_QP_RNR_RETRY}. */
    public static final int RNR_RETRY = 1 << 11;
    /** {@code IB_QP_RQ_PSN}. */
    public static final int RQ_PSN = 1 << 12;
    /** {@code IB_QP_MAX_QP_RD_ATOMIC}. */
    public static final int MAX_QP_RD_ATOMIC = 1 << 13;
    /** {@code IB_QP_ALT_PATH}. */
    public static final int ALT_PATH = 1 << 14;
    /** {@code IB_QP_MIN_RNR_TIMER}. */
    public static final int MIN_RNR_TIMER = 1 << 15;
    /** {@code IB_QP_SQ_PSN}. */
    public static final int SQ_PSN = 1 << 16;
    /** {@code IB_QP_MAX_DEST_RD_ATOMIC}. */
    public static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    /** {@code IB_QP_PATH_MIG_STATE}. */
    public static final int PATH_MIG_STATE = 1 << 18;
    /** {@code IB_QP_CAP}. */
    public static final int CAP = 1 << 19;
    /** {@code IB_QP_DEST_QPN}. */
    public static final int DEST_QPN = 1 << 20;
    /** {@code IB_QP_RATE_LIMIT}. */
    public static final int RATE_LIMIT = 1 << 25;

    /** Every defined bit. */
    public static final int ALL = (1 << 21) - 1 | RATE_LIMIT;
}
