package org.rdma.mad;

import java.util.BitSet;

/**
 * What requests an agent receives: {@code struct ib_mad_reg_req} (management class, class
 * version, OUI for vendor classes of range 2, and a mask of the 128 request methods).
 */
public final class MadRegRequest {
    /** {@code MAX_MGMT_VERSION}: class versions 0..7. */
    public static final int MAX_MGMT_VERSION = 8;
    /** {@code IB_MGMT_MAX_METHODS}. */
    public static final int MAX_METHODS = 128;

    /** {@code mgmt_class}. */
    public int mgmtClass;
    /** {@code mgmt_class_version}. */
    public int mgmtClassVersion;
    /** {@code oui}: 24 bits, vendor range 2 classes only. */
    public int oui;
    /** {@code method_mask}: bit {@code m} set receives requests of method {@code m}. */
    public final BitSet methodMask = new BitSet(MAX_METHODS);

    /** A request for {@code mgmtClass}/{@code classVersion} with the given methods. */
    public static MadRegRequest of(int mgmtClass, int classVersion, int... methods) {
        MadRegRequest r = new MadRegRequest();
        r.mgmtClass = mgmtClass;
        r.mgmtClassVersion = classVersion;
        for (int m : methods) {
            r.methodMask.set(m);
        }
        return r;
    }
}
