package org.rdma.cm.internal.ib;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.rdma.cm.ib.IbCm;
import org.rdma.cm.ib.IbCmAprStatus;
import org.rdma.cm.ib.IbCmCounterGroup;
import org.rdma.cm.ib.IbCmHandler;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmIdDTO;
import org.rdma.cm.ib.IbCmRejReason;
import org.rdma.cm.ib.IbCmRepParam;
import org.rdma.cm.ib.IbCmReqParam;
import org.rdma.cm.ib.IbCmService;
import org.rdma.cm.ib.IbCmSidrRepParam;
import org.rdma.cm.ib.IbCmSidrReqParam;
import org.rdma.cm.ib.IbCmState;
import org.rdma.cm.internal.OrderedWq;
import org.rdma.mad.MadService;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaService;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.time.IbClock;

/**
 * The IB CM: cm.c's {@code cm_client} and exported functions. As an {@link IbClient} it gives
 * every port of every device a GSI agent for the CM class ({@code cm_add_one()}) and moves
 * every id out of a device going away ({@code cm_remove_one()}); as {@link IbCmService} it is
 * the consumer API. The protocol runs in {@link CmCore}.
 *
 * <p>The {@link IbClient} is registered by {@link #activate} and withdrawn by {@link #deactivate},
 * not as a service of the component: SCR unregisters {@link IbCmService} before it calls
 * {@code deactivate}, which deactivates its users (the RDMA CM) and so removes them from every
 * device before the IB CM leaves it, whatever order the framework delivers service events in (the
 * kernel's module references keep ib_cm loaded until rdma_cm is gone).
 */
@Component(service = IbCmService.class, immediate = true)
public final class IbCmComponent implements IbClient, IbCmService {
    private final CmCore core;
    private final OrderedWq wq;
    private ServiceRegistration<IbClient> clientRegistration;

    /** The DS constructor: real time and a private work queue ({@code ib_cm}). */
    @Activate
    public IbCmComponent(@Reference IbClock clock, @Reference MadService mad, @Reference SaService sa) {
        this(clock, null, mad, sa);
    }

    /**
     * For embedding and tests.
     *
     * @param wq where received MADs, send completions and timers are processed; {@code null} for a
     *           private thread. It must run tasks one at a time, in order.
     */
    public IbCmComponent(IbClock clock, Executor wq, MadService mad, SaService sa) {
        this.wq = OrderedWq.of(wq, "ib_cm");
        this.core = new CmCore(clock, this.wq, mad, sa);
    }

    /** Becomes a client of the core's devices once built. */
    @Activate
    void activate(BundleContext bc) {
        clientRegistration = bc.registerService(IbClient.class, this, null);
    }

    /** Leaves every device, then stops the private work queue. */
    @Deactivate
    public void deactivate() {
        if (clientRegistration != null) {
            clientRegistration.unregister();
            clientRegistration = null;
        }
        wq.close();
    }

    // ================================================================== IbClient

    @Override
    public String name() {
        return "cm";
    }

    @Override
    public int add(IbDevice device) {
        return core.addDevice(device);
    }

    @Override
    public void remove(IbDevice device, Object clientData) {
        core.removeDevice(device);
    }

    // ================================================================== IbCmService

    private static CmIdImpl impl(IbCmId id) {
        if (id instanceof CmIdImpl c) {
            return c;
        }
        throw new RdmaException(Errno.EINVAL, "not a communication identifier of this CM: " + id);
    }

    @Override
    public IbCmId createCmId(IbDevice device, IbCmHandler handler, Object context) {
        RdmaException.check(handler != null, Errno.EINVAL, "ib_create_cm_id: a handler is required");
        core.requireDevice(device);
        return core.tables.create(device, handler, context);
    }

    @Override
    public void destroyCmId(IbCmId cmId) {
        core.destroy(impl(cmId), 0);
    }

    @Override
    public void cmListen(IbCmId cmId, long serviceId, long serviceMask) {
        CmIdImpl id = impl(cmId);
        core.requireDevice(id.device);
        synchronized (id) {
            if (id.destroyed || id.state != IbCmState.IDLE) {
                throw new RdmaException(Errno.EINVAL, "ib_cm_listen: " + id + " is not idle");
            }
            initListen(id, serviceId, serviceMask);
            if (core.tables.insertListen(id, null) != id) {
                throw new RdmaException(Errno.EBUSY, String.format(
                        "ib_cm_listen: service ID 0x%016x/0x%016x is listened on already on %s", id.serviceId,
                        id.serviceMask, id.device.name()));
            }
            id.state = IbCmState.LISTEN;
        }
    }

