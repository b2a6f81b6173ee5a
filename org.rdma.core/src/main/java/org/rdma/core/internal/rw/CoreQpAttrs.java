package org.rdma.core.internal.rw;

import org.rdma.verbs.DeviceAttr;

/**
 * What the core's QP offers {@code rdma_rw} beyond {@link org.rdma.verbs.IbQp}: the attributes of
 * its device without a copy per I/O ({@code qp->device->attrs}). Read only.
 */
public interface CoreQpAttrs {
    /** The device's attributes; must not be changed. */
    DeviceAttr deviceAttrs();
}
