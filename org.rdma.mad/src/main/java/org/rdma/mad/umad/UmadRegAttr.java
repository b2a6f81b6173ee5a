package org.rdma.mad.umad;

import java.util.BitSet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * What an agent registers for: {@code struct umad_reg_attr} (libibumad/umad.h), the argument of
 * {@code umad_register2()} ({@code IB_USER_MAD_REGISTER_AGENT2}).
 *
 * @param mgmtClass        {@code mgmt_class}; 0 registers a send-only agent for responses
 * @param mgmtClassVersion {@code mgmt_class_version}
 * @param flags            {@code flags}: {@link #UMAD_USER_RMPP} or 0
 * @param methodMask       {@code method_mask}: the request methods (0..127) delivered to the agent
 * @param oui              {@code oui}: 24 bits, vendor classes 0x30..0x4f only
 * @param rmppVersion      {@code rmpp_version}: 0, or 1 for an RMPP class
 */
public record UmadRegAttr(int mgmtClass, int mgmtClassVersion, int flags, BitSet methodMask, int oui,
        int rmppVersion) {
    /** {@code UMAD_USER_RMPP}: the agent segments and reassembles RMPP itself. */
    public static final int UMAD_USER_RMPP = 1;

    /** Copies the mask and checks the field widths ({@code EINVAL} otherwise). */
    public UmadRegAttr {
        methodMask = methodMask == null ? new BitSet() : (BitSet) methodMask.clone();
        RdmaException.check(mgmtClass >= 0 && mgmtClass <= 0xff && mgmtClassVersion >= 0 && mgmtClassVersion <= 0xff
                && rmppVersion >= 0 && rmppVersion <= 0xff && oui >= 0 && oui <= 0xff_ffff
                && methodMask.length() <= 128 && (flags & ~UMAD_USER_RMPP) == 0, Errno.EINVAL,
                "bad registration: class 0x" + Integer.toHexString(mgmtClass) + " version " + mgmtClassVersion
                + " flags 0x" + Integer.toHexString(flags) + " oui 0x" + Integer.toHexString(oui) + " rmpp "
                + rmppVersion);
    }

    /** {@code method_mask}, copied. */
    @Override
    public BitSet methodMask() {
        return (BitSet) methodMask.clone();
    }
}
