package org.rdma.verbs;

/** Creation attributes of a QP: {@code struct ib_qp_init_attr} ({@code ib_create_qp()}). */
public final class QpInitAttr {
    /** {@code IB_QP_CREATE_INTEGRITY_EN}: the QP may post {@link WrOpcode#REG_MR_INTEGRITY}. */
    public static final int CREATE_INTEGRITY_EN = 1 << 6;

    /** {@code event_handler}: asynchronous QP events. */
    public IbEventHandler eventHandler;
    /** {@code qp_context}: opaque consumer context. */
    public Object qpContext;
    /** {@code send_cq}. */
    public IbCq sendCq;
    /** {@code recv_cq}. */
    public IbCq recvCq;
    /** {@code srq}, or {@code null}. */
    public IbSrq srq;
    /** {@code cap}: requested sizes; updated with the actual ones. */
    public final QpCap cap = new QpCap();
    /** {@code sq_sig_type}. */
    public SigType sqSigType = SigType.ALL_WR;
    /** {@code qp_type}. */
    public QpType qpType = QpType.RC;
    /** {@code create_flags}. */
    public int createFlags;
    /** {@code port_num}: required for SMI/GSI QPs. */
    public int portNum;
    /** {@code source_qpn}. */
    public int sourceQpn;
}
