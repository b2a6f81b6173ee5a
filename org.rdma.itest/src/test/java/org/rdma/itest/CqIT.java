package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
import org.rdma.itest.support.Threads;
import org.rdma.itest.support.Verbs;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.CqNotifyFlags;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.runtime.IbRuntime;

/**
 * Completion queues ({@code cq.c}): {@code ib_alloc_cq} in the DIRECT, SOFTIRQ and WORKQUEUE
 * contexts calls each work request's {@link IbCqe#done} once, in completion order;
 * {@code ib_process_cq_direct} honours its budget; {@code ib_alloc_cq_any} spreads over the
 * completion vectors; {@code ib_create_cq} calls the completion handler once per arming.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class CqIT {
    private static final int N = 10;

    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    private Fixture f;
    private TestProvider p;
    private IbDevice dev;
    private IbPd pd;
    private long dma;
    private ByteBuffer buf;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(bc, "cq");
        p = new TestProvider(DeviceConfig.of(f.template(), f.driver()).numCompVectors(4));
        f.provider(p);
        Runtimes.awaitDevices(runtime, f.driver(), 1);
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        dev = p.device();
        pd = dev.allocPd(0, "itest-cq");
        buf = ByteBuffer.allocateDirect(4096);
        dma = dev.dmaMapSingle(buf);
    }

    @AfterEach
    void tearDown() {
        dev.dmaUnmapSingle(dma);
        pd.dealloc();
        f.close();
        assertEquals(List.of(), p.violations());
    }

    /** A CQE that logs its index, status, opcode and whether it ran on the test thread. */
    private IbCqe cqe(CallbackLog log, int i, IbCq expectedCq, Thread testThread, List<String> threads) {
        return (cq, wc) -> {
            synchronized (threads) {
                threads.add(Thread.currentThread().getName());
            }
            log.add(i + " " + wc.status + " " + wc.opcode + (cq == expectedCq ? "" : " WRONG-CQ")
                    + (Thread.currentThread() == testThread ? " on-test-thread" : ""));
        };
    }

    private static List<String> expectedSends(int n, String suffix) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(i + " SUCCESS SEND" + suffix);
        }
        return l;
    }

    @Test
    void directContextRunsCallbacksInProcessCqDirectWithinTheBudget() {
        IbCq cq = dev.allocCq(null, 64, 0, PollContext.DIRECT, "itest-cq");
        assertEquals(PollContext.DIRECT, cq.pollContext());
        IbQp qp = Verbs.rcQp(pd, cq, cq, 32);
        Verbs.toRts(qp);
        CallbackLog log = new CallbackLog();
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            assertEquals(0, Verbs.send(qp, cqe(log, i, cq, Thread.currentThread(), threads), dma, 64, pd.localDmaLkey()));
        }
        assertEquals(0, log.size(), "DIRECT runs nothing until the consumer processes the CQ");
        assertEquals(4, cq.processCqDirect(4));
        assertEquals(4, log.size(), "the budget limits how many callbacks run");
        assertEquals(4, cq.processCqDirect(4));
        assertEquals(2, cq.processCqDirect(4));
        assertEquals(0, cq.processCqDirect(4));
        assertEquals(expectedSends(N, " on-test-thread"), log.entries(), "each done once, in order, on the caller");

        for (int i = 0; i < 3; i++) {
            Verbs.send(qp, cqe(log, N + i, cq, Thread.currentThread(), threads), dma, 8, pd.localDmaLkey());
        }
        assertEquals(3, cq.processCqDirect(-1), "budget -1 processes everything");
        qp.destroy();
        cq.free();
        assertEquals(0, p.liveCounts().get("cq"), "free destroys the driver CQ");
    }

    @Test
    void softirqContextRunsCallbacksOnACoreThread() {
        IbCq cq = dev.allocCq(null, 64, 1, PollContext.SOFTIRQ, "itest-cq");
        assertEquals(1, cq.compVector());
        IbQp qp = Verbs.rcQp(pd, cq, cq, 32);
        Verbs.toRts(qp);
        CallbackLog log = new CallbackLog();
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            Verbs.send(qp, cqe(log, i, cq, Thread.currentThread(), threads), dma, 64, pd.localDmaLkey());
        }
        log.awaitSize(N);
        assertEquals(expectedSends(N, ""), log.entries(), "each done once, in order, off the posting thread");
        synchronized (threads) {
            for (String t : threads) {
                assertTrue(t.startsWith(Threads.CORE_PREFIX), "SOFTIRQ callbacks run on the core's rdma-* thread: " + t);
            }
        }
        // A completion that arrives later is picked up too (the CQ was re-armed).
        Verbs.send(qp, cqe(log, N, cq, Thread.currentThread(), threads), dma, 64, pd.localDmaLkey());
        log.awaitSize(N + 1);
        qp.destroy();
        cq.free();
        assertEquals(0, p.liveCounts().get("cq"));
    }

    @Test
    void workqueueContextRunsCallbacksOffThePostingThread() {
        for (PollContext ctx : List.of(PollContext.WORKQUEUE, PollContext.UNBOUND_WORKQUEUE)) {
            IbCq cq = dev.allocCq(null, 64, 0, ctx, "itest-cq");
            IbQp qp = Verbs.rcQp(pd, cq, cq, 32);
            Verbs.toRts(qp);
            CallbackLog log = new CallbackLog();
            List<String> threads = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                Verbs.send(qp, cqe(log, i, cq, Thread.currentThread(), threads), dma, 64, pd.localDmaLkey());
            }
            log.awaitSize(N);
            assertEquals(expectedSends(N, ""), log.entries(), ctx + ": each done once, in order");
            // Receives complete on the same CQ when the driver delivers messages.
            for (int i = 0; i < 3; i++) {
                Verbs.recv(qp, (c, wc) -> log.add("recv " + wc.status + " " + wc.opcode + " " + wc.byteLen),
                        dma, 256, pd.localDmaLkey());
            }
            assertTrue(p.qpOf(qp).deliver(100, false));
            assertTrue(p.qpOf(qp).deliver(200, false));
            log.awaitSize(N + 2);
            assertEquals(List.of("recv SUCCESS RECV 100", "recv SUCCESS RECV 200"), log.entries().subList(N, N + 2));
            qp.destroy();
            cq.free();
        }
        assertEquals(0, p.liveCounts().get("cq"));
    }

    @Test
    void allocCqAnySpreadsOverCompletionVectors() {
        List<IbCq> cqs = new ArrayList<>();
        Set<Integer> vectors = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            IbCq cq = dev.allocCqAny(null, 16, PollContext.WORKQUEUE);
            cqs.add(cq);
            assertTrue(cq.compVector() >= 0 && cq.compVector() < 4, "vector within num_comp_vectors: " + cq.compVector());
            vectors.add(cq.compVector());
            if (i > 0) {
                assertNotEquals(cqs.get(i - 1).compVector(), cq.compVector(), "consecutive CQs go to different vectors");
            }
        }
        assertTrue(vectors.size() >= 2, "CQs spread over several vectors: " + vectors);
        assertEquals(8, p.liveCounts().get("cq"));
        for (IbCq cq : cqs) {
            cq.free();
        }
        assertEquals(0, p.liveCounts().get("cq"), "free destroys every driver CQ");
    }

    @Test
    void createCqCallsTheCompletionHandlerOncePerArming() {
        CallbackLog log = new CallbackLog();
        IbCq cq = dev.createCq(c -> log.add("comp " + (c.context())), null, "ctx-1", CqInitAttr.of(32, 0));
        assertEquals(null, cq.pollContext());
        assertEquals("ctx-1", cq.context());
        IbQp qp = Verbs.rcQp(pd, cq, cq, 16);
        Verbs.toRts(qp);
        Verbs.send(qp, null, dma, 8, pd.localDmaLkey());
        assertEquals(0, log.size(), "no handler call before the CQ is armed");
        assertEquals(0, cq.reqNotifyCq(CqNotifyFlags.NEXT_COMP));
        Verbs.send(qp, null, dma, 8, pd.localDmaLkey());
        Verbs.send(qp, null, dma, 8, pd.localDmaLkey());
        log.awaitSize(1);
        assertEquals(List.of("comp ctx-1"), log.entries(), "one call for one arming");
        assertTrue(cq.reqNotifyCq(CqNotifyFlags.NEXT_COMP | CqNotifyFlags.REPORT_MISSED_EVENTS) > 0,
                "REPORT_MISSED_EVENTS reports completions already waiting");

        Wc[] wc = Wc.array(8);
        assertEquals(3, cq.pollCq(8, wc));
        for (int i = 0; i < 3; i++) {
            assertEquals(WcStatus.SUCCESS, wc[i].status);
            assertEquals(WcOpcode.SEND, wc[i].opcode);
            assertTrue(wc[i].qp == qp, "the completion names the consumer's QP");
        }
        assertEquals(0, cq.pollCq(8, wc));
        qp.destroy();
        cq.destroy();
        assertEquals(0, p.liveCounts().get("cq"));
    }
}
