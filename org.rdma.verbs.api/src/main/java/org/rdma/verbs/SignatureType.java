package org.rdma.verbs;

/** Mirrors {@code enum ib_signature_type}: the protection format of one signature domain. */
public enum SignatureType {
    /** {@code IB_SIG_TYPE_NONE}: the domain carries no protection information. */
    NONE,
    /** {@code IB_SIG_TYPE_T10_DIF}: an 8-byte T10 DIF tuple (guard, application tag, reference tag) per interval. */
    T10_DIF
}
