package org.rdma.cm.ib;

/** The REJ that arrived, or a local timeout: {@code struct ib_cm_rej_event_param}. */
public final class IbCmRejEventParam {
    /** {@code reason}: the wire value (see {@link IbCmRejReason#of}). */
    public int reason;
    /** {@code ari}: the additional rejection information, {@code ari_length} bytes (may be empty). */
    public byte[] ari = new byte[0];

    /** The reason as the enum, or {@code null} for a value the IBTA does not define. */
    public IbCmRejReason rejReason() {
        return IbCmRejReason.of(reason);
    }
}
