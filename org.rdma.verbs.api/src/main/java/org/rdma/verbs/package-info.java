/**
 * The consumer verbs API: the Java form of {@code include/rdma/ib_verbs.h} as kernel
 * upper-layer protocols see it. Devices ({@link org.rdma.verbs.IbDevice}), clients
 * ({@link org.rdma.verbs.IbClient}), and the verbs objects PD, AH, CQ, QP, SRQ, WQ, MR and MW.
 *
 * <p>Structures are plain mutable objects with public fields, like OSGi DTOs and like the
 * kernel structs they mirror, so the datapath can reuse them without allocating.
 * Control-path failures throw {@link org.rdma.verbs.RdmaException} carrying the errno;
 * datapath calls return 0 or a negative errno as the kernel does.
 *
 * <h2 id="registration">The registration contract</h2>
 * How the core runs {@link org.rdma.verbs.IbClient} callbacks and the {@link org.rdma.verbs.IbDevice}
 * service, after {@code drivers/infiniband/core/device.c}. {@code IbClient}, {@code IbCore} and the
 * core's registry point here; this is the one text.
 * <ol>
 * <li><b>Order.</b> Clients get ids in registration order ({@code assign_client_id()}). A device
 * being registered gets {@code add} from every registered client, oldest first; a client being
 * registered gets {@code add} for every registered device. A device being unregistered gets
 * {@code remove} from its clients newest first; a client being unregistered gets {@code remove}
 * for every device it was added to.</li>
 * <li><b>Once.</b> For one device and client, {@code add} runs at most once, and {@code remove}
 * runs exactly once if and only if {@code add} returned 0, with the data set by
 * {@link org.rdma.verbs.IbDevice#setClientData}; the two never overlap, nor do two callbacks of
 * one client for one device.</li>
 * <li><b>{@code add} runs under the core's registration lock</b>, as the kernel holds
 * {@code devices_rwsem} and {@code clients_rwsem} around {@code client->add()}. It may use the
 * device (queries, verbs, {@code setClientData}), call {@code getByName}/{@code put}, and register
 * or unregister OSGi services on its own thread. It must not wait for another thread that
 * registers or unregisters a device or client (that thread waits for the lock), nor unregister
 * its own device synchronously (use {@link org.rdma.verbs.IbCore#unregisterDeviceQueued}).</li>
 * <li><b>{@code remove} runs with no core lock held</b> ({@code ib_unregister_client()}: "we do
 * not want to have locks while calling client->remove()"). It may do anything {@code add} may,
 * and also unregister clients (its own or others, on its own thread or another it waits for)
 * and devices other than the one being removed.</li>
 * <li><b>Fences.</b> Unregistering a client (withdrawing its service) returns only when no
 * callback of the client runs any more, except one that called it from its own stack, which
 * finishes after. Unregistering a device ({@code unregisterDevice}, its provider service
 * withdrawn, {@code unregisterDriver}) returns only when every client was removed from it,
 * every reference was put, what clients left open was destroyed, its service was withdrawn and
 * its driver detached; called again from a callback of that unregistration, it returns at
 * once.</li>
 * <li><b>The {@code IbDevice} service</b> is registered after the clients registered at that
 * moment were added, and unregistered after every client was removed, both with no core lock
 * held: the framework's service listeners, trackers and component activations that these run
 * synchronously may register clients, take and put references, and unregister the device on
 * their own thread. A listener must not wait for another thread that unregisters the device
 * being published.</li>
 * </ol>
 *
 * <p>1.5: {@link org.rdma.verbs.Gid#isMulticastAddr()}, multicast GIDs as RoCE v2 has them;
 * {@link org.rdma.verbs.Gid#ntop()}, a GID as the C tools print it.
 *
 * <p>1.4: {@link org.rdma.verbs.HwStats}, a port's hardware counters.
 *
 * <p>1.1: signature (T10-PI) MRs ({@link org.rdma.verbs.SigAttrs}, {@link org.rdma.verbs.MrStatus},
 * {@link org.rdma.verbs.IbMr#checkMrStatus}), the QP's MR pools ({@link org.rdma.verbs.IbMrPool})
 * and what {@code rdma_rw} reads from a QP and device.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.5.0")
package org.rdma.verbs;
