package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.MrType;
import org.rdma.verbs.SigAttrs;

/**
 * The core's MR as {@code ops.map_mr_sg} sees it: the fields {@code ib_sg_to_pages()} reads and
 * writes ({@code mr->page_size}, {@code mr->iova}, {@code mr->length}).
 */
@ProviderType
public interface MrMapTarget {
    /** {@code mr->type}. */
    MrType type();

    /** {@code mr->page_size}, set by the core before {@code map_mr_sg}. */
    int pageSize();

    /** {@code mr->iova}. */
    long iova();

    /** Sets {@code mr->iova}. */
    void setIova(long iova);

    /** Sets {@code mr->length}. */
    void setLength(long length);

    /** {@code mr->length}. */
    long length();

    /** {@code mr->sig_attrs} of an INTEGRITY MR ({@code ops.map_mr_sg_pi} sets its {@code meta_length}); else null. */
    default SigAttrs sigAttrs() {
        return null;
    }
}
