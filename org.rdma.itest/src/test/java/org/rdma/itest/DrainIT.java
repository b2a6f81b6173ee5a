package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.support.CallbackLog;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.Runtimes;
import org.rdma.itest.support.Verbs;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.QpType;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.runtime.IbRuntime;

/**
 * The drain helpers ({@code ib_drain_sq}, {@code ib_drain_rq}, {@code ib_drain_qp}) with CQs in
 * the SOFTIRQ and WORKQUEUE contexts: each returns only after every work request posted before
 * it has completed (here: flushed with WR_FLUSH_ERR by the move to ERR), and leaves the QP in ERR.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class DrainIT {
    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private Fixture f;
    private TestProvider p;
    private IbDevice dev;
    private IbPd pd;
    private long dma;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(bc, "drain");
        p = new TestProvider(DeviceConfig.of(f.template(), f.driver()));
        f.provider(p);
        Runtimes.awaitDevices(runtime, f.driver(), 1);
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        dev = p.device();
        pd = dev.allocPd(0, "itest-drain");
        dma = dev.dmaMapSingle(ByteBuffer.allocateDirect(4096));
    }

    @AfterEach
    void tearDown() {
        dev.dmaUnmapSingle(dma);
        pd.dealloc();
        f.close();
        assertEquals(List.of(), p.violations());
    }

    private void postRecvs(IbQp qp, CallbackLog log, int n) {
        for (int i = 0; i < n; i++) {
            int k = i;
            assertEquals(0, Verbs.recv(qp, (cq, wc) -> log.add("recv" + k + " " + wc.status), dma, 64, pd.localDmaLkey()));
        }
    }

    /** Sends posted in SQD wait in the send queue: the drain has something to flush. */
    private void postWaitingSends(IbQp qp, CallbackLog log, int n) {
        Verbs.moveTo(qp, QpState.SQD);
        for (int i = 0; i < n; i++) {
            int k = i;
            assertEquals(0, Verbs.send(qp, (cq, wc) -> log.add("send" + k + " " + wc.status), dma, 64, pd.localDmaLkey()));
        }
        assertEquals(n, p.qpOf(qp).waitingSends());
    }

    private static List<String> flushed(String kind, int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(kind + i + " WR_FLUSH_ERR");
        }
        return l;
    }

    @ParameterizedTest
    @EnumSource(value = PollContext.class, names = {"SOFTIRQ", "WORKQUEUE"})
    void drainRqReturnsAfterEveryReceiveFlushed(PollContext ctx) {
        IbCq cq = dev.allocCq(null, 64, 0, ctx, "itest-drain");
        IbQp qp = Verbs.rcQp(pd, cq, cq, 16);
        Verbs.toRts(qp);
        CallbackLog log = new CallbackLog();
        postRecvs(qp, log, 5);
        qp.drainRq();
        assertEquals(flushed("recv", 5), log.entries(), "every receive completed before drainRq returned");
        assertEquals(QpState.ERR, qp.state());
        qp.destroy();
        cq.free();
    }

    @ParameterizedTest
    @EnumSource(value = PollContext.class, names = {"SOFTIRQ", "WORKQUEUE"})
    void drainSqReturnsAfterEverySendFlushed(PollContext ctx) {
        IbCq cq = dev.allocCq(null, 64, 0, ctx, "itest-drain");
        IbQp qp = Verbs.rcQp(pd, cq, cq, 16);
        Verbs.toRts(qp);
        CallbackLog log = new CallbackLog();
        postWaitingSends(qp, log, 4);
        qp.drainSq();
        assertEquals(flushed("send", 4), log.entries(), "every send completed before drainSq returned");
        assertEquals(QpState.ERR, qp.state());
        qp.destroy();
        cq.free();
    }

    @ParameterizedTest
    @EnumSource(value = PollContext.class, names = {"SOFTIRQ", "WORKQUEUE"})
    void drainQpDrainsBothQueuesOnSeparateCqs(PollContext ctx) {
        IbCq scq = dev.allocCq(null, 64, 0, ctx, "itest-drain");
        IbCq rcq = dev.allocCq(null, 64, 1, ctx, "itest-drain");
        IbQp qp = Verbs.rcQp(pd, scq, rcq, 16);
        Verbs.toRts(qp);
        CallbackLog sends = new CallbackLog();
        CallbackLog recvs = new CallbackLog();
        postRecvs(qp, recvs, 3);
        postWaitingSends(qp, sends, 3);
        qp.drain();
        assertEquals(flushed("send", 3), sends.entries(), "sends completed before drain returned");
        assertEquals(flushed("recv", 3), recvs.entries(), "receives completed before drain returned");
        qp.destroy();
        scq.free();
        rcq.free();
    }

    @ParameterizedTest
    @EnumSource(value = PollContext.class, names = {"SOFTIRQ", "WORKQUEUE"})
    void drainQpWithSrqDrainsOnlyTheSendQueue(PollContext ctx) {
        IbCq cq = dev.allocCq(null, 64, 0, ctx, "itest-drain");
        SrqInitAttr sattr = new SrqInitAttr();
        sattr.attr.maxWr = 16;
        sattr.attr.maxSge = 1;
        IbSrq srq = pd.createSrq(sattr);
        QpInitAttr init = new QpInitAttr();
        init.qpType = QpType.RC;
        init.sendCq = cq;
        init.recvCq = cq;
        init.srq = srq;
        init.cap.maxSendWr = 16;
        init.cap.maxSendSge = 1;
        IbQp qp = pd.createQp(init);
        Verbs.toRts(qp);
        CallbackLog log = new CallbackLog();
        RecvWr rw = new RecvWr();
        rw.wrCqe = (c, wc) -> log.add("srq-recv " + wc.status);
        rw.sg(new Sge(dma, 64, pd.localDmaLkey()));
        assertEquals(0, srq.postSrqRecv(rw, new RecvWr[1]));
        postWaitingSends(qp, log, 2);
        qp.drain();
        assertEquals(flushed("send", 2), log.entries(), "with an SRQ, drain flushes the sends and leaves the SRQ alone");
        qp.destroy();
        srq.destroy();
        cq.free();
    }
}
