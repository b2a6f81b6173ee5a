package org.rdma.iscsi.text;

/** How a key's two values become its result (RFC 7143 6.2, each key's "Result function" in 13). */
public enum ResultFunction {
    /** The first value of the originator's list the acceptor supports (6.2.1). */
    LIST,
    /** Boolean AND (6.2.2): No wins. */
    AND,
    /** Boolean OR (6.2.2): Yes wins. */
    OR,
    /** Numerical minimum (6.2.2). */
    MIN,
    /** Numerical maximum (6.2.2). */
    MAX,
    /** A declaration, not negotiated and not answered (6.2). */
    DECLARATIVE,
    /** A CHAP key of the security stage (12.1.3), handled by {@link ChapAuthenticator}. */
    AUTHENTICATION,
    /** A key RFC 7143 13.26 obsoletes: answered "Reject", never "NotUnderstood". */
    OBSOLETE
}
