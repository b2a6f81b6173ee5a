package org.rdma.verbs.runtime;

/**
 * {@code enum rdma_nl_notify_event_type}: the device lifecycle notifications the kernel sends
 * to the {@code RDMA_NL_GROUP_NOTIFY} netlink group ({@code rdma_nl_notify_event()}) and
 * iproute2's {@code rdma monitor} prints. Here they are Event Admin events on
 * {@link #topic()}, with the properties {@link IbRuntime#EVENT_DEVICE},
 * {@link #PROP_DEV_INDEX}, and for netdev events {@link IbRuntime#EVENT_PORT} and
 * {@link #PROP_NETDEV}.
 */
public enum RdmaNotifyEvent {
    /** {@code RDMA_REGISTER_EVENT}: sent once the device is registered and its clients added. */
    REGISTER,
    /** {@code RDMA_UNREGISTER_EVENT}: sent when unregistration starts. */
    UNREGISTER,
    /** {@code RDMA_NETDEV_ATTACH_EVENT}: {@code ib_device_set_netdev()} attached a netdev to a port. */
    NETDEV_ATTACH,
    /** {@code RDMA_NETDEV_DETACH_EVENT}: a port's netdev was detached. */
    NETDEV_DETACH,
    /** {@code RDMA_RENAME_EVENT}. */
    RENAME,
    /** {@code RDMA_NETDEV_RENAME_EVENT}. */
    NETDEV_RENAME;

    /** Event Admin topic prefix of these events. */
    public static final String TOPIC_PREFIX = "org/rdma/nldev/";
    /** Event property {@code RDMA_NLDEV_ATTR_DEV_INDEX}: the device index (an {@code Integer}). */
    public static final String PROP_DEV_INDEX = "dev.index";
    /** Event property {@code RDMA_NLDEV_ATTR_NDEV_NAME}: the netdev name. */
    public static final String PROP_NETDEV = "netdev";

    /** The Event Admin topic, e.g. {@code org/rdma/nldev/REGISTER}. */
    public String topic() {
        return TOPIC_PREFIX + name();
    }

    /** The kernel's value ({@code RDMA_REGISTER_EVENT} is 0). */
    public int value() {
        return ordinal();
    }
}
