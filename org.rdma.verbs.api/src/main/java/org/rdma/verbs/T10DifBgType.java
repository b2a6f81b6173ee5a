package org.rdma.verbs;

/** Mirrors {@code enum ib_t10_dif_bg_type}: how the 16-bit block guard is computed. */
public enum T10DifBgType {
    /** {@code IB_T10DIF_CRC}: the T10-DIF CRC-16 (polynomial 0x8BB7), as SBC-3 defines the guard. */
    CRC,
    /** {@code IB_T10DIF_CSUM}: the Internet checksum (RFC 1071), the host-side DIX alternative. */
    CSUM
}
