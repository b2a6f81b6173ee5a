package org.rdma.core.internal.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.testkit.Dif;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.MrType;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.SigDomain;
import org.rdma.verbs.SigErrType;
import org.rdma.verbs.SignatureType;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.rw.DmaDataDirection;
import org.rdma.verbs.rw.RdmaRwCtx;

/**
 * Signature contexts ({@code rdma_rw_ctx_signature_init()}) between two core devices: T10-PI
 * carried, inserted and stripped through the QP's INTEGRITY MRs, and a corrupted data byte, a
 * wrong reference tag and a wrong application tag each reported by {@code ib_check_mr_status()}
 * with its type, values and offset. Images are worked out independently ({@link Dif}).
 */
class RdmaRwSignatureTest {
    static final DmaDataDirection TO = DmaDataDirection.TO_DEVICE;
    static final DmaDataDirection FROM = DmaDataDirection.FROM_DEVICE;
    static final int BLOCKS = 8;
    static final int INTERVAL = 512;
    static final int WIRE_BLOCK = INTERVAL + 8;
    static final int APP = 0x5a;
    static final int REF = 0x12340;

    final Rw rw = new Rw();
    final RdmaRwCtx ctx = new RdmaRwCtx();
    RwNet n;
    ByteBuffer data;
    ByteBuffer meta;
    SgEntry[] sg;
    SgEntry[] prot;
    ByteBuffer image;

    @BeforeEach
    void setUp() {
        n = new RwNet(a -> { });
        n.connect(RwNet.init(null, 4, 2, QpInitAttr.CREATE_INTEGRITY_EN));
        data = RwNet.pattern(ByteBuffer.allocate(BLOCKS * INTERVAL), 21);
        meta = ByteBuffer.allocate(BLOCKS * 8);
        Dif.fillMeta(data, BLOCKS, INTERVAL, meta, APP, REF);
        long d = n.a.dmaMapSingle(data);
        long m = n.a.dmaMapSingle(meta);
        // a DIX command: the data in two pieces, the protection information apart
        sg = new SgEntry[] {new SgEntry(d, 3 * INTERVAL), new SgEntry(d + 3 * INTERVAL, 5 * INTERVAL)};
        prot = new SgEntry[] {new SgEntry(m, BLOCKS * 8)};
        image = ByteBuffer.allocate(BLOCKS * WIRE_BLOCK);
        Dif.fillWire(data, BLOCKS, INTERVAL, image, APP, REF);
    }

    static SigAttrs attrs(SignatureType mem, SignatureType wire) {
        SigAttrs a = new SigAttrs();
        a.checkMask = SigAttrs.CHECK_GUARD | SigAttrs.CHECK_REFTAG | SigAttrs.CHECK_APPTAG;
        for (SigDomain dom : new SigDomain[] {a.mem, a.wire}) {
            dom.dif.piInterval = INTERVAL;
            dom.dif.appTag = APP;
            dom.dif.refTag = REF;
            dom.dif.refRemap = true;
        }
        a.mem.sigType = mem;
        a.wire.sigType = wire;
        return a;
    }

    static final SignatureType DIF = SignatureType.T10_DIF;
    static final SignatureType NONE = SignatureType.NONE;

