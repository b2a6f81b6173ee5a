package org.rdma.core.internal.rw;

import java.util.Arrays;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbCqe;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.rw.DmaDataDirection;
import org.rdma.verbs.rw.RdmaRw;
import org.rdma.verbs.rw.RdmaRwCtx;
import org.rdma.verbs.rw.RdmaRwCtx.RegCtx;

/**
 * {@code drivers/infiniband/core/rw.c}. Three ways to move a scatter/gather list: one WR with one
 * SGE (the fast path), WRs of up to {@code max_write_sge}/{@code max_read_sge} SGEs over the PD's
 * local DMA lkey, or per group of pages an MR from the QP's pool, chained as
 * {@code [LOCAL_INV of its previous key,] REG_MR, READ/WRITE} and then the next group. Signature
 * transfers use one INTEGRITY MR the same way with {@code REG_MR_INTEGRITY}. MR keys advance when
 * the chain is built ({@link #rwCtxWrs}), so a context can be posted once per initialisation.
 *
 * <p>Stateless and thread-safe; all per-transfer state is in the caller's {@link RdmaRwCtx},
 * whose work requests are reused: a warm context allocates nothing.
 */
public final class Rw implements RdmaRw {

    private static DeviceAttr attrs(IbQp qp) {
        return qp instanceof CoreQpAttrs ? ((CoreQpAttrs) qp).deviceAttrs() : qp.device().attrs();
    }

    private static boolean validDir(DmaDataDirection dir) {
        return dir == DmaDataDirection.TO_DEVICE || dir == DmaDataDirection.FROM_DEVICE;
    }

    private static WrOpcode rdmaOp(DmaDataDirection dir) {
        return dir == DmaDataDirection.TO_DEVICE ? WrOpcode.RDMA_WRITE : WrOpcode.RDMA_READ;
    }

    /** What a registration grants: local write, plus remote write on iWARP (whose READ responses land by RDMA WRITE). */
    private static int regAccess(IbQp qp, int port) {
        return AccessFlags.LOCAL_WRITE | (RwPolicy.iwarp(qp.device(), port) ? AccessFlags.REMOTE_WRITE : 0);
    }

    // ================================================================== rdma_rw_ctx_init

    @Override
    public int rwCtxInit(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, int sgOffset, long remoteAddr,
            int rkey, DmaDataDirection dir) {
        if (ctx == null || qp == null || sg == null || sgCnt <= 0 || sgCnt > sg.length || !validDir(dir)) {
            return -Errno.EINVAL.value;
        }
        ctx.type = RdmaRwCtx.NONE;
        ctx.nrOps = 0;
        // skip to the element sg_offset falls into
        int first = 0;
        long offset = sgOffset & 0xffff_ffffL;
        while (first < sgCnt && offset >= (sg[first].dmaLength & 0xffff_ffffL)) {
            offset -= sg[first].dmaLength & 0xffff_ffffL;
            first++;
        }
        if (first == sgCnt) {
            return -Errno.EIO.value;
        }
        int cnt = sgCnt - first;
        DeviceAttr a = attrs(qp);
        if (RwPolicy.ioNeedsMr(qp.device(), a, portNum, dir, cnt)) {
            return initMrWrs(ctx, qp, portNum, a, sg, first, cnt, (int) offset, remoteAddr, rkey, dir);
        }
        if (cnt > 1) {
            return initMapWrs(ctx, qp, sg, first, cnt, (int) offset, remoteAddr, rkey, dir);
        }
        return initSingleWr(ctx, qp, sg[first], (int) offset, remoteAddr, rkey, dir);
    }

    /** {@code rdma_rw_init_single_wr()}. */
    private static int initSingleWr(RdmaRwCtx ctx, IbQp qp, SgEntry sg, int offset, long remoteAddr, int rkey,
            DmaDataDirection dir) {
        growWrs(ctx, 1, 1);
        SendWr w = clear(ctx.wrs[0]);
        w.opcode = rdmaOp(dir);
        w.sgList[0].set(sg.dmaAddress + offset, sg.dmaLength - offset, qp.pd().localDmaLkey());
        w.numSge = 1;
        w.remoteAddr = remoteAddr;
        w.rkey = rkey;
        ctx.nrOps = 1;
        ctx.type = RdmaRwCtx.SINGLE_WR;
        return 1;
    }

