package org.rdma.verbs.runtime;

import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** The core's runtime service: a snapshot of the whiteboard and the resource tracker. */
@ProviderType
public interface IbRuntime {
    /** Service property of {@code IbDevice} services: the device name. */
    String DEVICE_NAME = "rdma.device.name";
    /** Service property: the driver id. */
    String DEVICE_DRIVER = "rdma.device.driver";
    /** Service property: the node GUID as 16 hex digits. */
    String DEVICE_NODE_GUID = "rdma.device.node_guid";
    /** Service property: the node type name. */
    String DEVICE_NODE_TYPE = "rdma.device.node_type";
    /** Service property: number of ports. */
    String DEVICE_PORTS = "rdma.device.ports";
    /** Service property: the link layer of each port, in port order. */
    String DEVICE_LINK_LAYER = "rdma.device.link_layer";

    /** Event Admin property of RDMA events: the device name. */
    String EVENT_DEVICE = "device";
    /** Event Admin property: the port number (port events). */
    String EVENT_PORT = "port";
    /** Event Admin property: the event type name. */
    String EVENT_TYPE = "type";
    /** Event Admin property: the human text of {@code ib_event_msg()}. */
    String EVENT_MESSAGE = "message";

    /**
     * Event Admin topic posted after a client's {@code add()} succeeded for a device (the
     * kernel's {@code add_client_context()}), with {@link #EVENT_DEVICE},
     * {@link RdmaNotifyEvent#PROP_DEV_INDEX} and {@link #EVENT_CLIENT}. The kernel has no
     * notification for this; the platform posts one so that the shell can show ULPs following
     * devices that come and go.
     */
    String TOPIC_CLIENT_ADD = "org/rdma/client/ADD";
    /** Event Admin topic posted after a client's {@code remove()} returned ({@code remove_client_context()}). */
    String TOPIC_CLIENT_REMOVE = "org/rdma/client/REMOVE";
    /** Event Admin property of client events: the client's name ({@code ib_client.name}). */
    String EVENT_CLIENT = "client";

    /** A snapshot of devices, clients and failures. */
    RuntimeDTO getRuntimeDTO();

    /**
     * {@code rdma res show TYPE}: tracked objects of {@code type} ({@code pd}, {@code cq},
     * {@code qp}, {@code srq}, {@code wq}, {@code mr}, {@code mw}, {@code ah}, or {@code null} for
     * all) on {@code device} ({@code null} for all devices).
     */
    ResourceDTO[] resources(String device, String type);

    /** {@code rdma res show}: per type, how many objects {@code device} has. */
    Map<String, Integer> resourceCounts(String device);

    /**
     * {@code rdma statistic show link DEV/PORT} ({@code nldev_stat_get_doit()} reading
     * {@code ib_get_hw_stats()}): the port's hardware counters by name, in the driver's order;
     * empty if the driver has none.
     *
     * @throws org.rdma.verbs.RdmaException {@code ENODEV} for an unknown device, {@code EINVAL}
     *         for a port it does not have
     */
    Map<String, Long> hwStats(String device, int port);
}
