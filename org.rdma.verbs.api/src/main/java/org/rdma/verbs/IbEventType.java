package org.rdma.verbs;

/**
 * Mirrors {@code enum ib_event_type}. Each type is also published on Event Admin under
 * {@link #topic()}.
 */
public enum IbEventType {
    CQ_ERR, QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR,
    DEVICE_FATAL, PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, SRQ_ERR,
    SRQ_LIMIT_REACHED, QP_LAST_WQE_REACHED, CLIENT_REREGISTER, GID_CHANGE, WQ_FATAL;

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