    /** Runs one signature transfer; returns the MR it used (already back in the pool) and checks the WR count. */
    private IbMr transfer(SigAttrs a, SgEntry[] protSg, DmaDataDirection dir, int wantWrs) {
        int protCnt = protSg == null ? 0 : protSg.length;
        int wrs = rw.rwCtxSignatureInit(ctx, n.qa, 1, sg, sg.length, protSg, protCnt, a, RwNet.REMOTE_IOVA,
                n.remoteMr.rkey(), dir);
        assertEquals(wantWrs, wrs, "rdma_rw_ctx_signature_init");
        assertEquals(RdmaRwCtx.SIG_MR, ctx.type);
        IbMr mr = ctx.reg[0].mr;
        assertEquals(MrType.INTEGRITY, mr.type());
        assertEquals(1, n.qa.mrsUsed());
        RwNet.Done done = new RwNet.Done();
        SendWr first = rw.rwCtxWrs(ctx, n.qa, 1, done, null);
        SendWr reg = first.opcode == WrOpcode.LOCAL_INV ? first.next : first;
        assertEquals(WrOpcode.REG_MR_INTEGRITY, reg.opcode);
        assertSame(mr, reg.mr);
        assertEquals(dir == TO ? WrOpcode.RDMA_WRITE : WrOpcode.RDMA_READ, reg.next.opcode);
        assertEquals(0, n.qa.postSend(first, null));
        n.complete(done, 1);
        rw.rwCtxDestroySignature(ctx, n.qa, 1, sg, sg.length, protSg, protCnt, dir);
        assertEquals(0, n.qa.mrsUsed());
        return mr;
    }

    private static void assertClean(IbMr mr) {
        MrStatus st = new MrStatus();
        assertEquals(0, mr.checkMrStatus(MrStatus.CHECK_SIG_STATUS, st));
        assertEquals(0, st.failStatus, st.sigErr::toString);
    }

    private static void assertSigErr(IbMr mr, SigErrType type, long offset, int expected, int actual) {
        MrStatus st = new MrStatus();
        assertEquals(0, mr.checkMrStatus(MrStatus.CHECK_SIG_STATUS, st));
        assertTrue(st.sigFailed(), "no signature error reported");
        assertEquals(type, st.sigErr.errType, st.sigErr::toString);
        assertEquals(offset, st.sigErr.sigErrOffset, st.sigErr::toString);
        assertEquals(expected, st.sigErr.expected, st.sigErr::toString);
        assertEquals(actual, st.sigErr.actual, st.sigErr::toString);
        assertEquals(mr.lkey(), st.sigErr.key);
    }

    @Test
    void aCleanWriteCarriesTheTuplesAndPassesTheCheck() {
        assertEquals(2, n.qa.sigMrs().size());
        IbMr mr = transfer(attrs(DIF, DIF), prot, TO, 2);
        RwNet.assertRange(image, 0, n.remote, 0, BLOCKS * WIRE_BLOCK);
        assertEquals(BLOCKS * 8, mr.sigAttrs().metaLength);
        assertClean(mr);
    }

    @Test
    void aCorruptedDataByteIsABadGuardAtItsInterval() {
        int at = 3 * INTERVAL + 77;
        int guard = Dif.guardAt(meta, 3 * 8);
        data.put(at, (byte) (data.get(at) ^ 1));
        IbMr mr = transfer(attrs(DIF, DIF), prot, TO, 2);
        assertSigErr(mr, SigErrType.BAD_GUARD, 3L * WIRE_BLOCK, Dif.crc(data, 3 * INTERVAL, INTERVAL), guard);
        assertClean(mr);
    }

    @Test
    void readsDetectAWrongReferenceTagAndAWrongApplicationTag() {
        ByteBuffer wantData = data.duplicate();
        ByteBuffer wantMeta = ByteBuffer.allocate(BLOCKS * 8);
        wantMeta.put(0, meta, 0, BLOCKS * 8);
        n.remote.put(0, image, 0, image.capacity());
        Dif.putTuple(n.remote, 5 * WIRE_BLOCK + INTERVAL, Dif.crc(data, 5 * INTERVAL, INTERVAL), APP, 0x0bad0bad);
        data.put(0, new byte[BLOCKS * INTERVAL]);
        meta.put(0, new byte[BLOCKS * 8]);
        IbMr mr = transfer(attrs(DIF, DIF), prot, FROM, 2);
        assertSigErr(mr, SigErrType.BAD_REFTAG, 5L * WIRE_BLOCK, REF + 5, 0x0bad0bad);
        RwNet.assertRange(image, 0, n.remote, 0, 5 * WIRE_BLOCK);

        n.remote.put(0, image, 0, image.capacity());
        Dif.putTuple(n.remote, 2 * WIRE_BLOCK + INTERVAL, Dif.crc(image, 2 * WIRE_BLOCK, INTERVAL), 0x00ee, REF + 2);
        IbMr again = transfer(attrs(DIF, DIF), prot, FROM, 3);
        assertSame(mr, again, "the pool hands the same MR back, so its old registration is invalidated first");
        assertSigErr(mr, SigErrType.BAD_APPTAG, 2L * WIRE_BLOCK, APP, 0x00ee);

        n.remote.put(0, image, 0, image.capacity());
        transfer(attrs(DIF, DIF), prot, FROM, 3);
        assertClean(mr);
        for (int i = 0; i < BLOCKS; i++) {
            RwNet.assertRange(image, i * WIRE_BLOCK, data, i * INTERVAL, INTERVAL);
        }
        RwNet.assertRange(wantMeta, 0, meta, 0, BLOCKS * 8);
    }

