package org.rdma.cm.ib;

/** What {@link IbCmService#sendCmSidrRep} answers: {@code struct ib_cm_sidr_rep_param}. */
public final class IbCmSidrRepParam {
    /** {@code qp_num}: the UD QP serving the service. */
    public int qpNum;
    /** {@code qkey}: its Q_Key. */
    public int qkey;
    /** {@code status}. */
    public IbCmSidrStatus status = IbCmSidrStatus.SUCCESS;
    /** {@code info}: additional information, at most {@link IbCm#SIDR_REP_INFO_LENGTH} bytes, or {@code null}. */
    public byte[] info;
    /** {@code private_data}: at most {@link IbCm#SIDR_REP_PRIVATE_DATA_SIZE} bytes, or {@code null}. */
    public byte[] privateData;
}
