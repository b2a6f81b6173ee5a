package org.rdma.verbs.wire;

/**
 * A MAD attribute codec: a class-specific structure carried in the data area of a MAD and named by
 * the {@code AttributeID} of the common MAD header (IBTA vol. 1, 13.4.2 and 13.4.8).
 *
 * <p>Every implementation in this package is a plain mutable holder with public fields and a
 * static {@code TABLE} of {@link IbField}s, encoded with {@link IbPack} in network byte order.
 * {@link #pack(byte[], int)} writes exactly {@link #byteLength()} bytes, including the reserved
 * bits (as zeros); bytes beyond the attribute are left alone.
 */
public interface MadAttribute {

    /** @return the attribute ID this structure is carried under */
    int attrId();

    /** @return the attribute's length on the wire in bytes */
    int byteLength();

    /**
     * Packs the attribute.
     *
     * @param buf destination
     * @param off offset of the attribute's first byte
     * @return {@link #byteLength()}
     * @throws IndexOutOfBoundsException if the attribute does not fit
     */
    int pack(byte[] buf, int off);
}
