package org.rdma.verbs;

/** Mirrors {@code enum ib_sig_err_type}: which tuple field failed its check. */
public enum SigErrType {
    /** {@code IB_SIG_BAD_GUARD}: the guard does not match the data. */
    BAD_GUARD,
    /** {@code IB_SIG_BAD_REFTAG}: the reference tag is not the expected one. */
    BAD_REFTAG,
    /** {@code IB_SIG_BAD_APPTAG}: the application tag (under its check mask) is not the expected one. */
    BAD_APPTAG
}
