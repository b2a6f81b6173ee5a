package org.rdma.cm.ib;

import org.rdma.mad.sa.PathRecord;

/** The LAP that arrived: {@code struct ib_cm_lap_event_param}. */
public final class IbCmLapEventParam {
    /** {@code alternate_path}: the proposed alternate path, seen from this node. */
    public PathRecord alternatePath;
}
