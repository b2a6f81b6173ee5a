package org.rdma.cm.rdma;

import java.net.SocketAddress;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;

/**
 * The RDMA CM: the exported functions of drivers/infiniband/core/cma.c with librdmacm's event
 * channels. Errors throw {@link org.rdma.verbs.RdmaException} with the kernel's errno:
 * {@code EINVAL} for a call the id's state does not allow or a bad parameter,
 * {@code EADDRNOTAVAIL} for an address no local port has, {@code EADDRINUSE} for a port taken,
 * {@code ENODEV} when no device serves the address, {@code ENETUNREACH} when no port can route
 * to it. Asynchronous results arrive as events: through the id's {@link RdmaCmHandler}, or queued
 * on its {@link RdmaEventChannel}.
 *
 * <p>Addresses are {@link java.net.InetSocketAddress} (IPv4, IPv6; {@code AF_INET},
 * {@code AF_INET6}) or {@link IbSocketAddress} ({@code AF_IB}, for InfiniBand ports, which carry
 * no IPoIB addresses here).
 */
@ProviderType
public interface RdmaCmService {
    // ================================================================== ids

    /**
     * {@code rdma_create_id()}: a new id in {@link RdmaCmState#IDLE} whose events go to
     * {@code handler}.
     *
     * @param ps     the port space
     * @param qpType {@link QpType#RC}, {@link QpType#UC} or {@link QpType#UD}
     */
    RdmaCmId createId(RdmaCmHandler handler, Object context, RdmaPortSpace ps, QpType qpType);

    /** librdmacm's {@code rdma_create_id()}: a new id whose events queue on {@code channel}. */
    RdmaCmId createId(RdmaEventChannel channel, Object context, RdmaPortSpace ps, QpType qpType);

    /**
     * {@code rdma_destroy_id()}: cancels what the id has under way, leaves its connection (a
     * DREQ or REJ on the wire as due), multicast groups and port, destroys the QP it created if
     * the consumer did not, and waits for a handler of the id running on another thread. Must not
     * be called from the id's own handler (return non-zero there instead).
     *
     * @throws org.rdma.verbs.RdmaException EINVAL from the id's handler; EBUSY for a channel id
     *         with events read and not yet acknowledged
     */
    void destroyId(RdmaCmId id);

    /**
     * {@code rdma_bind_addr()}: binds the id to a local address and port (port 0 picks a free
     * one) and, unless the address is a wildcard, to the device and port that own it.
     */
    void bindAddr(RdmaCmId id, SocketAddress addr);

    /**
     * {@code rdma_resolve_addr()}: binds the id if it is not ({@code src} or a wildcard), finds
     * the device, port and source GID that reach {@code dst} and reports
     * {@link RdmaCmEventType#ADDR_RESOLVED}, or {@link RdmaCmEventType#ADDR_ERROR} with
     * {@code -ETIMEDOUT} when the destination does not answer within {@code timeoutMs}.
     *
     * @param src the source address, or {@code null}
     * @throws org.rdma.verbs.RdmaException ENETUNREACH when no port can reach {@code dst},
     *         EADDRNOTAVAIL for an IP address only InfiniBand ports could reach
     */
    void resolveAddr(RdmaCmId id, SocketAddress src, SocketAddress dst, int timeoutMs);

    /**
     * {@code rdma_resolve_route()}: a PathRecord from the SA on InfiniBand, a local path on
     * RoCE; {@link RdmaCmEventType#ROUTE_RESOLVED} or {@link RdmaCmEventType#ROUTE_ERROR}.
     */
    void resolveRoute(RdmaCmId id, int timeoutMs);

    // ================================================================== QPs

    /**
     * {@code rdma_create_qp()}: a QP of the id's type on its device and port, moved to INIT
     * (and for UD on to RTS) with the attributes of {@link #initQpAttr}; the CM moves a
     * connected QP to RTR and RTS when the connection is made.
     *
     * @throws org.rdma.verbs.RdmaException EINVAL if {@code pd} is on another device or the id has a QP
     */
    IbQp createQp(RdmaCmId id, IbPd pd, QpInitAttr init);

    /** {@code rdma_destroy_qp()}. */
    void destroyQp(RdmaCmId id);

    /**
     * {@code rdma_init_qp_attr()}: the attributes for the transition to {@code attr.qpState}
     * and their mask.
     */
    int initQpAttr(RdmaCmId id, QpAttr attr);

