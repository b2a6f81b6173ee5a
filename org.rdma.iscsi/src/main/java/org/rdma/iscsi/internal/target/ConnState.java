package org.rdma.iscsi.internal.target;

import java.util.EnumSet;
import java.util.Set;

/**
 * The target's connection states of RFC 7143 8.1.2 (S2, the initiator's XPT_WAIT, does not occur
 * on a target). The engine owns a connection from LOGGED_IN on; XPT_UP and IN_LOGIN belong to the
 * login phase in front of it. Each state lists the states it may move to (8.1.3), so a transition
 * the RFC does not draw fails instead of passing silently.
 */
public enum ConnState {
    /** S1: no connection, or it is gone. */
    FREE("S1"),
    /** S3: the transport is up, no Login Request yet. */
    XPT_UP("S3"),
    /** S4: login in progress. */
    IN_LOGIN("S4"),
    /** S5: the full feature phase. */
    LOGGED_IN("S5"),
    /** S6: a Logout Request arrived; the response is on its way. */
    IN_LOGOUT("S6"),
    /** S7: the target asked for a logout (Asynchronous Message, AsyncEvent 1) and waits for it. */
    LOGOUT_REQUESTED("S7"),
    /** S8: the transport failed or was dropped; the connection's tasks are being cleaned up. */
    CLEANUP_WAIT("S8");

    private final String label;

    ConnState(String label) {
        this.label = label;
    }

    /** The RFC's name, e.g. "S5". */
    public String label() {
        return label;
    }

    /** The states the RFC lets a target connection go to from this one. */
    public Set<ConnState> next() {
        return switch (this) {
            case FREE -> EnumSet.of(XPT_UP);
            case XPT_UP -> EnumSet.of(IN_LOGIN, FREE);
            case IN_LOGIN -> EnumSet.of(LOGGED_IN, FREE);
            case LOGGED_IN -> EnumSet.of(IN_LOGOUT, LOGOUT_REQUESTED, CLEANUP_WAIT, FREE);
            case LOGOUT_REQUESTED -> EnumSet.of(IN_LOGOUT, CLEANUP_WAIT, FREE);
            case IN_LOGOUT -> EnumSet.of(FREE, CLEANUP_WAIT);
            case CLEANUP_WAIT -> EnumSet.of(FREE);
        };
    }
}
