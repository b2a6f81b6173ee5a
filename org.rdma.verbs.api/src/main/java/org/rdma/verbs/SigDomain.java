package org.rdma.verbs;

/** One side of a signature MR, memory or wire: {@code struct ib_sig_domain}. */
public final class SigDomain {
    /** {@code sig_type}. */
    public SignatureType sigType = SignatureType.NONE;
    /** {@code sig.dif}: used when {@link #sigType} is {@link SignatureType#T10_DIF}. */
    public final T10DifDomain dif = new T10DifDomain();

    /** Whether this domain carries T10 DIF tuples. */
    public boolean isDif() {
        return sigType == SignatureType.T10_DIF;
    }

    /** Copies every field from {@code src}. */
    public SigDomain copyFrom(SigDomain src) {
        sigType = src.sigType;
        dif.copyFrom(src.dif);
        return this;
    }
}
