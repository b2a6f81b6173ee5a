package org.rdma.verbs;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * An upper-layer protocol that wants to know about devices: {@code struct ib_client}.
 * Publish it as an OSGi service; the core registers it as {@code ib_register_client()} does
 * and unregisters it when the service goes away ({@code ib_unregister_client()}).
 *
 * <p>{@link #add} is called for every device in client registration order, and for every
 * device registered later; {@link #remove} in reverse order, never concurrently with another
 * callback for the same device. {@code add} runs under the core's registration lock,
 * {@code remove} without any; unregistration of the client or the device is a fence. The
 * whole contract, with what each callback may and must not do, is the registration contract
 * in the package documentation of {@code org.rdma.verbs}.
 */
@ConsumerType
public interface IbClient {
    /** {@code client->name}. */
    String name();

    /**
     * {@code client->add(device)}. Return 0, or a negative errno (usually
     * {@code -EOPNOTSUPP}) when the client does not want this device; then {@link #remove} is
     * not called for it and its client data stays unset.
     */
    int add(IbDevice device);

    /**
     * {@code client->remove(device, client_data)}: the device is going away or the client is
     * unregistering. Release everything taken on the device before returning.
     */
    void remove(IbDevice device, Object clientData);

    /** {@code client->rename(device, client_data)}: the device was renamed. */
    default void rename(IbDevice device, Object clientData) {
    }
}
