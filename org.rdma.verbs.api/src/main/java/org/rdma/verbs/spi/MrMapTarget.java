package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.MrType;

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
}
