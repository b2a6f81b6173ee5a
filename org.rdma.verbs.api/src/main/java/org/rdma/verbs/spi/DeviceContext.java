package org.rdma.verbs.spi;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEvent;

/** The core's side of a registered device, handed to {@link IbDeviceProvider#attach}. */
@ProviderType
public interface DeviceContext {
    /** The core's device object (its {@code struct ib_device}). */
    IbDevice device();

    /**
     * {@code ib_dispatch_event()}: delivers an event. Port and device events go to every
     * registered event handler (and Event Admin); QP, CQ, SRQ and WQ events go to that object's
     * handler. GID and P_Key changes also refresh the core's cache first.
     */
    void dispatchEvent(IbEvent event);

    /** {@code cq->comp_handler(cq, cq->cq_context)}: the driver reports a completion on an armed CQ. */
    void cqComplete(IbCq cq);

    /** {@code ib_device_set_netdev()}: binds a network interface name to a port ({@code null} unbinds). */
    void setNetdev(int port, String netdev);

    /** The DMA address space to translate SGE addresses under the {@code local_dma_lkey} and MR pages. */
    DmaSpace dma();

    /** The driver object behind a core verbs object this device created (e.g. an {@code IbAh} in a UD WR). */
    <T> T providerOf(Object coreObject, Class<T> type);
}
