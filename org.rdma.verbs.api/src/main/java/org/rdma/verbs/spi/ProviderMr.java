package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.SgEntry;

/** A driver's memory region ({@code ops.reg_user_mr}, {@code ops.alloc_mr}, {@code ops.get_dma_mr}). */
@ConsumerType
public interface ProviderMr {
    /** The lkey the driver assigned. */
    int lkey();

    /** The rkey the driver assigned. */
    int rkey();

    /**
     * {@code ops.map_mr_sg}: builds the page list, usually through
     * {@link SgToPages#sgToPages}; returns the number of elements mapped or a negative errno.
     */
    default int mapMrSg(MrMapTarget mr, SgEntry[] sg, int nents, int[] sgOffset) {
        return -Errno.EOPNOTSUPP.value;
    }

    /**
     * {@code ops.map_mr_sg_pi}: maps every data and metadata element (else a negative errno), sets
     * the target's IOVA and length and {@code sig_attrs->meta_length} ({@link MrMapTarget#sigAttrs()});
     * 0 or a negative errno.
     */
    default int mapMrSgPi(MrMapTarget mr, SgEntry[] dataSg, int dataNents, int[] dataSgOffset,
            SgEntry[] metaSg, int metaNents, int[] metaSgOffset) {
        return -Errno.EOPNOTSUPP.value;
    }

    /**
     * {@code ops.check_mr_status}: the core has checked {@code checkMask}; report and clear the
     * first signature error in {@code status}. 0 or a negative errno; never allocates.
     */
    default int checkMrStatus(int checkMask, MrStatus status) {
        return -Errno.EOPNOTSUPP.value;
    }

    /**
     * Called after the core changed the low 8 bits of the keys ({@code ib_update_fast_reg_key()}),
     * so the driver can check the key of the next registration request.
     */
    default void keysUpdated(int lkey, int rkey) {
    }

    /** {@code ops.dereg_mr}. */
    void dereg();
}
