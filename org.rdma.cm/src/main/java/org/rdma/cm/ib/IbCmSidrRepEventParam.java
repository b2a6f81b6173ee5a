package org.rdma.cm.ib;

import org.rdma.verbs.GidAttr;

/** The SIDR_REP that arrived: {@code struct ib_cm_sidr_rep_event_param}. */
public final class IbCmSidrRepEventParam {
    /** {@code status}: the wire value (see {@link IbCmSidrStatus#of}). */
    public int status;
    /** {@code qkey}. */
    public int qkey;
    /** {@code qpn}. */
    public int qpn;
    /** {@code info}: {@code info_len} bytes of additional information. */
    public byte[] info = new byte[0];
    /** {@code sgid_attr}: the local GID entry of the request's path (with a GRH), or {@code null}; lent for the call. */
    public GidAttr sgidAttr;
}
