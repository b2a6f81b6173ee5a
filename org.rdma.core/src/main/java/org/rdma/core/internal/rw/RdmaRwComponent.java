package org.rdma.core.internal.rw;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.rw.DmaDataDirection;
import org.rdma.verbs.rw.RdmaRw;
import org.rdma.verbs.rw.RdmaRwCtx;

/**
 * Publishes {@link RdmaRw} ({@link Rw}) and applies its configuration: {@code force_mr}, the
 * ib_core module parameter, which makes every transfer and every QP created afterwards use MRs.
 */
@Component(service = RdmaRw.class, configurationPid = RdmaRwComponent.PID)
@Designate(ocd = RdmaRwComponent.Config.class)
public final class RdmaRwComponent implements RdmaRw {
    static final String PID = "org.rdma.core.rw";

    /** Configuration of the rdma_rw service. */
    @ObjectClassDefinition(name = "RDMA READ/WRITE (rdma_rw)",
            description = "The generic RDMA READ/WRITE API of the core.")
    public @interface Config {
        /** {@code force_mr}. */
        @AttributeDefinition(name = "Force MR use",
                description = "Register memory for every RDMA READ/WRITE (ib_core force_mr)")
        boolean force_mr() default false;
    }

    private final Rw rw = new Rw();

    /** Applies the configuration. */
    @Activate
    public RdmaRwComponent(Config config) {
        RwPolicy.setForceMr(config.force_mr());
    }

    @Modified
    void modified(Config config) {
        RwPolicy.setForceMr(config.force_mr());
    }

    @Deactivate
    void deactivate() {
        RwPolicy.setForceMr(false);
    }

    @Override
    public int rwCtxInit(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, int sgOffset, long remoteAddr,
            int rkey, DmaDataDirection dir) {
        return rw.rwCtxInit(ctx, qp, portNum, sg, sgCnt, sgOffset, remoteAddr, rkey, dir);
    }

    @Override
    public int rwCtxSignatureInit(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, SgEntry[] protSg,
            int protSgCnt, SigAttrs sigAttrs, long remoteAddr, int rkey, DmaDataDirection dir) {
        return rw.rwCtxSignatureInit(ctx, qp, portNum, sg, sgCnt, protSg, protSgCnt, sigAttrs, remoteAddr, rkey, dir);
    }

    @Override
    public SendWr rwCtxWrs(RdmaRwCtx ctx, IbQp qp, int portNum, IbCqe cqe, SendWr chainWr) {
        return rw.rwCtxWrs(ctx, qp, portNum, cqe, chainWr);
    }

    @Override
    public int rwCtxPost(RdmaRwCtx ctx, IbQp qp, int portNum, IbCqe cqe, SendWr chainWr) {
        return rw.rwCtxPost(ctx, qp, portNum, cqe, chainWr);
    }

    @Override
    public void rwCtxDestroy(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, DmaDataDirection dir) {
        rw.rwCtxDestroy(ctx, qp, portNum, sg, sgCnt, dir);
    }

    @Override
    public void rwCtxDestroySignature(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt,
            SgEntry[] protSg, int protSgCnt, DmaDataDirection dir) {
        rw.rwCtxDestroySignature(ctx, qp, portNum, sg, sgCnt, protSg, protSgCnt, dir);
    }

    @Override
    public int rwMrFactor(IbDevice device, int portNum, int maxPages) {
        return rw.rwMrFactor(device, portNum, maxPages);
    }

    @Override
    public void rwInitQp(IbDevice device, QpInitAttr attr) {
        rw.rwInitQp(device, attr);
    }

    @Override
    public void rwInitMrs(IbQp qp, QpInitAttr attr) {
        rw.rwInitMrs(qp, attr);
    }

    @Override
    public void rwCleanupMrs(IbQp qp) {
        rw.rwCleanupMrs(qp);
    }
}
