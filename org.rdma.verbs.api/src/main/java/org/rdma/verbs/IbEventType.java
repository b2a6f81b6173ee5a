package org.rdma.verbs;

/**
 * Mirrors {@code enum ib_event_type}. Each type is also published on Event Admin under
 * {@link #topic()}.
 */
public enum IbEventType {
    /** {@code IB_EVENT_CQ_ERR}. */
    CQ_ERR,
    /** {@code IB_EVENT_QP_FATAL}. */
    QP_FATAL,
    /** {@code IB_EVENT_QP_REQ_ERR}. */
    QP_REQ_ERR,
    /** {@code IB_EVENT_QP_ACCESS_ERR}. */
    QP_ACCESS_ERR,
    /** {@code IB_EVENT_COMM_EST}. */
    COMM_EST,
    /** {@code IB_EVENT_SQ_DRAINED}. */
    SQ_DRAINED,
    /** {@code IB_EVENT_PATH_MIG}. */
    PATH_MIG,
    /** {@code IB_EVENT_PATH_MIG_ERR}. */
    PATH_MIG_ERR,
    /** {@code IB_EVENT_DEVICE_FATAL}. */
    DEVICE_FATAL,
    /** {@code IB_EVENT_PORT_ACTIVE}. */
    PORT_ACTIVE,
    /** {@code IB_EVENT_PORT_ERR}. */
    PORT_ERR,
    /** {@code IB_EVENT_LID_CHANGE}. */
    LID_CHANGE,
    /** {@code IB_EVENT_PKEY_CHANGE}. */
    PKEY_CHANGE,
    /** {@code IB_EVENT_SM_CHANGE}. */
    SM_CHANGE,
    /** {@code IB_EVENT_SRQ_ERR}. */
    SRQ_ERR,
    /** {@code IB_EVENT_SRQ_LIMIT_REACHED}. */
    SRQ_LIMIT_REACHED,
    /** {@code IB_EVENT_QP_LAST_WQE_REACHED}. */
    QP_LAST_WQE_REACHED,
    /** {@code IB_EVENT_CLIENT_REREGISTER}. */
    CLIENT_REREGISTER,
    /** {@code IB_EVENT_GID_CHANGE}. */
    GID_CHANGE,
    /** {@code IB_EVENT_WQ_FATAL}. */
    WQ_FATAL;

    /** Event Admin topic prefix for RDMA events. */
    public static final String TOPIC_PREFIX = "org/rdma/event/";

    /** The Event Admin topic, e.g. {@code org/rdma/event/PORT_ACTIVE}. */
    public String topic() {
        return TOPIC_PREFIX + name();
    }

    /** The text {@code ib_event_msg()} returns, e.g. "port active". */
    public String message() {
        switch (this) {
            case CQ_ERR: return "CQ error";
            case QP_FATAL: return "QP fatal error";
            case QP_REQ_ERR: return "QP request error";
            case QP_ACCESS_ERR: return "QP access error";
            case COMM_EST: return "communication established";
            case SQ_DRAINED: return "send queue drained";
            case PATH_MIG: return "path migration successful";
            case PATH_MIG_ERR: return "path migration error";
            case DEVICE_FATAL: return "device fatal error";
            case PORT_ACTIVE: return "port active";
            case PORT_ERR: return "port error";
            case LID_CHANGE: return "LID change";
            case PKEY_CHANGE: return "P_key change";
            case SM_CHANGE: return "SM change";
            case SRQ_ERR: return "SRQ error";
            case SRQ_LIMIT_REACHED: return "SRQ limit reached";
            case QP_LAST_WQE_REACHED: return "last WQE reached";
            case CLIENT_REREGISTER: return "client reregister";
            case GID_CHANGE: return "GID changed";
            default: return "WQ fatal";
        }
    }

    /** Whether the event concerns a port ({@code element.port_num} is valid). */
    public boolean isPortEvent() {
        switch (this) {
            case PORT_ACTIVE: case PORT_ERR: case LID_CHANGE: case PKEY_CHANGE: case SM_CHANGE:
            case CLIENT_REREGISTER: case GID_CHANGE:
                return true;
            default:
                return false;
        }
    }
}
