package org.rdma.cm.rdma;

import org.rdma.cm.ib.IbCmRejReason;

/**
 * A communication event: {@code struct rdma_cm_event} with librdmacm's {@code id} and
 * {@code listen_id}. {@link #status()} is 0, a negative errno ({@code -ETIMEDOUT} ...) or, for
 * {@link RdmaCmEventType#REJECTED}, the IB CM reject reason. The {@code param} union is either
 * {@link #conn()} (connected ids) or {@link #ud()} (UD ids and multicast).
 */
public final class RdmaCmEvent {
    private final RdmaCmEventType event;
    private final int status;
    private final RdmaCmId id;
    private final RdmaCmId listenId;
    private final RdmaConnParam conn;
    private final RdmaUdParam ud;

    /**
     * @param event    the type
     * @param status   0, a negative errno, or a reject reason
     * @param id       the id the event is for (the new id of a {@code CONNECT_REQUEST})
     * @param listenId the listening id of a {@code CONNECT_REQUEST}, else {@code null}
     * @param conn     the connection parameters, or {@code null}
     * @param ud       the UD parameters, or {@code null}
     */
    public RdmaCmEvent(RdmaCmEventType event, int status, RdmaCmId id, RdmaCmId listenId, RdmaConnParam conn,
            RdmaUdParam ud) {
        this.event = event;
        this.status = status;
        this.id = id;
        this.listenId = listenId;
        this.conn = conn;
        this.ud = ud;
    }

    /** {@code event->event}. */
    public RdmaCmEventType event() {
        return event;
    }

    /** {@code event->status}. */
    public int status() {
        return status;
    }

    /** librdmacm's {@code event->id}. */
    public RdmaCmId id() {
        return id;
    }

    /** librdmacm's {@code event->listen_id}: the listener a {@code CONNECT_REQUEST} came through. */
    public RdmaCmId listenId() {
        return listenId;
    }

    /** {@code event->param.conn}, or {@code null} for UD and multicast events. */
    public RdmaConnParam conn() {
        return conn;
    }

    /** {@code event->param.ud}, or {@code null} for connected ids. */
    public RdmaUdParam ud() {
        return ud;
    }

    /** The private data of either union member, never {@code null}. */
    public byte[] privateData() {
        byte[] p = conn != null ? conn.privateData : ud != null ? ud.privateData : null;
        return p == null ? new byte[0] : p;
    }

    /**
     * {@code rdma_consumer_reject_data()}: the private data of a {@code REJECTED} event the peer's
     * consumer sent ({@link IbCmRejReason#CONSUMER_DEFINED}), else {@code null}.
     */
    public byte[] consumerRejectData() {
        return event == RdmaCmEventType.REJECTED && status == IbCmRejReason.CONSUMER_DEFINED.value ? privateData()
                : null;
    }

    @Override
    public String toString() {
        return "RdmaCmEvent[" + event + " status " + status + (conn != null ? " " + conn : "")
                + (ud != null ? " " + ud : "") + "]";
    }
}
