package org.rdma.verbs;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The device registry of {@code drivers/infiniband/core/device.c}: lookups with reference
 * counts, and the unregistration calls. Published by the core as an OSGi service. What may be
 * called from client callbacks and service listeners, and which calls are fences, is the
 * registration contract in the package documentation of {@code org.rdma.verbs}.
 */
@ProviderType
public interface IbCore {
    /**
     * {@code ib_device_get_by_name()}: the registered device with this name and (unless
     * {@code null}) driver, held; release with {@link IbDevice#put()}. {@code null} if none.
     * Unregistration of a held device waits until every reference is put.
     */
    IbDevice getByName(String name, String driverId);

    /** {@code ib_device_get_by_netdev()}: the held device bound to this netdev, or {@code null}. */
    IbDevice getByNetdev(String netdev, String driverId);

    /** The registered devices in registration order (not held). */
    List<IbDevice> devices();

    /**
     * {@code ib_unregister_device()}: removes the device from every client, destroys what is
     * still open, waits for every reference to be put, then withdraws it. Returns when the
     * device is fully unregistered; safe to call concurrently and more than once.
     */
    void unregisterDevice(IbDevice device);

    /**
     * {@code ib_unregister_device_and_put()}: as {@link #unregisterDevice} for a device the
     * caller holds, dropping the caller's reference internally. Safe to call more than once.
     */
    void unregisterDeviceAndPut(IbDevice device);

    /**
     * {@code ib_unregister_device_queued()}: schedules the unregistration on a work queue and
     * returns at once; {@link #unregisterDriver} waits for it.
     */
    void unregisterDeviceQueued(IbDevice device);

    /**
     * {@code ib_unregister_driver()}: unregisters every device of the driver, including queued
     * unregistrations, and returns only when all of them are gone.
     */
    void unregisterDriver(String driverId);
}
