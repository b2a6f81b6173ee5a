package org.rdma.verbs;

/** Modifiable QP attributes: {@code struct ib_qp_attr} ({@code ib_modify_qp()}, {@code ib_query_qp()}). */
public final class QpAttr {
    /** {@code qp_state}. */
    public QpState qpState = QpState.RESET;
    /** {@code cur_qp_state}. */
    public QpState curQpState = QpState.RESET;
    /** {@code path_mtu}. */
    public Mtu pathMtu = Mtu.MTU_256;
    /** {@code path_mig_state}. */
    public MigState pathMigState = MigState.MIGRATED;
    /** {@code qkey}. */
    public int qkey;
    /** {@code rq_psn} (24 bits). */
    public int rqPsn;
    /** {@code sq_psn} (24 bits). */
    public int sqPsn;
    /** {@code dest_qp_num}. */
    public int destQpNum;
    /** {@code qp_access_flags}: {@link AccessFlags} remote bits. */
    public int qpAccessFlags;
    /** {@code cap}. */
    public final QpCap cap = new QpCap();
    /** {@code ah_attr}: the primary path. */
    public final AhAttr ahAttr = new AhAttr();
    /** {@code alt_ah_attr}: the alternate path. */
    public final AhAttr altAhAttr = new AhAttr();
    /** {@code pkey_index}. */
    public int pkeyIndex;
    /** {@code alt_pkey_index}. */
    public int altPkeyIndex;
    /** {@code en_sqd_async_notify}. */
    public boolean enSqdAsyncNotify;
    /** {@code sq_draining}. */
    public boolean sqDraining;
    /** {@code max_rd_atomic}: outstanding RDMA READ/ATOMIC as initiator. */
    public int maxRdAtomic;
    /** {@code max_dest_rd_atomic}: responder resources. */
    public int maxDestRdAtomic;
    /** {@code min_rnr_timer}: IBTA RNR timer encoding 0..31. */
    public int minRnrTimer;
    /** {@code port_num}. */
    public int portNum;
    /** {@code timeout}: local ACK timeout exponent (4.096 us * 2^timeout), 0 = infinite. */
    public int timeout;
    /** {@code retry_cnt} (0..7). */
    public int retryCnt;
    /** {@code rnr_retry} (0..7, 7 = infinite). */
    public int rnrRetry;
    /** {@code alt_port_num}. */
    public int altPortNum;
    /** {@code alt_timeout}. */
    public int altTimeout;
    /** {@code rate_limit}. */
    public int rateLimit;
}
