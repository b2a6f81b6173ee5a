package org.rdma.hca.rxe.internal;

import java.util.ArrayList;
import java.util.List;
import org.rdma.cm.internal.ib.IbCmComponent;
import org.rdma.cm.internal.rdma.RdmaCmComponent;
import org.rdma.mad.internal.MadLayer;
import org.rdma.mad.internal.sa.SaLayer;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.RdmaException;

/**
 * The connection managers of one process over its {@link CoreRxe} device, without OSGi and in
 * real time: the MAD layer (QP1 of the RoCE port), the SA client (RoCE paths are resolved
 * locally), the IB CM and the RDMA CM, each with its own workqueue, added to the device in the
 * registry's order. {@link #close} removes them newest first, as the core does at unregistration,
 * and stops their threads; the device itself stays the caller's.
 */
final class CmRxe implements AutoCloseable {
    final CoreRxe core;
    final MadLayer mad;
    final SaLayer sa;
    final IbCmComponent ibcm;
    final RdmaCmComponent cm;
    private final List<IbClient> added = new ArrayList<>();

    CmRxe(CoreRxe core) {
        this.core = core;
        mad = new MadLayer(core.clock, null, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, Runnable::run);
        ibcm = new IbCmComponent(core.clock, null, mad, sa);
        cm = new RdmaCmComponent(core.clock, null, ibcm, sa);
        try {
            for (IbClient c : List.of(mad, sa, ibcm, cm)) {
                int rc = c.add(core.dev);
                if (rc != 0) {
                    throw new AssertionError(c.name() + " on " + CoreRxe.NAME + " failed: " + rc);
                }
                added.add(c);
            }
        } catch (RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    @Override
    public void close() {
        for (int i = added.size() - 1; i >= 0; i--) {
            IbClient c = added.get(i);
            try {
                c.remove(core.dev, core.dev.getClientData(c));
            } catch (RdmaException e) {
                // teardown goes on; the device destroys what is left
            }
        }
        added.clear();
        cm.deactivate();
        ibcm.deactivate();
        mad.deactivate();
    }
}