    // ================================================================== connections

    /**
     * {@code rdma_connect()}: a REQ (connected ids) or SIDR_REQ (UD ids) with the IP CM header in
     * front of the private data; the id goes to {@link RdmaCmState#CONNECT}.
     */
    void connect(RdmaCmId id, RdmaConnParam param);

    /**
     * {@code rdma_listen()}: binds a wildcard IPv4 address first if the id is not bound; a
     * wildcard address listens on every device, present and future. {@code backlog} bounds the
     * connect requests queued unread on an event channel (0 or less: 1024); a request beyond it is
     * dropped without a REJ, so the peer's CM retries it.
     */
    void listen(RdmaCmId id, int backlog);

    /**
     * {@code rdma_accept()}: answers a {@code CONNECT_REQUEST} with a REP (the CM's QP to RTR and
     * RTS first) or a SIDR_REP; on failure the request is rejected and the error thrown.
     */
    void accept(RdmaCmId id, RdmaConnParam param);

    /**
     * {@code rdma_establish()} (librdmacm; {@code rdma_accept(id, NULL)} on the active side): after
     * a {@code CONNECT_RESPONSE}, the CM's QP (if any) to RTR and RTS, then the RTU.
     */
    void establish(RdmaCmId id);

    /** {@code rdma_reject()}: a REJ with {@code reason} (a SIDR_REP(REJECT) for UD) carrying {@code privateData}. */
    void reject(RdmaCmId id, byte[] privateData, IbCmRejReason reason);

    /** {@code rdma_disconnect()}: the QP to ERR, then a DREQ, or the DREP answering one. */
    void disconnect(RdmaCmId id);

    /** {@code rdma_notify()}: {@link IbEventType#COMM_EST} or {@code PATH_MIG} to the IB CM. */
    void notify(RdmaCmId id, IbEventType event);

    // ================================================================== multicast

    /**
     * {@code rdma_join_multicast()}: joins the group of {@code addr} on a UD id bound to a device:
     * an SA MCMemberRecord join on InfiniBand, the IP-multicast GID on RoCE;
     * {@link RdmaCmEventType#MULTICAST_JOIN} or {@link RdmaCmEventType#MULTICAST_ERROR}. The id's
     * CM QP, if any, is attached to the group when the join completes.
     *
     * @param joinState the MCMemberRecord JoinState bits ({@code McMemberRecord.FULLMEMBER_JOIN} ...)
     */
    void joinMulticast(RdmaCmId id, SocketAddress addr, int joinState, Object context);

    /** {@code rdma_leave_multicast()}. */
    void leaveMulticast(RdmaCmId id, SocketAddress addr);

    // ================================================================== options

    /** {@code rdma_set_service_type()}: the type of service of the id's paths. */
    void setServiceType(RdmaCmId id, int tos);

    /** {@code rdma_set_option()}: see {@link RdmaOption}. */
    void setOption(RdmaCmId id, RdmaOption option, int value);

    /** {@code rdma_get_service_id()}: the IB service ID of {@code addr} in the id's port space. */
    long getServiceId(RdmaCmId id, SocketAddress addr);

    // ================================================================== event channels

    /** {@code rdma_create_event_channel()}. */
    RdmaEventChannel createEventChannel();

    /**
     * {@code rdma_destroy_event_channel()}.
     *
     * @throws org.rdma.verbs.RdmaException EBUSY while ids report to it or events are unacknowledged
     */
    void destroyEventChannel(RdmaEventChannel channel);

    /**
     * {@code rdma_get_cm_event()} with a timeout: the next event, removed from the queue; a
     * {@code CONNECT_REQUEST} read frees its listener's backlog slot.
     *
     * @param timeoutMs 0 to poll, negative to wait without bound
     * @throws org.rdma.verbs.RdmaException EAGAIN when nothing arrived in time
     */
    RdmaCmEvent getCmEvent(RdmaEventChannel channel, long timeoutMs) throws InterruptedException;

    /** {@code rdma_ack_cm_event()}: releases an event {@link #getCmEvent} returned. */
    void ackCmEvent(RdmaCmEvent event);

    /** {@code rdma_migrate_id()}: the id (and its unread events) now report to {@code channel}. */
    void migrateId(RdmaCmId id, RdmaEventChannel channel);

    // ================================================================== listing

    /** Every live id, for tools ({@code rdma res show cm_id}). */
    List<RdmaCmIdDTO> ids();
}
