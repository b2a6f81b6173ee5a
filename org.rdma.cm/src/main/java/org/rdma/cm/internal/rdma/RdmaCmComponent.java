package org.rdma.cm.internal.rdma;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmService;
import org.rdma.cm.internal.OrderedWq;
import org.rdma.cm.rdma.RdmaCmEvent;
import org.rdma.cm.rdma.RdmaCmHandler;
import org.rdma.cm.rdma.RdmaCmId;
import org.rdma.cm.rdma.RdmaCmIdDTO;
import org.rdma.cm.rdma.RdmaCmService;
import org.rdma.cm.rdma.RdmaConnParam;
import org.rdma.cm.rdma.RdmaEventChannel;
import org.rdma.cm.rdma.RdmaOption;
import org.rdma.cm.rdma.RdmaPortSpace;
import org.rdma.mad.sa.SaService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * The RDMA CM: cma.c's {@code cma_client} and exported functions, with librdmacm's event
 * channels. As an {@link IbClient} it learns devices ({@code cma_add_one()}) and takes every id
 * off a device going away ({@code cma_remove_one()}); as {@link RdmaCmService} it is the consumer
 * API. It is registered after the IB CM it needs, so the core adds it to a device after the IB CM
 * and removes it before.
 *
 * <p>The {@link IbClient} is registered by {@link #activate} and withdrawn by {@link #deactivate},
 * after SCR has unregistered {@link RdmaCmService} and so deactivated its users, as
 * {@link org.rdma.cm.internal.ib.IbCmComponent} does.
 */
@Component(service = RdmaCmService.class, immediate = true)
public final class RdmaCmComponent implements IbClient, RdmaCmService {
    private final Cma cma;
    private final OrderedWq wq;
    private ServiceRegistration<IbClient> clientRegistration;

    /** The DS constructor: real time and a private work queue ({@code rdma_cm}). */
    @Activate
    public RdmaCmComponent(@Reference IbClock clock, @Reference IbCmService ibcm, @Reference SaService sa) {
        this(clock, null, ibcm, sa);
    }

    /**
     * For embedding and tests.
     *
     * @param wq where address, route and multicast results are delivered; {@code null} for a
     *           private thread. It must run tasks one at a time, in order.
     */
    public RdmaCmComponent(IbClock clock, Executor wq, IbCmService ibcm, SaService sa) {
        this.wq = OrderedWq.of(wq, "rdma_cm");
        cma = new Cma(clock, this.wq, ibcm, sa);
    }

    /** Becomes a client of the core's devices once built. */
    @Activate
    void activate(BundleContext bc) {
        clientRegistration = bc.registerService(IbClient.class, this, null);
    }

    /** Leaves every device, then the SA, then stops the private work queue. */
    @Deactivate
    public void deactivate() {
        if (clientRegistration != null) {
            clientRegistration.unregister();
            clientRegistration = null;
        }
        cma.close();
        wq.close();
    }

    // ================================================================== IbClient

    @Override
    public String name() {
        return "cma";
    }

    @Override
    public int add(IbDevice device) {
        return cma.addDevice(device);
    }

    @Override
    public void remove(IbDevice device, Object clientData) {
        cma.removeDevice(device);
    }

    // ================================================================== RdmaCmService

    private static CmaId impl(RdmaCmId id) {
        Cma.check(id instanceof CmaId, Errno.EINVAL, () -> "not an id of this RDMA CM: " + id);
        return (CmaId) id;
    }

    private EventChannelImpl impl(RdmaEventChannel ch) {
        RdmaException.check(ch instanceof EventChannelImpl, Errno.EINVAL, "not an event channel of this RDMA CM");
        return (EventChannelImpl) ch;
    }

    @Override
    public RdmaCmId createId(RdmaCmHandler handler, Object context, RdmaPortSpace ps, QpType qpType) {
        RdmaException.check(handler != null, Errno.EINVAL, "rdma_create_id: a handler is required");
        return cma.createId(handler, null, context, ps, qpType, Cma.ownerOf(handler), null);
    }

    @Override
    public RdmaCmId createId(RdmaEventChannel channel, Object context, RdmaPortSpace ps, QpType qpType) {
        EventChannelImpl ch = impl(channel);
        return cma.createId(null, ch, context, ps, qpType, ch.owner, null);
    }

    @Override
    public void destroyId(RdmaCmId id) {
        cma.destroyId(impl(id));
    }

    @Override
    public void bindAddr(RdmaCmId id, SocketAddress addr) {
        CmaId i = impl(id);
        RdmaException.check(addr != null, Errno.EINVAL, "rdma_bind_addr: no address");
        cma.resolver.bind(i, addr, i.dstAddr());
    }

    @Override
    public void resolveAddr(RdmaCmId id, SocketAddress src, SocketAddress dst, int timeoutMs) {
        cma.resolver.resolveAddr(impl(id), src, dst, timeoutMs);
    }

    @Override
    public void resolveRoute(RdmaCmId id, int timeoutMs) {
        cma.route.resolveRoute(impl(id), timeoutMs);
    }

    @Override
    public IbQp createQp(RdmaCmId id, IbPd pd, QpInitAttr init) {
        return cma.qp.createQp(impl(id), pd, init);
    }

    @Override
    public void destroyQp(RdmaCmId id) {
        cma.qp.destroyQp(impl(id));
    }

    @Override
    public int initQpAttr(RdmaCmId id, QpAttr attr) {
        return cma.qp.initQpAttr(impl(id), attr);
    }

    @Override
    public void connect(RdmaCmId id, RdmaConnParam param) {
        cma.conn.connect(impl(id), param);
    }

    @Override
    public void listen(RdmaCmId id, int backlog) {
        cma.listen.listen(impl(id), backlog);
    }

    @Override
    public void accept(RdmaCmId id, RdmaConnParam param) {
        Cma.check(param != null, Errno.EINVAL, () -> "rdma_accept: no connection parameters (use establish"
                + " to complete a connection on the active side)");
        cma.conn.accept(impl(id), param);
    }

    @Override
    public void establish(RdmaCmId id) {
        cma.conn.accept(impl(id), null);
    }

    @Override
    public void reject(RdmaCmId id, byte[] privateData, IbCmRejReason reason) {
        cma.conn.reject(impl(id), privateData, reason);
    }

    @Override
    public void disconnect(RdmaCmId id) {
        cma.conn.disconnect(impl(id));
    }

    @Override
    public void notify(RdmaCmId id, IbEventType event) {
        cma.conn.notify(impl(id), event);
    }

    @Override
    public void joinMulticast(RdmaCmId id, SocketAddress addr, int joinState, Object context) {
        RdmaException.check(addr != null, Errno.EINVAL, "rdma_join_multicast: no address");
        cma.mc.join(impl(id), addr, joinState, context);
    }

    @Override
    public void leaveMulticast(RdmaCmId id, SocketAddress addr) {
        cma.mc.leave(impl(id), addr);
    }

    @Override
    public void setServiceType(RdmaCmId id, int tos) {
        CmaId i = impl(id);
        synchronized (i.qpLock) {
            i.tos = tos & 0xFF;
            i.tosSet = true;
        }
    }

    @Override
    public void setOption(RdmaCmId id, RdmaOption option, int value) {
        CmaId i = impl(id);
        switch (option) {
            case ID_TOS -> setServiceType(i, value);
            case ID_REUSEADDR -> {
                synchronized (i) {
                    boolean reuse = value != 0;
                    Cma.check(reuse && i.state != org.rdma.cm.rdma.RdmaCmState.LISTEN
                            || i.state == org.rdma.cm.rdma.RdmaCmState.IDLE, Errno.EINVAL,
                            () -> "rdma_set_reuseaddr: " + i + " is " + i.state);
                    i.reuseaddr = reuse;
                }
            }
            case ID_AFONLY -> {
                synchronized (i) {
                    Cma.check(i.state == org.rdma.cm.rdma.RdmaCmState.IDLE
                            || i.state == org.rdma.cm.rdma.RdmaCmState.ADDR_BOUND, Errno.EINVAL,
                            () -> "rdma_set_afonly: " + i + " is " + i.state);
                    i.afonly = value != 0;
                    i.afonlySet = true;
                }
            }
            case ID_ACK_TIMEOUT -> {
                Cma.check(i.qpType == QpType.RC, Errno.EINVAL, () -> "rdma_set_ack_timeout: " + i
                        + " is not an RC id");
                synchronized (i.qpLock) {
                    i.timeout = value & 0x1F;
                    i.timeoutSet = true;
                }
            }
            default -> throw new RdmaException(Errno.EINVAL, "rdma_set_option: unknown option " + option);
        }
    }

    @Override
    public long getServiceId(RdmaCmId id, SocketAddress addr) {
        RdmaException.check(addr != null, Errno.EINVAL, "rdma_get_service_id: no address");
        return cma.conn.serviceId(impl(id), addr);
    }

    @Override
    public RdmaEventChannel createEventChannel() {
        return new EventChannelImpl(cma, Cma.callerName());
    }

    @Override
    public void destroyEventChannel(RdmaEventChannel channel) {
        impl(channel).destroy();
    }

    @Override
    public RdmaCmEvent getCmEvent(RdmaEventChannel channel, long timeoutMs) throws InterruptedException {
        return impl(channel).get(timeoutMs);
    }

    @Override
    public void ackCmEvent(RdmaCmEvent event) {
        EventChannelImpl ch = event == null ? null : cma.readEvents.remove(event);
        RdmaException.check(ch != null, Errno.EINVAL, "rdma_ack_cm_event: not an event read and unacknowledged");
        ch.ack(event);
    }

    @Override
    public void migrateId(RdmaCmId id, RdmaEventChannel channel) {
        CmaId i = impl(id);
        EventChannelImpl to = impl(channel);
        EventChannelImpl from = i.channel;
        Cma.check(from != null, Errno.EINVAL, () -> "rdma_migrate_id: " + i + " takes callbacks, not a channel");
        from.migrate(i, to);
    }

    @Override
    public List<RdmaCmIdDTO> ids() {
        return cma.dtos();
    }

    // ================================================================== leak checks

    /** Ids alive, internal listeners included. */
    public int idsInUse() {
        return cma.ids.size();
    }

    /** Ports bound in every port space. */
    public int portsInUse() {
        synchronized (cma.lock) {
            return cma.ports.size();
        }
    }

    /** Multicast groups joined by ids. */
    public int groupsJoined() {
        return cma.mc.joined();
    }
}
