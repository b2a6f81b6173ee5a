package org.rdma.verbs;

/** Mirrors {@code enum ib_sig_type}: which completions a QP generates for send work requests. */
public enum SigType {
    /** {@code IB_SIGNAL_ALL_WR}. */
    ALL_WR,
    /** {@code IB_SIGNAL_REQ_WR}: only requests with {@link SendFlags#SIGNALED}. */
    REQ_WR
}