    /** {@code rdma_rw_init_map_wrs()}: the list split into WRs of at most the QP's SGE limit. */
    private static int initMapWrs(RdmaRwCtx ctx, IbQp qp, SgEntry[] sg, int first, int cnt, int offset,
            long remoteAddr, int rkey, DmaDataDirection dir) {
        int maxSge = dir == DmaDataDirection.TO_DEVICE ? qp.maxWriteSge() : qp.maxReadSge();
        if (maxSge <= 0) {
            return -Errno.EINVAL.value;
        }
        int nrOps = (cnt + maxSge - 1) / maxSge;
        growWrs(ctx, nrOps, Math.min(cnt, maxSge));
        int lkey = qp.pd().localDmaLkey();
        long total = 0;
        int idx = first;
        int left = cnt;
        for (int i = 0; i < nrOps; i++) {
            SendWr w = clear(ctx.wrs[i]);
            int nrSge = Math.min(left, maxSge);
            w.opcode = rdmaOp(dir);
            w.remoteAddr = remoteAddr + total;
            w.rkey = rkey;
            w.numSge = nrSge;
            for (int j = 0; j < nrSge; j++, idx++) {
                Sge s = w.sgList[j];
                s.set(sg[idx].dmaAddress + offset, sg[idx].dmaLength - offset, lkey);
                total += s.length & 0xffff_ffffL;
                offset = 0;
            }
            left -= nrSge;
            w.next = i + 1 < nrOps ? ctx.wrs[i + 1] : null;
        }
        ctx.nrOps = nrOps;
        ctx.type = RdmaRwCtx.MULTI_WR;
        return nrOps;
    }

    /** {@code rdma_rw_init_mr_wrs()}: one MR per {@code pages_per_mr} elements. */
    private static int initMrWrs(RdmaRwCtx ctx, IbQp qp, int port, DeviceAttr a, SgEntry[] sg, int first, int cnt,
            int offset, long remoteAddr, int rkey, DmaDataDirection dir) {
        int pagesPerMr = RwPolicy.frPageListLen(a, qp.integrityEn());
        int nrOps = (cnt + pagesPerMr - 1) / pagesPerMr;
        growReg(ctx, nrOps);
        if (ctx.sgWindow.length < Math.min(cnt, pagesPerMr)) {
            ctx.sgWindow = new SgEntry[Math.min(cnt, pagesPerMr)];
        }
        boolean readInv = dir == DmaDataDirection.FROM_DEVICE && RwPolicy.iwarp(qp.device(), port);
        RegCtx prev = null;
        int count = 0;
        int idx = first;
        int left = cnt;
        for (int i = 0; i < nrOps; i++) {
            RegCtx reg = ctx.reg[i];
            int nents = Math.min(left, pagesPerMr);
            int ret = initOneMr(ctx, qp, port, reg, sg, idx, nents, offset);
            if (ret < 0) {
                for (int j = 0; j < i; j++) {
                    qp.rdmaMrs().put(ctx.reg[j].mr);
                    ctx.reg[j].mr = null;
                }
                return ret;
            }
            count += ret;
            if (prev != null) {
                prev.wr.next = reg.inv ? reg.invWr : reg.regWr;
            }
            reg.regWr.next = reg.wr;
            SendWr w = clear(reg.wr);
            w.sgList = reg.sgeList;
            w.numSge = 1;
            w.remoteAddr = remoteAddr;
            w.rkey = rkey;
            if (dir == DmaDataDirection.TO_DEVICE) {
                w.opcode = WrOpcode.RDMA_WRITE;
            } else if (!readInv) {
                w.opcode = WrOpcode.RDMA_READ;
            } else {
                w.opcode = WrOpcode.RDMA_READ_WITH_INV;
                w.invalidateRkey = reg.mr.lkey();
            }
            count++;
            remoteAddr += reg.sge.length & 0xffff_ffffL;
            left -= nents;
            idx += nents;
            prev = reg;
            offset = 0;
        }
        prev.wr.next = null;
        ctx.nrOps = nrOps;
        ctx.type = RdmaRwCtx.MR;
        return count;
    }

    /** {@code rdma_rw_init_one_mr()}: takes an MR and maps {@code nents} elements from {@code sg[idx]}. */
    private static int initOneMr(RdmaRwCtx ctx, IbQp qp, int port, RegCtx reg, SgEntry[] sg, int idx, int nents,
            int offset) {
        reg.mr = qp.rdmaMrs().get();
        if (reg.mr == null) {
            return -Errno.EAGAIN.value;
        }
        int count = invKey(reg);
        SgEntry[] window = sg;
        if (idx != 0) {
            System.arraycopy(sg, idx, ctx.sgWindow, 0, nents);
            window = ctx.sgWindow;
        }
        ctx.sgOffset[0] = offset;
        int ret = reg.mr.mapMrSg(window, nents, ctx.sgOffset, RwPolicy.PAGE_SIZE);
        if (idx != 0) {
            Arrays.fill(ctx.sgWindow, 0, nents, null);
        }
        if (ret < nents) {
            qp.rdmaMrs().put(reg.mr);
            reg.mr = null;
            return -Errno.EINVAL.value;
        }
        SendWr r = clear(reg.regWr);
        r.opcode = WrOpcode.REG_MR;
        r.mr = reg.mr;
        r.access = regAccess(qp, port);
        count++;
        reg.sge.addr = reg.mr.iova();
        reg.sge.length = (int) reg.mr.length();
        return count;
    }

