package org.rdma.verbs;

/** The first signature error an INTEGRITY MR saw: {@code struct ib_sig_err}. */
public final class SigErr {
    /** {@code err_type}. */
    public SigErrType errType;
    /** {@code expected}: what the field should hold (computed guard, configured tag). */
    public int expected;
    /** {@code actual}: what the tuple held. */
    public int actual;
    /**
     * {@code sig_err_offset}: byte offset, in the MR's wire-domain view, of the protection
     * interval whose tuple failed (interval index times the wire interval size).
     */
    public long sigErrOffset;
    /** {@code key}: the MR key in use when the error was found. */
    public int key;

    /** Copies every field from {@code src}. */
    public SigErr copyFrom(SigErr src) {
        errType = src.errType;
        expected = src.expected;
        actual = src.actual;
        sigErrOffset = src.sigErrOffset;
        key = src.key;
        return this;
    }

    @Override
    public String toString() {
        return errType + " expected 0x" + Integer.toHexString(expected) + " actual 0x" + Integer.toHexString(actual)
                + " at offset " + sigErrOffset + " key 0x" + Integer.toHexString(key);
    }
}