    @Test
    void memoryWithoutProtectionGetsTuplesInsertedOnTheWire() {
        IbMr mr = transfer(attrs(NONE, DIF), null, TO, 2);
        RwNet.assertRange(image, 0, n.remote, 0, BLOCKS * WIRE_BLOCK);
        assertClean(mr);
    }

    @Test
    void aWireWithoutProtectionGetsTheDataOnlyAndMemoryTuplesAreStillChecked() {
        Dif.putTuple(meta, 6 * 8, Dif.guardAt(meta, 6 * 8), APP, REF + 1);
        IbMr mr = transfer(attrs(DIF, NONE), prot, TO, 2);
        RwNet.assertRange(data, 0, n.remote, 0, BLOCKS * INTERVAL);
        assertEquals(0, n.remote.get(BLOCKS * INTERVAL), "nothing beyond the data");
        assertSigErr(mr, SigErrType.BAD_REFTAG, 6L * INTERVAL, REF + 6, REF + 1);
    }

    @Test
    void signatureContextsRefuseWhatTheyCannotDo() {
        SigAttrs a = attrs(DIF, DIF);
        int rkey = n.remoteMr.rkey();
        SgEntry[] many = new SgEntry[300];
        for (int i = 0; i < many.length; i++) {
            many[i] = sg[0];
        }
        assertEquals(-Errno.EINVAL.value, rw.rwCtxSignatureInit(ctx, n.qa, 1, many, 300, prot, 1, a,
                RwNet.REMOTE_IOVA, rkey, TO), "more elements than one MR maps");
        RdmaRwCtx c1 = new RdmaRwCtx();
        RdmaRwCtx c2 = new RdmaRwCtx();
        assertEquals(2, rw.rwCtxSignatureInit(c1, n.qa, 1, sg, 2, prot, 1, a, RwNet.REMOTE_IOVA, rkey, TO));
        assertEquals(2, rw.rwCtxSignatureInit(c2, n.qa, 1, sg, 2, prot, 1, a, RwNet.REMOTE_IOVA, rkey, TO));
        assertEquals(-Errno.EAGAIN.value, rw.rwCtxSignatureInit(ctx, n.qa, 1, sg, 2, prot, 1, a,
                RwNet.REMOTE_IOVA, rkey, TO), "both signature MRs are taken");
        rw.rwCtxDestroySignature(c1, n.qa, 1, sg, 2, prot, 1, TO);
        rw.rwCtxDestroySignature(c2, n.qa, 1, sg, 2, prot, 1, TO);
        assertEquals(0, n.qa.mrsUsed());
        // plain contexts on an integrity QP still work, with MEM_REG MRs sized for signatures
        assertEquals(2, n.qa.rdmaMrs().size());
        assertEquals(1, rw.rwCtxInit(ctx, n.qa, 1, sg, 2, 0, RwNet.REMOTE_IOVA, rkey, TO));
        rw.rwCtxDestroy(ctx, n.qa, 1, sg, 2, TO);
    }
}
