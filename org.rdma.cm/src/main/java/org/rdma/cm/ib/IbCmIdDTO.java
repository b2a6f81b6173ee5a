package org.rdma.cm.ib;

import org.osgi.dto.DTO;

/** One communication identifier as {@link IbCmService#cmIds()} lists it (for {@code rdma res cm_id}). */
public class IbCmIdDTO extends DTO {
    /** Device name. */
    public String device;
    /** Port of the primary path, 0 if none yet. */
    public int port;
    /** {@code cm_id->state}. */
    public IbCmState state;
    /** {@code cm_id->lap_state}. */
    public IbCmLapState lapState;
    /** {@code cm_id->local_id}. */
    public int localId;
    /** {@code cm_id->remote_id}. */
    public int remoteId;
    /** {@code cm_id->service_id}. */
    public long serviceId;
    /** {@code cm_id->service_mask}. */
    public long serviceMask;
    /** The local QP number of the connection ({@code cm_id_priv->local_qpn}), 0 if none. */
    public int localQpn;
    /** The remote QP number ({@code cm_id_priv->remote_qpn}), 0 if not known. */
    public int remoteQpn;
}
