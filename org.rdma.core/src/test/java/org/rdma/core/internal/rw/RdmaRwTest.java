package org.rdma.core.internal.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.MrType;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.RecvWr;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.rw.DmaDataDirection;
import org.rdma.verbs.rw.RdmaRwCtx;

/**
 * rdma_rw between two core devices over the software transport: the single-WR fast path, SGE
 * lists split by the QP's limits, MRs when forced or when the device wants them for READs, chains,
 * the QP's MR pools, and every error the API returns; data compared byte for byte.
 */
class RdmaRwTest {
    static final DmaDataDirection TO = DmaDataDirection.TO_DEVICE;
    static final DmaDataDirection FROM = DmaDataDirection.FROM_DEVICE;

    final Rw rw = new Rw();
    final RdmaRwCtx ctx = new RdmaRwCtx();

    @AfterEach
    void unforce() {
        RwPolicy.setForceMr(false);
    }

    private static RwNet net(int maxSgeRd, int maxSglRd) {
        return new RwNet(a -> {
            a.maxSgeRd = maxSgeRd;
            a.maxSglRd = maxSglRd;
        });
    }

    /** A local buffer on {@code a}, DMA-mapped. */
    static final class Local {
        final ByteBuffer buf;
        final long dma;

        Local(RwNet n, int size, int seed) {
            buf = RwNet.pattern(ByteBuffer.allocate(size), seed);
            dma = n.a.dmaMapSingle(buf);
        }

        SgEntry at(long off, int len) {
            return new SgEntry(dma + off, len);
        }
    }