    /** {@code rdma_rw_inv_key()}: a LOCAL_INV heads the chain when the MR's last key may be valid. */
    private static int invKey(RegCtx reg) {
        if (reg.mr.needInval()) {
            SendWr inv = clear(reg.invWr);
            inv.opcode = WrOpcode.LOCAL_INV;
            inv.invalidateRkey = reg.mr.lkey();
            inv.next = reg.regWr;
            reg.inv = true;
            return 1;
        }
        reg.inv = false;
        return 0;
    }

    // ================================================================== rdma_rw_ctx_signature_init

    @Override
    public int rwCtxSignatureInit(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, SgEntry[] protSg,
            int protSgCnt, SigAttrs sigAttrs, long remoteAddr, int rkey, DmaDataDirection dir) {
        if (ctx == null || qp == null || sg == null || sgCnt <= 0 || sgCnt > sg.length || protSgCnt < 0
                || protSgCnt > 0 && (protSg == null || protSgCnt > protSg.length) || sigAttrs == null
                || !validDir(dir) || !qp.integrityEn()) {
            return -Errno.EINVAL.value;
        }
        ctx.type = RdmaRwCtx.NONE;
        ctx.nrOps = 0;
        int pagesPerMr = RwPolicy.frPageListLen(attrs(qp), true);
        if (sgCnt > pagesPerMr || protSgCnt > pagesPerMr) {
            return -Errno.EINVAL.value;
        }
        growReg(ctx, 1);
        RegCtx reg = ctx.reg[0];
        reg.mr = qp.sigMrs().get();
        if (reg.mr == null) {
            return -Errno.EAGAIN.value;
        }
        int count = invKey(reg);
        reg.mr.sigAttrs().copyFrom(sigAttrs);
        int ret = reg.mr.mapMrSgPi(sg, sgCnt, null, protSg, protSgCnt, null, RwPolicy.PAGE_SIZE);
        if (ret != 0) {
            qp.sigMrs().put(reg.mr);
            reg.mr = null;
            return ret < 0 ? ret : -Errno.EINVAL.value;
        }
        SendWr r = clear(reg.regWr);
        r.opcode = WrOpcode.REG_MR_INTEGRITY;
        r.access = regAccess(qp, portNum);
        r.mr = reg.mr;
        r.key = reg.mr.lkey();
        count++;
        reg.sge.addr = reg.mr.iova();
        reg.sge.length = (int) reg.mr.sigAttrs().wireLength(reg.mr.length());
        SendWr w = clear(reg.wr);
        w.sgList = reg.sgeList;
        w.numSge = 1;
        w.remoteAddr = remoteAddr;
        w.rkey = rkey;
        w.opcode = rdmaOp(dir);
        r.next = w;
        count++;
        ctx.nrOps = 1;
        ctx.type = RdmaRwCtx.SIG_MR;
        return count;
    }

    // ================================================================== posting

    @Override
    public SendWr rwCtxWrs(RdmaRwCtx ctx, IbQp qp, int portNum, IbCqe cqe, SendWr chainWr) {
        SendWr firstWr;
        SendWr lastWr;
        switch (ctx.type) {
            case RdmaRwCtx.SIG_MR:
            case RdmaRwCtx.MR:
                for (int i = 0; i < ctx.nrOps; i++) {
                    updateLkey(ctx.reg[i], ctx.reg[i].wr.opcode != WrOpcode.RDMA_READ_WITH_INV);
                }
                firstWr = ctx.reg[0].inv ? ctx.reg[0].invWr : ctx.reg[0].regWr;
                lastWr = ctx.reg[ctx.nrOps - 1].wr;
                break;
            case RdmaRwCtx.MULTI_WR:
            case RdmaRwCtx.SINGLE_WR:
                firstWr = ctx.wrs[0];
                lastWr = ctx.wrs[ctx.nrOps - 1];
                break;
            default:
                throw new RdmaException(Errno.EINVAL, "rdma_rw context is not initialised");
        }
        lastWr.next = chainWr;
        if (chainWr == null) {
            lastWr.wrCqe = cqe;
            lastWr.sendFlags |= SendFlags.SIGNALED;
        }
        return firstWr;
    }