    /**
     * {@code cm_init_listen()}: mask 0 means exact; {@link IbCm#ASSIGN_SERVICE_ID} takes the next
     * ID of the range the CM assigns, whatever the mask (as {@code ib_cm_listen()} documents), and
     * no other ID of that range may be listened on.
     */
    private void initListen(CmIdImpl id, long serviceId, long serviceMask) {
        if (serviceId == IbCm.ASSIGN_SERVICE_ID) {
            id.serviceId = core.tables.assignServiceId();
            id.serviceMask = ~0L;
            return;
        }
        long mask = serviceMask == 0 ? ~0L : serviceMask;
        long sid = serviceId & mask;
        if ((sid & IbCm.SERVICE_ID_AGN_MASK) == IbCm.ASSIGN_SERVICE_ID) {
            throw new RdmaException(Errno.EINVAL,
                    String.format("ib_cm_listen: service ID 0x%016x is in the range the CM assigns", sid));
        }
        id.serviceId = sid;
        id.serviceMask = mask;
    }

    @Override
    public IbCmId cmInsertListen(IbDevice device, IbCmHandler handler, long serviceId) {
        RdmaException.check(handler != null, Errno.EINVAL, "ib_cm_insert_listen: a handler is required");
        core.requireDevice(device);
        CmIdImpl id = core.tables.create(device, handler, null);
        CmIdImpl listen;
        synchronized (id) {
            try {
                initListen(id, serviceId, 0);
            } catch (RdmaException e) {
                id.destroyed = true;
                core.tables.freeLocalId(id);
                throw e;
            }
            listen = core.tables.insertListen(id, handler);
            if (listen == id) {
                id.state = IbCmState.LISTEN;
                return id;
            }
            id.destroyed = true;
        }
        core.tables.freeLocalId(id);
        if (listen == null) {
            throw new RdmaException(Errno.EINVAL, String.format(
                    "ib_cm_insert_listen: service ID 0x%016x on %s is listened on with another handler", serviceId,
                    device.name()));
        }
        return listen;
    }

    @Override
    public void sendCmReq(IbCmId cmId, IbCmReqParam param) {
        core.conn.sendReq(impl(cmId), param);
    }

    @Override
    public void sendCmRep(IbCmId cmId, IbCmRepParam param) {
        core.conn.sendRep(impl(cmId), param);
    }

    @Override
    public void sendCmRtu(IbCmId cmId, byte[] privateData) {
        core.conn.sendRtu(impl(cmId), privateData);
    }

    @Override
    public void sendCmDreq(IbCmId cmId, byte[] privateData) {
        core.disc.sendDreq(impl(cmId), privateData);
    }

    @Override
    public void sendCmDrep(IbCmId cmId, byte[] privateData) {
        core.disc.sendDrep(impl(cmId), privateData);
    }

    @Override
    public void sendCmRej(IbCmId cmId, IbCmRejReason reason, byte[] ari, byte[] privateData) {
        core.conn.sendRej(impl(cmId), reason, ari, privateData);
    }

    @Override
    public void sendCmMra(IbCmId cmId, int serviceTimeout, byte[] privateData) {
        core.conn.sendMra(impl(cmId), serviceTimeout, privateData);
    }

    @Override
    public void sendCmLap(IbCmId cmId, PathRecord alternatePath, byte[] privateData) {
        core.lap.sendLap(impl(cmId), alternatePath, privateData);
    }

    @Override
    public void sendCmApr(IbCmId cmId, IbCmAprStatus status, byte[] info, byte[] privateData) {
        core.lap.sendApr(impl(cmId), status, info, privateData);
    }

    @Override
    public void sendCmSidrReq(IbCmId cmId, IbCmSidrReqParam param) {
        core.sidr.sendReq(impl(cmId), param);
    }

    @Override
    public void sendCmSidrRep(IbCmId cmId, IbCmSidrRepParam param) {
        core.sidr.sendRep(impl(cmId), param);
    }

    @Override
    public int cmInitQpAttr(IbCmId cmId, QpAttr qpAttr) {
        return CmQpAttr.init(impl(cmId), qpAttr);
    }

    @Override
    public void cmNotify(IbCmId cmId, IbEventType event) {
        CmIdImpl id = impl(cmId);
        if (event == IbEventType.COMM_EST) {
            core.conn.establish(id);
        } else if (event == IbEventType.PATH_MIG) {
            core.conn.migrate(id);
        } else {
            throw new RdmaException(Errno.EINVAL, "ib_cm_notify: the CM takes COMM_EST and PATH_MIG, not " + event);
        }
    }

    @Override
    public List<IbCmIdDTO> cmIds() {
        List<IbCmIdDTO> out = new ArrayList<>();
        for (CmIdImpl id : core.tables.ids()) {
            synchronized (id) {
                if (id.destroyed) {
                    continue;
                }
            }
            out.add(id.dto());
        }
        return out;
    }

    @Override
    public long counter(IbDevice device, int portNum, IbCmCounterGroup group, int attrId) {
        return core.counter(device, portNum, group, attrId);
    }

    /** Local IDs in use, destroyed ids waiting out timewait included (for leak checks). */
    public int localIdsInUse() {
        return core.tables.size();
    }

    /** The engine, for tests that feed it MADs directly. */
    CmCore core() {
        return core;
    }

    /** Entries of the remote ID, remote QPN and SIDR tables (for leak checks). */
    public int remoteTableEntries() {
        return core.tables.remoteEntries();
    }
}