    /** Initialises, posts with a completion, waits, destroys; returns the number of WRs init reported. */
    private int transfer(RwNet n, SgEntry[] sg, int sgOffset, long remoteAddr, DmaDataDirection dir) {
        int wrs = rw.rwCtxInit(ctx, n.qa, 1, sg, sg.length, sgOffset, remoteAddr, n.remoteMr.rkey(), dir);
        assertTrue(wrs > 0, "rdma_rw_ctx_init: " + wrs);
        RwNet.Done done = new RwNet.Done();
        assertEquals(0, rw.rwCtxPost(ctx, n.qa, 1, done, null));
        n.complete(done, 1);
        assertEquals(dir == TO ? WcOpcode.RDMA_WRITE : WcOpcode.RDMA_READ, done.wcs.get(0).opcode);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, sg.length, dir);
        assertEquals(RdmaRwCtx.NONE, ctx.type);
        return wrs;
    }

    /** Checks that the elements of {@code sg} (from {@code skip} bytes in) lie back to back in b's buffer at {@code at}. */
    private static void assertGathered(RwNet n, Local l, SgEntry[] sg, int skip, int at) {
        int pos = at;
        for (SgEntry e : sg) {
            int from = (int) (e.dmaAddress - l.dma);
            int len = e.dmaLength;
            if (skip >= len) {
                skip -= len;
                continue;
            }
            RwNet.assertRange(l.buf, from + skip, n.remote, pos, len - skip);
            pos += len - skip;
            skip = 0;
        }
    }

    // ================================================================== SGE lists

    @Test
    void oneElementIsOneWorkRequestOverTheLocalDmaLkey() {
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 4, 4, 0));
        Local l = new Local(n, 8192, 1);
        SgEntry[] sg = {l.at(100, 3000)};
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA + 10, n.remoteMr.rkey(), TO));
        assertEquals(RdmaRwCtx.SINGLE_WR, ctx.type);
        assertEquals(1, ctx.nrOps);
        SendWr w = ctx.wrs[0];
        assertEquals(WrOpcode.RDMA_WRITE, w.opcode);
        assertEquals(n.pa.localDmaLkey(), w.sgList[0].lkey);
        assertEquals(l.dma + 100, w.sgList[0].addr);
        assertNull(w.next);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 1, TO);

        assertEquals(1, transfer(n, sg, 0, RwNet.REMOTE_IOVA + 10, TO));
        RwNet.assertRange(l.buf, 100, n.remote, 10, 3000);
        // and back: b's bytes READ into another part of the local buffer
        RwNet.pattern(n.remote, 5);
        SgEntry[] in = {l.at(4000, 3000)};
        assertEquals(1, transfer(n, in, 0, RwNet.REMOTE_IOVA + 10, FROM));
        RwNet.assertRange(n.remote, 10, l.buf, 4000, 3000);
    }

    @Test
    void longListsAreSplitByMaxWriteSgeAndMaxReadSge() {
        RwNet n = net(3, 0);
        n.connect(RwNet.init(null, 4, 4, 0));
        assertEquals(4, n.qa.maxWriteSge());
        assertEquals(3, n.qa.maxReadSge(), "max_send_sge capped by max_sge_rd");
        Local l = new Local(n, 64 * 1024, 2);
        SgEntry[] sg = new SgEntry[10];
        for (int i = 0; i < sg.length; i++) {
            sg[i] = l.at(i * 5000L + 13 * i, 700 + 111 * i);
        }
        int wrs = rw.rwCtxInit(ctx, n.qa, 1, sg, 10, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO);
        assertEquals(3, wrs);
        assertEquals(RdmaRwCtx.MULTI_WR, ctx.type);
        assertEquals(4, ctx.wrs[0].numSge);
        assertEquals(4, ctx.wrs[1].numSge);
        assertEquals(2, ctx.wrs[2].numSge);
        assertSame(ctx.wrs[1], ctx.wrs[0].next);
        long firstFour = 0;
        for (int i = 0; i < 4; i++) {
            firstFour += sg[i].dmaLength;
        }
        assertEquals(RwNet.REMOTE_IOVA + firstFour, ctx.wrs[1].remoteAddr);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 10, TO);

        assertEquals(3, transfer(n, sg, 0, RwNet.REMOTE_IOVA, TO));
        assertGathered(n, l, sg, 0, 0);

        RwNet.pattern(n.remote, 11);
        ByteBuffer before = ByteBuffer.allocate(n.remote.capacity());
        before.put(0, n.remote, 0, n.remote.capacity());
        assertEquals(4, transfer(n, sg, 0, RwNet.REMOTE_IOVA, FROM), "10 elements, 3 per READ");
        int pos = 0;
        for (SgEntry e : sg) {
            RwNet.assertRange(before, pos, l.buf, (int) (e.dmaAddress - l.dma), e.dmaLength);
            pos += e.dmaLength;
        }
    }

    @Test
    void anOffsetSkipsIntoTheList() {
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 2, 4, 0));
        Local l = new Local(n, 32 * 1024, 3);
        SgEntry[] sg = {l.at(0, 1000), l.at(2000, 1500), l.at(5000, 900), l.at(9000, 4000)};
        int skip = 1000 + 10;
        assertEquals(2, transfer(n, sg, skip, RwNet.REMOTE_IOVA, TO));
        assertGathered(n, l, sg, skip, 0);
        // an offset that leaves one element takes the single-WR path
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, sg, 4, 1000 + 1500 + 900 + 7, RwNet.REMOTE_IOVA,
                n.remoteMr.rkey(), TO));
        assertEquals(RdmaRwCtx.SINGLE_WR, ctx.type);
        assertEquals(l.dma + 9007, ctx.wrs[0].sgList[0].addr);
        assertEquals(3993, ctx.wrs[0].sgList[0].length);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 4, TO);
        assertEquals(-Errno.EIO.value, rw.rwCtxInit(ctx, n.qa, 1, sg, 4, 7400, RwNet.REMOTE_IOVA,
                n.remoteMr.rkey(), TO), "offset beyond the list");
    }

    // ================================================================== MRs

    /** {@code count} page elements of a page-aligned mapping, the last one {@code lastLen} long. */
    private static SgEntry[] pages(Local l, int count, int lastLen) {
        SgEntry[] sg = new SgEntry[count];
        for (int i = 0; i < count; i++) {
            sg[i] = l.at(4096L * i, i == count - 1 ? lastLen : 4096);
        }
        return sg;
    }

    @Test
    void forcedMrsRegisterThePagesAndInvalidateBeforeReuse() {
        RwPolicy.setForceMr(true);
        RwNet n = net(32, 0);
        QpInitAttr init = RwNet.init(null, 4, 2, 0);
        n.connect(init);
        assertEquals(64 + 3 * 2, init.cap.maxSendWr, "rdma_rw_init_qp: READ/WRITE, REG_MR and LOCAL_INV per context");
        assertEquals(2, n.qa.rdmaMrs().size());
        assertEquals(0, n.qa.sigMrs().size());
        Local l = new Local(n, 4 * 4096, 4);
        SgEntry[] sg = pages(l, 3, 1000);

        int wrs = rw.rwCtxInit(ctx, n.qa, 1, sg, 3, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO);
        assertEquals(2, wrs, "REG_MR + RDMA WRITE");
        assertEquals(RdmaRwCtx.MR, ctx.type);
        assertEquals(1, n.qa.mrsUsed());
        IbMr mr = ctx.reg[0].mr;
        assertEquals(2 * 4096 + 1000, ctx.reg[0].sge.length);
        int oldKey = mr.lkey();
        RwNet.Done done = new RwNet.Done();
        SendWr first = rw.rwCtxWrs(ctx, n.qa, 1, done, null);
        assertEquals(WrOpcode.REG_MR, first.opcode);
        assertEquals(IbMr.incRkey(oldKey), mr.lkey(), "the key advances with every registration");
        assertEquals(mr.lkey(), first.key);
        assertEquals(WrOpcode.RDMA_WRITE, first.next.opcode);
        assertEquals(mr.lkey(), first.next.sgList[0].lkey);
        assertEquals(SendFlags.SIGNALED, first.next.sendFlags & SendFlags.SIGNALED);
        assertSame(done, first.next.wrCqe);
        assertEquals(0, n.qa.postSend(first, null));
        n.complete(done, 1);
        RwNet.assertRange(l.buf, 0, n.remote, 0, 2 * 4096 + 1000);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 3, TO);
        assertEquals(0, n.qa.mrsUsed());

        // the same MR again (the pool is LIFO): its registration is still valid, so LOCAL_INV comes first
        RwNet.pattern(n.remote, 12);
        wrs = rw.rwCtxInit(ctx, n.qa, 1, sg, 3, 0, RwNet.REMOTE_IOVA + 8192, n.remoteMr.rkey(), FROM);
        assertEquals(3, wrs, "LOCAL_INV + REG_MR + RDMA READ");
        assertSame(mr, ctx.reg[0].mr);
        done = new RwNet.Done();
        first = rw.rwCtxWrs(ctx, n.qa, 1, done, null);
        assertEquals(WrOpcode.LOCAL_INV, first.opcode);
        assertEquals(IbMr.incRkey(oldKey), first.invalidateRkey);
        assertEquals(WrOpcode.RDMA_READ, first.next.next.opcode);
        assertEquals(0, n.qa.postSend(first, null));
        n.complete(done, 1);
        RwNet.assertRange(n.remote, 8192, l.buf, 0, 2 * 4096 + 1000);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 3, FROM);
    }

    @Test
    void aLargeListIsRegisteredInSeveralMrsChainedInOrder() {
        RwPolicy.setForceMr(true);
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 4, 4, 0));
        Local l = new Local(n, 600 * 4096, 6);
        SgEntry[] sg = pages(l, 600, 4096);
        int wrs = rw.rwCtxInit(ctx, n.qa, 1, sg, 600, 4096 + 5, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO);
        // 599 elements after the offset: 256 + 256 + 87 pages
        assertEquals(3, ctx.nrOps);
        assertEquals(6, wrs);
        assertEquals(3, n.qa.mrsUsed());
        assertEquals(256 * 4096 - 5, ctx.reg[0].sge.length);
        assertEquals(RwNet.REMOTE_IOVA + 256 * 4096 - 5, ctx.reg[1].wr.remoteAddr);
        assertSame(ctx.reg[1].regWr, ctx.reg[0].wr.next);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 600, TO);
        assertEquals(6, transfer(n, sg, 4096 + 5, RwNet.REMOTE_IOVA, TO));
        RwNet.assertRange(l.buf, 4096 + 5, n.remote, 0, 599 * 4096 - 5);

        RwNet.pattern(n.remote, 13);
        assertEquals(9, transfer(n, sg, 0, RwNet.REMOTE_IOVA, FROM), "now with three LOCAL_INVs");
        RwNet.assertRange(n.remote, 0, l.buf, 0, 600 * 4096);
    }

    @Test
    void readsWithMoreElementsThanMaxSglRdUseMrsWithoutForcing() {
        RwNet n = net(32, 2);
        n.connect(RwNet.init(null, 4, 2, 0));
        assertEquals(2, n.qa.rdmaMrs().size(), "the device may use MRs, so the QP has a pool");
        Local l = new Local(n, 4 * 4096, 7);
        SgEntry[] three = pages(l, 3, 4096);
        SgEntry[] two = pages(l, 2, 4096);
        assertEquals(2, rw.rwCtxInit(ctx, n.qa, 1, three, 3, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), FROM));
        assertEquals(RdmaRwCtx.MR, ctx.type);
        rw.rwCtxDestroy(ctx, n.qa, 1, three, 3, FROM);
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, two, 2, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), FROM));
        assertEquals(RdmaRwCtx.MULTI_WR, ctx.type);
        rw.rwCtxDestroy(ctx, n.qa, 1, two, 2, FROM);
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, three, 3, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO),
                "WRITEs never need MRs here");
        assertEquals(RdmaRwCtx.MULTI_WR, ctx.type);
        rw.rwCtxDestroy(ctx, n.qa, 1, three, 3, TO);

        RwNet.pattern(n.remote, 14);
        assertEquals(2, transfer(n, three, 0, RwNet.REMOTE_IOVA, FROM));
        RwNet.assertRange(n.remote, 0, l.buf, 0, 3 * 4096);
    }

    @Test
    void anEmptyPoolIsEagainUntilAContextGivesItsMrBack() {
        RwPolicy.setForceMr(true);
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 4, 2, 0));
        Local l = new Local(n, 600 * 4096, 8);
        SgEntry[] sg = pages(l, 1, 4096);
        RdmaRwCtx c1 = new RdmaRwCtx();
        RdmaRwCtx c2 = new RdmaRwCtx();
        RdmaRwCtx c3 = new RdmaRwCtx();
        assertEquals(2, rw.rwCtxInit(c1, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO));
        assertEquals(2, rw.rwCtxInit(c2, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO));
        assertEquals(-Errno.EAGAIN.value, rw.rwCtxInit(c3, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO));
        assertEquals(RdmaRwCtx.NONE, c3.type);
        rw.rwCtxDestroy(c1, n.qa, 1, sg, 1, TO);
        // a transfer needing two MRs gets one, then fails and gives it back
        SgEntry[] big = pages(l, 300, 4096);
        assertEquals(-Errno.EAGAIN.value, rw.rwCtxInit(c3, n.qa, 1, big, 300, 0, RwNet.REMOTE_IOVA,
                n.remoteMr.rkey(), TO));
        assertEquals(1, n.qa.mrsUsed());
        assertEquals(2, rw.rwCtxInit(c3, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO));
        assertEquals(2, n.qa.mrsUsed());
        rw.rwCtxDestroy(c2, n.qa, 1, sg, 1, TO);
        rw.rwCtxDestroy(c3, n.qa, 1, sg, 1, TO);
        assertEquals(0, n.qa.mrsUsed());
    }

    @Test
    void aListAnMrCannotMapIsEinvalAndTheMrGoesBack() {
        RwPolicy.setForceMr(true);
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 4, 1, 0));
        Local l = new Local(n, 4 * 4096, 9);
        // the first element ends off a page boundary, so the second cannot follow it in one MR
        SgEntry[] gap = {l.at(0, 1000), l.at(8192, 4096)};
        assertEquals(-Errno.EINVAL.value, rw.rwCtxInit(ctx, n.qa, 1, gap, 2, 0, RwNet.REMOTE_IOVA,
                n.remoteMr.rkey(), TO));
        assertEquals(0, n.qa.mrsUsed());
        assertEquals(1, n.qa.rdmaMrs().size());
    }

    @Test
    void iwarpReadsAlwaysRegisterAndInvalidateWithTheRead() {
        RwNet n = new RwNet(a -> { }, org.rdma.verbs.NodeType.RNIC);
        QpInitAttr init = RwNet.init(null, 4, 2, 0);
        n.connect(init);
        assertEquals(64 + 3 * 2, init.cap.maxSendWr);
        assertEquals(2, n.qa.rdmaMrs().size());
        Local l = new Local(n, 4096, 1);
        SgEntry[] sg = {l.at(0, 4096)};
        assertEquals(2, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), FROM),
                "one element, and still an MR");
        IbMr mr = ctx.reg[0].mr;
        assertEquals(WrOpcode.RDMA_READ_WITH_INV, ctx.reg[0].wr.opcode);
        assertEquals(mr.lkey(), ctx.reg[0].wr.invalidateRkey);
        assertEquals(org.rdma.verbs.AccessFlags.LOCAL_WRITE | org.rdma.verbs.AccessFlags.REMOTE_WRITE,
                ctx.reg[0].regWr.access, "iWARP READ responses are RDMA WRITEs into the MR");
        rw.rwCtxWrs(ctx, n.qa, 1, new RwNet.Done(), null);
        assertEquals(false, mr.needInval(), "the READ invalidates the MR itself");
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 1, FROM);
        assertEquals(2, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), FROM),
                "so no LOCAL_INV on reuse");
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 1, FROM);
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO),
                "WRITEs need no MR");
        assertEquals(RdmaRwCtx.SINGLE_WR, ctx.type);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 1, TO);
        assertEquals(1, rw.rwMrFactor(n.a, 1, 256));
    }

    // ================================================================== chains and sizing

    @Test
    void aChainedRequestFollowsTheTransferAndCarriesItsOwnCompletion() {
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 4, 2, 0));
        Local l = new Local(n, 8192, 10);
        SgEntry[] sg = {l.at(0, 2000), l.at(4096, 2000)};
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, sg, 2, 0, RwNet.REMOTE_IOVA, n.remoteMr.rkey(), TO));
        // b expects the response after the data, as a target's SCSI response follows its READ data
        ByteBuffer rbuf = ByteBuffer.allocate(64);
        RecvWr r = new RecvWr();
        r.sg(new Sge(n.b.dmaMapSingle(rbuf), 64, n.pb.localDmaLkey()));
        assertEquals(0, n.qb.postRecv(r, null));
        RwNet.Done sendDone = new RwNet.Done();
        SendWr rsp = new SendWr();
        rsp.opcode = WrOpcode.SEND;
        rsp.sendFlags = SendFlags.SIGNALED;
        rsp.wrCqe = sendDone;
        rsp.sg(new Sge(l.dma + 7000, 32, n.pa.localDmaLkey()));
        SendWr first = rw.rwCtxWrs(ctx, n.qa, 1, null, rsp);
        assertSame(rsp, ctx.wrs[0].next);
        assertEquals(0, ctx.wrs[0].sendFlags & SendFlags.SIGNALED, "the chain's end is signalled, not the transfer");
        assertEquals(0, n.qa.postSend(first, null));
        n.complete(sendDone, 1);
        assertEquals(WcOpcode.SEND, sendDone.wcs.get(0).opcode);
        assertGathered(n, l, sg, 0, 0);
        RwNet.assertRange(l.buf, 7000, rbuf, 0, 32);
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 2, TO);
    }

    @Test
    void mrFactorAndSendQueueSizing() {
        RwNet n = net(32, 0);
        assertEquals(4, rw.rwMrFactor(n.a, 1, 100), "without MRs: READs of max_sge_rd pages");
        RwPolicy.setForceMr(true);
        assertEquals(1, rw.rwMrFactor(n.a, 1, 100));
        assertEquals(3, rw.rwMrFactor(n.a, 1, 600), "256 pages per MR");
        RwPolicy.setForceMr(false);
        QpInitAttr attr = RwNet.init(null, 1, 5, 0);
        attr.cap.maxSendWr = 10;
        rw.rwInitQp(n.a, attr);
        assertEquals(15, attr.cap.maxSendWr);
        attr = RwNet.init(null, 1, 5, QpInitAttr.CREATE_INTEGRITY_EN);
        attr.cap.maxSendWr = 10;
        rw.rwInitQp(n.a, attr);
        assertEquals(25, attr.cap.maxSendWr);
        attr.cap.maxRdmaCtxs = 100_000;
        rw.rwInitQp(n.a, attr);
        assertEquals(n.a.attrs().maxQpWr, attr.cap.maxSendWr, "capped by max_qp_wr");
    }

    // ================================================================== MR pools

    @Test
    void poolGetPutExhaustionAndDestroyWithoutLeaks() {
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 1, 0, 0));
        int before = n.a.restrack().counts().get("mr");
        MrPool pool = (MrPool) n.qa.rdmaMrs();
        pool.init(3, MrType.MEM_REG, 8, 0);
        assertEquals(before + 3, n.a.restrack().counts().get("mr"));
        IbMr m1 = pool.get();
        IbMr m2 = pool.get();
        IbMr m3 = pool.get();
        assertNotNull(m3);
        assertNull(pool.get(), "exhausted");
        assertEquals(3, n.qa.mrsUsed());
        pool.put(m1);
        pool.put(m2);
        assertSame(m2, pool.get(), "MRs come back at the head");
        assertEquals(2, n.qa.mrsUsed());
        IbMr foreign = n.pa.allocMr(MrType.MEM_REG, 4);
        RdmaException e = assertThrows(RdmaException.class, () -> pool.put(foreign));
        assertEquals(Errno.EINVAL, e.errno());
        foreign.dereg();
        pool.destroy();
        assertEquals(0, n.qa.mrsUsed());
        assertEquals(before, n.a.restrack().counts().get("mr"), "taken MRs are deregistered too");
        pool.put(m3);
        assertEquals(0, pool.size(), "a late put after destroy is ignored");
        // a failed init leaves the pool empty
        e = assertThrows(RdmaException.class, () -> pool.init(2, MrType.MEM_REG, 100_000, 0));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(0, pool.size());
    }

    @Test
    void destroyingTheQpReleasesItsPools() {
        RwPolicy.setForceMr(true);
        RwNet n = net(32, 0);
        int before = n.a.restrack().counts().get("mr");
        n.connect(RwNet.init(null, 1, 4, QpInitAttr.CREATE_INTEGRITY_EN));
        assertEquals(before + 8, n.a.restrack().counts().get("mr"), "4 MEM_REG + 4 INTEGRITY");
        Local l = new Local(n, 4096, 1);
        assertEquals(2, rw.rwCtxInit(ctx, n.qa, 1, new SgEntry[] {l.at(0, 4096)}, 1, 0, RwNet.REMOTE_IOVA,
                n.remoteMr.rkey(), TO));
        n.qa.destroy();
        assertEquals(before, n.a.restrack().counts().get("mr"));
        n.cqa.free();
        n.pa.dealloc();
        assertEquals(0, n.a.restrack().counts().get("pd"));
    }

    // ================================================================== errors

    @Test
    void badArgumentsAreRefused() {
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 1, 1, 0));
        Local l = new Local(n, 4096, 1);
        SgEntry[] sg = {l.at(0, 100)};
        int rkey = n.remoteMr.rkey();
        assertEquals(-Errno.EINVAL.value, rw.rwCtxInit(ctx, n.qa, 1, sg, 0, 0, 0, rkey, TO));
        assertEquals(-Errno.EINVAL.value, rw.rwCtxInit(ctx, n.qa, 1, sg, 2, 0, 0, rkey, TO));
        assertEquals(-Errno.EINVAL.value, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, 0, rkey, DmaDataDirection.NONE));
        assertEquals(-Errno.EINVAL.value, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, 0, rkey,
                DmaDataDirection.BIDIRECTIONAL));
        assertEquals(-Errno.EINVAL.value, rw.rwCtxSignatureInit(ctx, n.qa, 1, sg, 1, null, 0, new SigAttrs(), 0,
                rkey, TO), "no integrity on this QP");
        RdmaException e = assertThrows(RdmaException.class, () -> rw.rwCtxWrs(ctx, n.qa, 1, null, null));
        assertEquals(Errno.EINVAL, e.errno());
        e = assertThrows(RdmaException.class, () -> rw.rwCtxDestroy(ctx, n.qa, 1, sg, 1, TO));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, sg, 1, 0, 0, rkey, TO));
        e = assertThrows(RdmaException.class, () -> rw.rwCtxDestroySignature(ctx, n.qa, 1, sg, 1, null, 0, TO));
        assertEquals(Errno.EINVAL, e.errno());
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 1, TO);

        RwNet plain = new RwNet(a -> a.kernelCapFlags &= ~org.rdma.verbs.DeviceCapFlags.IBK_INTEGRITY_HANDOVER);
        e = assertThrows(RdmaException.class, () -> plain.connect(RwNet.init(null, 1, 1, QpInitAttr.CREATE_INTEGRITY_EN)));
        assertEquals(Errno.EINVAL, e.errno());
    }

    // ================================================================== cost

    @Test
    void aWarmContextAllocatesNothing() {
        RwPolicy.setForceMr(true);
        RwNet n = net(32, 0);
        n.connect(RwNet.init(null, 4, 1, 0));
        Local l = new Local(n, 16 * 4096, 1);
        SgEntry[] pages = pages(l, 16, 4096);
        SgEntry[] list = new SgEntry[10];
        System.arraycopy(pages, 0, list, 0, 10);
        RwNet.Done done = new RwNet.Done();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        cycle(n, pages, list, done, 2000);
        long before = mx.getThreadAllocatedBytes(tid);
        cycle(n, pages, list, done, 1000);
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 1024, "bytes allocated by 1000 init/wrs/destroy cycles: " + allocated);
    }

    private void cycle(RwNet n, SgEntry[] pages, SgEntry[] list, RwNet.Done done, int count) {
        int rkey = n.remoteMr.rkey();
        for (int i = 0; i < count; i++) {
            // MR path (forced)
            if (rw.rwCtxInit(ctx, n.qa, 1, pages, 16, 100, RwNet.REMOTE_IOVA, rkey, TO) <= 0) {
                throw new AssertionError("init failed");
            }
            rw.rwCtxWrs(ctx, n.qa, 1, done, null);
            rw.rwCtxDestroy(ctx, n.qa, 1, pages, 16, TO);
        }
    }
}