    /** {@code rdma_rw_update_lkey()}: the MR's next key, used by the registration and the SGE. */
    private static void updateLkey(RegCtx reg, boolean needInval) {
        IbMr mr = reg.mr;
        mr.setNeedInval(needInval);
        mr.updateFastRegKey(IbMr.incRkey(mr.lkey()));
        reg.regWr.key = mr.lkey();
        reg.sge.lkey = mr.lkey();
    }

    @Override
    public int rwCtxPost(RdmaRwCtx ctx, IbQp qp, int portNum, IbCqe cqe, SendWr chainWr) {
        return qp.postSend(rwCtxWrs(ctx, qp, portNum, cqe, chainWr), null);
    }

    // ================================================================== teardown

    @Override
    public void rwCtxDestroy(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt, DmaDataDirection dir) {
        switch (ctx.type) {
            case RdmaRwCtx.MR:
                for (int i = 0; i < ctx.nrOps; i++) {
                    qp.rdmaMrs().put(ctx.reg[i].mr);
                    ctx.reg[i].mr = null;
                }
                break;
            case RdmaRwCtx.MULTI_WR:
            case RdmaRwCtx.SINGLE_WR:
                break;
            default:
                throw new RdmaException(Errno.EINVAL, "rdma_rw_ctx_destroy of a context of type " + ctx.type);
        }
        ctx.type = RdmaRwCtx.NONE;
        ctx.nrOps = 0;
    }

    @Override
    public void rwCtxDestroySignature(RdmaRwCtx ctx, IbQp qp, int portNum, SgEntry[] sg, int sgCnt,
            SgEntry[] protSg, int protSgCnt, DmaDataDirection dir) {
        RdmaException.check(ctx.type == RdmaRwCtx.SIG_MR, Errno.EINVAL,
                "rdma_rw_ctx_destroy_signature of a context of type " + ctx.type);
        qp.sigMrs().put(ctx.reg[0].mr);
        ctx.reg[0].mr = null;
        ctx.type = RdmaRwCtx.NONE;
        ctx.nrOps = 0;
    }

    // ================================================================== sizing and QP setup

    @Override
    public int rwMrFactor(IbDevice device, int portNum, int maxPages) {
        DeviceAttr a = device.attrs();
        int mrPages = RwPolicy.canUseMr(device, a, portNum) ? RwPolicy.frPageListLen(a, false) : a.maxSgeRd;
        return (maxPages + Math.max(1, mrPages) - 1) / Math.max(1, mrPages);
    }

    @Override
    public void rwInitQp(IbDevice device, QpInitAttr attr) {
        RwQp.initQp(device, device.attrs(), attr);
    }

    @Override
    public void rwInitMrs(IbQp qp, QpInitAttr attr) {
        RwQp.initMrs(qp, attrs(qp), attr);
    }

    @Override
    public void rwCleanupMrs(IbQp qp) {
        RwQp.cleanupMrs(qp);
    }

    // ================================================================== context storage

    /** Resets a reused work request to the zeroed state {@code kcalloc} gives the kernel's. */
    private static SendWr clear(SendWr w) {
        w.next = null;
        w.wrId = 0;
        w.wrCqe = null;
        w.numSge = 0;
        w.opcode = WrOpcode.RDMA_WRITE;
        w.sendFlags = 0;
        w.immData = 0;
        w.invalidateRkey = 0;
        w.remoteAddr = 0;
        w.rkey = 0;
        w.mr = null;
        w.key = 0;
        w.access = 0;
        return w;
    }

    /** At least {@code n} work requests with at least {@code sges} SGEs each. */
    private static void growWrs(RdmaRwCtx ctx, int n, int sges) {
        if (ctx.wrs.length < n) {
            SendWr[] grown = Arrays.copyOf(ctx.wrs, n);
            for (int i = ctx.wrs.length; i < n; i++) {
                grown[i] = new SendWr();
            }
            ctx.wrs = grown;
        }
        for (int i = 0; i < n; i++) {
            SendWr w = ctx.wrs[i];
            if (w.sgList.length < sges) {
                Sge[] s = Arrays.copyOf(w.sgList, sges);
                for (int j = w.sgList.length; j < sges; j++) {
                    s[j] = new Sge();
                }
                w.sgList = s;
            }
        }
    }

    private static void growReg(RdmaRwCtx ctx, int n) {
        if (ctx.reg.length < n) {
            RegCtx[] grown = Arrays.copyOf(ctx.reg, n);
            for (int i = ctx.reg.length; i < n; i++) {
                grown[i] = new RegCtx();
            }
            ctx.reg = grown;
        }
    }
}
