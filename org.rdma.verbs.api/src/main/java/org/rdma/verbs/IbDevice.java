package org.rdma.verbs;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A registered RDMA device: {@code struct ib_device} as the core owns it. Published as an OSGi
 * service with the properties named in {@code org.rdma.verbs.runtime.IbRuntime}, handed to
 * {@link IbClient#add}, and returned held by {@link IbCore#getByName}.
 *
 * <p>Every verb goes through this object, which checks state, tracks resources and fences
 * against unregistration before it reaches the driver.
 */
@ProviderType
public interface IbDevice {
    /** {@code dev_name(&device->dev)}, unique among registered devices, e.g. {@code mlx4_0}. */
    String name();

    /** {@code device->ops.driver_id}: the driver's name, e.g. {@code mlx4sim}, {@code rxe}. */
    String driverId();

    /** {@code device->node_type}. */
    NodeType nodeType();

    /** {@code device->node_guid}. */
    long nodeGuid();

    /** {@code device->node_desc}. */
    String nodeDesc();

    /** {@code rdma_start_port()}: 0 for switches, 1 otherwise. */
    int startPort();

    /** {@code rdma_end_port()}: {@code phys_port_cnt} (0 for switches). */
    int endPort();

    /** {@code device->attrs}: a copy of the device attributes ({@code ib_query_device}). */
    DeviceAttr attrs();

    /** Whether the device is still registered ({@code ib_device_try_get} would succeed). */
    boolean isRegistered();

    /** {@code ib_query_port()}: the port's attributes; EINVAL for a bad port. */
    PortAttr queryPort(int port);

    /** {@code rdma_port_get_link_layer()}. */
    LinkLayer getLinkLayer(int port);

    /** {@code rdma_query_gid()}: the cached GID at {@code index}; ENOENT if the slot is empty. */
    Gid queryGid(int port, int index);

    /** {@code rdma_get_gid_attr()}: the held GID entry at {@code index}; ENOENT if empty. */
    GidAttr getGidAttr(int port, int index);

    /** {@code rdma_find_gid()}: the held entry with this GID, type and netdev ({@code null} = any); ENOENT. */
    GidAttr findGidAttr(Gid gid, GidType gidType, String netdev);

    /** {@code ib_find_gid()}: the port and index of a GID; ENOENT if no port has it. */
    PortIndex findGid(Gid gid);

    /** {@code ib_query_pkey()}: the cached P_Key at {@code index}. */
    int queryPkey(int port, int index);

    /**
     * {@code ib_find_pkey()}: the index of {@code pkey} on {@code port}, matching the low 15 bits
     * and preferring a full member; ENOENT if absent.
     */
    int findPkey(int port, int pkey);

    /** {@code ib_modify_device()}. */
    void modifyDevice(int mask, DeviceModify modify);

    /** {@code ib_modify_port()}. */
    void modifyPort(int port, int mask, PortModify modify);

    /** {@code ib_device_get_netdev()}: the network interface bound to the port, or {@code null}. */
    String netdev(int port);

    /** {@code ib_register_event_handler()}: {@code handler} receives this device's events. */
    void registerEventHandler(IbEventHandler handler);

    /** {@code ib_unregister_event_handler()}: a fence; the handler is not called after return. */
    void unregisterEventHandler(IbEventHandler handler);

    /** {@code ib_set_client_data()}: only valid between the client's add and remove. */
    void setClientData(IbClient client, Object data);

    /** {@code ib_get_client_data()}: the client's data, or {@code null}. */
    Object getClientData(IbClient client);

    /** The names of the clients added to this device, in registration order. */
    List<String> clientNames();

    /** {@code ib_device_put()}: releases a reference taken by {@link IbCore#getByName}. */
    void put();

    /**
     * {@code ib_alloc_pd()}: a protection domain owned (for {@code rdma res}) by the calling
     * bundle, as the kernel records {@code KBUILD_MODNAME}.
     */
    IbPd allocPd(int flags);

    /** {@code __ib_alloc_pd()}: as {@link #allocPd(int)} with an explicit owner name. */
    IbPd allocPd(int flags, String caller);

    /**
     * {@code ib_alloc_cq()}: a CQ whose completions are delivered to each work request's
     * {@link IbCqe} in the given poll context.
     */
    IbCq allocCq(Object context, int nrCqe, int compVector, PollContext pollCtx);

    /** {@code __ib_alloc_cq()}: as {@link #allocCq} with an explicit owner name. */
    IbCq allocCq(Object context, int nrCqe, int compVector, PollContext pollCtx, String caller);

    /** {@code ib_alloc_cq_any()}: as {@link #allocCq}, spreading CQs over completion vectors. */
    IbCq allocCqAny(Object context, int nrCqe, PollContext pollCtx);

    /**
     * {@code ib_create_cq()}: a CQ that calls {@code compHandler} when armed with
     * {@link IbCq#reqNotifyCq} and a completion arrives; the consumer polls it.
     */
    IbCq createCq(IbCompHandler compHandler, IbEventHandler eventHandler, Object context, CqInitAttr attr);

    /**
     * {@code ib_dma_map_single()}: maps {@code buffer} (its position to limit) into the device's
     * DMA address space and returns the address; usable with {@link IbPd#localDmaLkey()} and by
     * {@link IbMr#mapMrSg}.
     */
    long dmaMapSingle(ByteBuffer buffer);

    /** {@code ib_dma_unmap_single()}: removes a mapping made by {@link #dmaMapSingle}. */
    void dmaUnmapSingle(long dmaAddr);

    /**
     * {@code rdma_restrack_add()} for an object that lives above the verbs, as {@code cma.c}
     * tracks its {@code RDMA_RESTRACK_CM_ID}s: {@code rdma res show TYPE} then lists it, with
     * {@code owner} ({@code res->kern_name}; null: the calling bundle) and the {@code key value}
     * pairs {@code attrs} supplies at the time of the listing.
     *
     * @param type the {@code rdma res} type name; only {@code "cm_id"} is not a verbs object
     * @throws RdmaException EINVAL for another type
     */
    RestrackEntry restrackAdd(String type, String owner, Supplier<Map<String, String>> attrs);
}
