package org.rdma.verbs;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A list of MRs kept on a QP for fast registration ({@code include/rdma/mr_pool.h}): the QP's
 * {@code rdma_mrs} and {@code sig_mrs} lists ({@link IbQp#rdmaMrs()}, {@link IbQp#sigMrs()}).
 * Thread-safe ({@code qp->mr_lock}); the QP destroys its lists when it is destroyed.
 */
@ProviderType
public interface IbMrPool {
    /**
     * {@code ib_mr_pool_init()}: allocates {@code nr} MRs on the QP's PD, of {@code type} with
     * room for {@code maxNumSg} pages ({@link MrType#INTEGRITY}: {@code maxNumSg} data and
     * {@code maxNumMetaSg} metadata entries), and adds them to the list. On failure the list is
     * emptied ({@code ib_mr_pool_destroy()}) and the allocation error thrown.
     */
    void init(int nr, MrType type, int maxNumSg, int maxNumMetaSg);

    /** {@code ib_mr_pool_get()}: takes an MR from the list, or {@code null} when it is empty. */
    IbMr get();

    /** {@code ib_mr_pool_put()}: returns an MR taken with {@link #get()}. */
    void put(IbMr mr);

    /**
     * {@code ib_mr_pool_destroy()}: deregisters every MR of the list. MRs still taken are
     * deregistered too (the kernel warns about them and would leak them); putting one back
     * later is ignored.
     */
    void destroy();

    /** MRs on the list now (not taken). */
    int size();
}
