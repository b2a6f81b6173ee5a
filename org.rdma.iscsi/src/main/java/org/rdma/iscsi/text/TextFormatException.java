package org.rdma.iscsi.text;

/**
 * A text data segment or a login's keys break a rule of RFC 7143 chapter 6; the login answers it
 * with Status-Class 2 (initiator error), a Text Request with a Reject. {@link #reason()} says which rule.
 */
public final class TextFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The rules a text can break. */
    public enum Reason {
        /** A pair without '=' (6.1). */
        NO_EQUALS,
        /** An empty key or one with a character outside a-z A-Z 0-9 . - + @ _ (6.1). */
        BAD_KEY,
        /** A key longer than 63 bytes (6.1). */
        KEY_TOO_LONG,
        /** A value longer than its key allows (6.1: 255 bytes, more for large binary values). */
        VALUE_TOO_LONG,
        /** Bytes that are not UTF-8 (6.1). */
        NOT_UTF8,
        /** The data segment does not end with a NUL (6.1). */
        NOT_TERMINATED,
        /** The text of a C-bit sequence grew beyond the assembler's limit. */
        TOO_LONG,
        /** A key declared or offered a second time in one negotiation (6.2). */
        DUPLICATE_KEY,
        /** A key the sender may not send, or not in this phase (13, "Senders" and "Use"). */
        NOT_ALLOWED,
        /** A value the key requires is missing or malformed where the RFC makes it a protocol error. */
        BAD_VALUE,
        /** An answer outside what this side offered, or to a key it never offered (6.2). */
        BAD_ANSWER
    }

    private final Reason reason;

    public TextFormatException(Reason reason, String message) {
        super("EPROTO: " + reason + ": " + message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
