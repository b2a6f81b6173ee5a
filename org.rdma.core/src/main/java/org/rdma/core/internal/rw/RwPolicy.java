package org.rdma.core.internal.rw;

import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.rw.DmaDataDirection;

/**
 * When {@code rdma_rw} registers memory instead of posting SGE lists, and how large its MRs are.
 * iWARP READs must target a registered MR ({@code rdma_protocol_iwarp()}); a device with
 * {@code max_sgl_rd} prefers MRs for READs with more elements; {@link #forceMr} (the ib_core
 * module parameter {@code force_mr}, set by the component's configuration) registers always.
 */
public final class RwPolicy {
    private RwPolicy() {
    }

    /** The most pages one rdma_rw MR maps ({@code rdma_rw_fr_page_list_len()}'s cap). */
    public static final int MAX_PAGES_PER_MR = 256;
    /** The page size MRs are mapped with ({@code PAGE_SIZE}, {@code SZ_4K}). */
    public static final int PAGE_SIZE = 4096;

    private static volatile boolean forceMr;

    /** {@code rdma_rw_force_mr}. */
    public static boolean forceMr() {
        return forceMr;
    }

    /** Sets {@code rdma_rw_force_mr}; affects QPs created from now on and every new context. */
    public static void setForceMr(boolean force) {
        forceMr = force;
    }

    /** {@code rdma_protocol_iwarp()}: the device is an RNIC. */
    static boolean iwarp(IbDevice dev, int port) {
        return dev.nodeType() == NodeType.RNIC;
    }

    /** {@code rdma_rw_can_use_mr()}: whether QPs of this device get MR pools for rdma_rw. */
    static boolean canUseMr(IbDevice dev, DeviceAttr a, int port) {
        return iwarp(dev, port) || a.maxSglRd > 0 || forceMr;
    }

    /** {@code rdma_rw_io_needs_mr()}: whether this transfer of {@code nents} elements registers memory. */
    static boolean ioNeedsMr(IbDevice dev, DeviceAttr a, int port, DmaDataDirection dir, int nents) {
        if (dir == DmaDataDirection.FROM_DEVICE) {
            if (iwarp(dev, port) || a.maxSglRd > 0 && nents > a.maxSglRd) {
                return true;
            }
        }
        return forceMr;
    }

    /** {@code rdma_rw_fr_page_list_len()}: pages per MR, for signature MRs when {@code pi}. */
    static int frPageListLen(DeviceAttr a, boolean pi) {
        int len = pi ? a.maxPiFastRegPageListLen : a.maxFastRegPageListLen;
        return Math.max(1, Math.min(len, MAX_PAGES_PER_MR));
    }
}
