package org.rdma.iscsi.internal.target;

import java.util.EnumSet;
import java.util.Set;

/**
 * The target's session states of RFC 7143 8.3.2, with the moves of 8.3.3 each state allows. The
 * engine creates a session when its leading login succeeds; ACTIVE (Q2) is the login's.
 */
public enum SessionState {
    /** Q1: no session (not yet, or no longer). */
    FREE("Q1"),
    /** Q2: the leading login is under way. */
    ACTIVE("Q2"),
    /** Q3: at least one connection is in the full feature phase. */
    LOGGED_IN("Q3"),
    /** Q4: its last connection failed; the state is kept for DefaultTime2Retain for a reinstatement. */
    FAILED("Q4"),
    /** Q5: a connection is logging in to continue the failed session (ErrorRecoveryLevel 2 only). */
    IN_CONTINUE("Q5");

    private final String label;

    SessionState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public Set<SessionState> next() {
        return switch (this) {
            case FREE -> EnumSet.of(ACTIVE);
            case ACTIVE -> EnumSet.of(LOGGED_IN, FREE);
            case LOGGED_IN -> EnumSet.of(FAILED, FREE);
            case FAILED -> EnumSet.of(IN_CONTINUE, FREE);
            case IN_CONTINUE -> EnumSet.of(LOGGED_IN, FAILED, FREE);
        };
    }
}
