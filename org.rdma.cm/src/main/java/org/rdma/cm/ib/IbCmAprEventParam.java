package org.rdma.cm.ib;

/** The APR that arrived: {@code struct ib_cm_apr_event_param}. */
public final class IbCmAprEventParam {
    /** {@code ap_status}: the wire value (see {@link IbCmAprStatus#of}). */
    public int apStatus;
    /** {@code apr_info}: {@code info_len} bytes of additional information. */
    public byte[] aprInfo = new byte[0];
}
