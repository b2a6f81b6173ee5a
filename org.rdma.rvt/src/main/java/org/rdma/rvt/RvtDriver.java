package org.rdma.rvt;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.GidEntry;

/**
 * What a driver plugs into the transport ({@code struct rvt_driver_provided}): its ports and how
 * packets leave. Called without transport locks held; {@link #transmit} may deliver synchronously
 * (even back into the same device).
 */
@ConsumerType
public interface RvtDriver {
    /** {@code query_port}: the port's current attributes. */
    PortAttr queryPort(int port);

    /** {@code query_gid}: the GID table slot, or {@code null} if empty. */
    GidEntry queryGid(int port, int index);

    /** {@code query_pkey}: the P_Key table entry (0 for an empty slot). */
    int queryPkey(int port, int index);

    /** {@code modify_port}; EOPNOTSUPP unless the driver supports it. */
    default void modifyPort(int port, int mask, PortModify modify) {
        throw new RdmaException(Errno.EOPNOTSUPP, "modify_port is not supported");
    }

    /**
     * Completes an address vector for sending on {@code port} (create AH, modify QP with an AV):
     * on RoCE fill {@code attr.dmac}. Throws {@link RdmaException} ({@code EHOSTUNREACH}) if the
     * destination cannot be resolved.
     */
    default void resolveAh(int port, AhAttr attr) {
    }

    /**
     * Wraps the transport packet in the port's link and network headers (LRH[/GRH] on InfiniBand,
     * Ethernet/IP/UDP on RoCE) using {@link RvtPacket#av}, adds the CRCs, and sends it. Packets
     * addressed to this device's own port are sent the same way: loopback is the driver's (or its
     * fabric's) job, which may shortcut to {@link RvtDevice#receive}.
     *
     * @return 0 when sent (or dropped by the network: RC recovers), or {@code -EAGAIN} when the
     *     driver has no room now; the transport then retries the packet later
     */
    int transmit(int port, RvtPacket pkt);

    /**
     * The longest {@linkplain RvtPacket#segments train} {@link #transmit} takes on {@code port}
     * ({@code gso_max_segs}); the transport asks again whenever it refreshes the port.
     *
     * @return 1 (the default) when every packet must travel on its own
     */
    default int maxSegments(int port) {
        return 1;
    }

    /**
     * {@code rxe_mcast_add()}: the first QP of the device attached to the multicast group
     * {@code mgid} on {@code port}, so the port must start receiving it (join the IP group, add the
     * link-level address). Called on the attaching thread, with the device's multicast table locked
     * so joins and leaves of one group reach the driver in order; it must not call back into the
     * transport.
     *
     * @throws RdmaException with the errno the attach then fails with (nothing stays attached)
     */
    default void mcastAdd(int port, Gid mgid) {
    }

    /**
     * {@code rxe_mcast_del()}: the last QP left the group {@code mgid} (detach or destroy), so the
     * port may stop receiving it. Called as {@link #mcastAdd} is; a failure is the driver's to
     * count, as detaching and destroying cannot fail.
     */
    default void mcastDel(int port, Gid mgid) {
    }

    /**
     * The names of the driver's own counters for {@code port}, shown after the transport's
     * ({@code rdma statistic show}); none by default. Asked once per port.
     */
    default String[] hwStatNames(int port) {
        return new String[0];
    }

    /** Fills the counters {@link #hwStatNames} names into {@code value[offset...]}; allocates nothing. */
    default void getHwStats(int port, long[] value, int offset) {
    }
}
