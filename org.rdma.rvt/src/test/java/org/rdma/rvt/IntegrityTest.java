package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.testkit.Dif;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.Errno;
import org.rdma.verbs.MrStatus;
import org.rdma.verbs.MrType;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.QpState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.Sge;
import org.rdma.verbs.SigAttrs;
import org.rdma.verbs.SigDomain;
import org.rdma.verbs.SigErrType;
import org.rdma.verbs.SignatureType;
import org.rdma.verbs.T10DifBgType;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/**
 * INTEGRITY MRs on the software transport: T10-PI inserted, stripped, passed through and checked
 * as RDMA WRITE and READ move data through a signature region, whether it is the local SGE or the
 * remote key, with every byte compared to an image worked out independently ({@link Dif}).
 */
class IntegrityTest {
    static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
    static final int BLOCKS = 8;
    static final int INTERVAL = 512;
    static final int WIRE_BLOCK = INTERVAL + 8;
    static final int APP = 0x2a;
    static final int REF = 0x1000;
    static final long REMOTE_IOVA = 0x4000_0000L;

    Rig rig;
    Node na;
    Node nb;
    Rig.Opts o;
    Rig.Pair p;
    ByteBuffer data;
    ByteBuffer meta;
    long dataDma;
    long metaDma;
    ByteBuffer remote;
    FakeMr remoteMr;
    /** The wire image of {@link #data}: intervals with their tuples. */
    ByteBuffer image;

    @BeforeEach
    void setUp() {
        rig = new Rig();
        na = rig.node(1);
        nb = rig.node(2);
        na.createFlags = QpInitAttr.CREATE_INTEGRITY_EN;
        o = new Rig.Opts();
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        o.access |= AccessFlags.REMOTE_ATOMIC;
        p = rig.connect(na, nb, o);
        data = Rig.pattern(ByteBuffer.allocate(BLOCKS * INTERVAL), 9);
        meta = ByteBuffer.allocate(BLOCKS * 8);
        Dif.fillMeta(data, BLOCKS, INTERVAL, meta, APP, REF);
        dataDma = na.ctx.dma.map(data);
        metaDma = na.ctx.dma.map(meta);
        remote = ByteBuffer.allocate(1 << 16);
        remoteMr = nb.regMr(o.pdB, remote, REMOTE_IOVA, ALL | AccessFlags.REMOTE_ATOMIC);
        image = ByteBuffer.allocate(BLOCKS * WIRE_BLOCK);
        Dif.fillWire(data, BLOCKS, INTERVAL, image, APP, REF);
    }

    static SigAttrs attrs(SignatureType mem, SignatureType wire) {
        SigAttrs a = new SigAttrs();
        a.checkMask = SigAttrs.CHECK_GUARD | SigAttrs.CHECK_APPTAG | SigAttrs.CHECK_REFTAG;
        for (SigDomain d : new SigDomain[] {a.mem, a.wire}) {
            d.dif.piInterval = INTERVAL;
            d.dif.appTag = APP;
            d.dif.refTag = REF;
            d.dif.refRemap = true;
        }
        a.mem.sigType = mem;
        a.wire.sigType = wire;
        return a;
    }

    static final SignatureType DIF = SignatureType.T10_DIF;
    static final SignatureType NONE = SignatureType.NONE;

    /** The data list in two pieces that meet inside interval 2 (element lists need no alignment). */
    SgEntry[] dataSg() {
        return new SgEntry[] {new SgEntry(dataDma, 1500), new SgEntry(dataDma + 1500, BLOCKS * INTERVAL - 1500)};
    }

    SgEntry[] metaSg() {
        return new SgEntry[] {new SgEntry(metaDma, BLOCKS * 8)};
    }

    /** Allocates, maps and registers a signature MR on {@code na}. */
    FakeMr sigMr(SigAttrs a, SgEntry[] dataSg, SgEntry[] metaSg, int access) {
        FakeMr mr = na.allocMrIntegrity(o.pdA, 8, 8);
        mr.sigAttrs().copyFrom(a);
        assertEquals(0, mr.mapMrSgPi(dataSg, dataSg.length, null, metaSg, metaSg.length, null, 4096));
        assertEquals(0, mr.iova(), "zero based");
        assertEquals(dataSg == null ? 0 : metaSg.length == 0 ? 0 : BLOCKS * 8, mr.sigAttrs().metaLength);
        register(mr, access);
        return mr;
    }

    void register(FakeMr mr, int access) {
        mr.updateFastRegKey(mr.lkey() + 1);
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR_INTEGRITY;
        reg.mr = mr;
        reg.key = mr.lkey();
        reg.access = access;
        assertSuccess(run(p.a, reg));
    }

    List<Wc> run(Node.Qp q, SendWr w) {
        assertEquals(0, q.p.postSend(w, null));
        rig.settle();
        return Rig.drain(q.scq);
    }

    static void assertSuccess(List<Wc> wcs) {
        assertEquals(1, wcs.size(), wcs.toString());
        assertEquals(WcStatus.SUCCESS, wcs.get(0).status, wcs.toString());
    }

    SendWr write(long id, long remoteAddr, int rkey, Sge... sges) {
        SendWr w = Rig.send(WrOpcode.RDMA_WRITE, id, sges);
        w.remoteAddr = remoteAddr;
        w.rkey = rkey;
        return w;
    }

    SendWr read(long id, long remoteAddr, int rkey, Sge... sges) {
        SendWr w = Rig.send(WrOpcode.RDMA_READ, id, sges);
        w.remoteAddr = remoteAddr;
        w.rkey = rkey;
        return w;
    }

    static void assertClean(FakeMr mr) {
        MrStatus st = new MrStatus();
        assertEquals(0, mr.checkMrStatus(MrStatus.CHECK_SIG_STATUS, st));
        assertEquals(0, st.failStatus, () -> "unexpected " + st.sigErr);
    }

    static MrStatus assertSigErr(FakeMr mr, SigErrType type, long offset, int expected, int actual) {
        MrStatus st = new MrStatus();
        assertEquals(0, mr.checkMrStatus(MrStatus.CHECK_SIG_STATUS, st));
        assertTrue(st.sigFailed(), "a signature error was expected");
        assertEquals(type, st.sigErr.errType, st.sigErr::toString);
        assertEquals(offset, st.sigErr.sigErrOffset, st.sigErr::toString);
        assertEquals(expected, st.sigErr.expected, st.sigErr::toString);
        assertEquals(actual, st.sigErr.actual, st.sigErr::toString);
        assertEquals(mr.lkey(), st.sigErr.key);
        assertClean(mr);
        return st;
    }

    // ================================================================== the region as local SGE

    @Test
    void writeFromMemoryWithoutProtectionInsertsTuples() {
        FakeMr mr = sigMr(attrs(NONE, DIF), dataSg(), new SgEntry[0], AccessFlags.LOCAL_WRITE);
        assertEquals(BLOCKS * WIRE_BLOCK, mr.sigAttrs().wireLength(mr.length()));
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey()))));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);
        assertEquals(Dif.crc(data, 0, INTERVAL), Dif.guardAt(remote, INTERVAL));
        assertClean(mr);
    }

    @Test
    void writeOfDixMemoryPassesTuplesAndCatchesACorruptedDataByte() {
        FakeMr mr = sigMr(attrs(DIF, DIF), dataSg(), metaSg(), AccessFlags.LOCAL_WRITE);
        Sge all = new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey());
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), all)));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);
        assertClean(mr);

        data.put(3 * INTERVAL + 100, (byte) (data.get(3 * INTERVAL + 100) ^ 0x40));
        assertSuccess(run(p.a, write(2, REMOTE_IOVA, remoteMr.rkey(), all)));
        // the data moved anyway, with the memory's (now stale) guard passed through
        assertEquals(data.get(3 * INTERVAL + 100), remote.get(3 * WIRE_BLOCK + 100));
        assertEquals(Dif.guardAt(meta, 3 * 8), Dif.guardAt(remote, 3 * WIRE_BLOCK + INTERVAL));
        assertSigErr(mr, SigErrType.BAD_GUARD, 3L * WIRE_BLOCK, Dif.crc(data, 3 * INTERVAL, INTERVAL),
                Dif.guardAt(meta, 3 * 8));
    }

    @Test
    void sgesThatCutTuplesApartStillProduceAndConsumeWholeTuples() {
        FakeMr out = sigMr(attrs(NONE, DIF), dataSg(), new SgEntry[0], AccessFlags.LOCAL_WRITE);
        // 517 and 1035 fall inside the tuples of intervals 0 and 1
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, 517, out.lkey()),
                new Sge(517, 518, out.lkey()), new Sge(1035, BLOCKS * WIRE_BLOCK - 1035, out.lkey()))));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);

        ByteBuffer d2 = ByteBuffer.allocate(BLOCKS * INTERVAL);
        ByteBuffer m2 = ByteBuffer.allocate(BLOCKS * 8);
        long d2dma = na.ctx.dma.map(d2);
        long m2dma = na.ctx.dma.map(m2);
        FakeMr in = sigMr(attrs(DIF, DIF), new SgEntry[] {new SgEntry(d2dma, BLOCKS * INTERVAL)},
                new SgEntry[] {new SgEntry(m2dma, 40), new SgEntry(m2dma + 40, 24)}, AccessFlags.LOCAL_WRITE);
        assertSuccess(run(p.a, read(2, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, 515, in.lkey()),
                new Sge(515, 1037 - 515, in.lkey()), new Sge(1037, BLOCKS * WIRE_BLOCK - 1037, in.lkey()))));
        RcOpsTest.assertRange(data, 0, d2, 0, BLOCKS * INTERVAL);
        RcOpsTest.assertRange(meta, 0, m2, 0, BLOCKS * 8);
        assertClean(in);
        assertClean(out);
    }

    @Test
    void readIntoDixMemoryChecksWireTuples() {
        ByteBuffer d2 = ByteBuffer.allocate(BLOCKS * INTERVAL);
        ByteBuffer m2 = ByteBuffer.allocate(BLOCKS * 8);
        FakeMr mr = sigMr(attrs(DIF, DIF), new SgEntry[] {new SgEntry(na.ctx.dma.map(d2), BLOCKS * INTERVAL)},
                new SgEntry[] {new SgEntry(na.ctx.dma.map(m2), BLOCKS * 8)}, AccessFlags.LOCAL_WRITE);
        remote.put(0, image, 0, image.capacity());
        Sge all = new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey());
        assertSuccess(run(p.a, read(1, REMOTE_IOVA, remoteMr.rkey(), all)));
        RcOpsTest.assertRange(data, 0, d2, 0, BLOCKS * INTERVAL);
        RcOpsTest.assertRange(meta, 0, m2, 0, BLOCKS * 8);
        assertClean(mr);

        // a wrong reference tag in interval 5 (expected REF + 5)
        Dif.putTuple(remote, 5 * WIRE_BLOCK + INTERVAL, Dif.crc(data, 5 * INTERVAL, INTERVAL), APP, 0x7777);
        assertSuccess(run(p.a, read(2, REMOTE_IOVA, remoteMr.rkey(), all)));
        assertSigErr(mr, SigErrType.BAD_REFTAG, 5L * WIRE_BLOCK, REF + 5, 0x7777);
        assertEquals(0x7777, m2.getInt(5 * 8 + 4), "the tuple is stored as it came (copied field)");

        // a wrong application tag in interval 2
        remote.put(0, image, 0, image.capacity());
        Dif.putTuple(remote, 2 * WIRE_BLOCK + INTERVAL, Dif.crc(data, 2 * INTERVAL, INTERVAL), 0x0bad, REF + 2);
        assertSuccess(run(p.a, read(3, REMOTE_IOVA, remoteMr.rkey(), all)));
        assertSigErr(mr, SigErrType.BAD_APPTAG, 2L * WIRE_BLOCK, APP, 0x0bad);

        // only the first error is kept until it is checked
        remote.put(0, image, 0, image.capacity());
        remote.put(1 * WIRE_BLOCK + 7, (byte) ~remote.get(1 * WIRE_BLOCK + 7));
        remote.put(6 * WIRE_BLOCK + 7, (byte) ~remote.get(6 * WIRE_BLOCK + 7));
        assertSuccess(run(p.a, read(4, REMOTE_IOVA, remoteMr.rkey(), all)));
        assertSigErr(mr, SigErrType.BAD_GUARD, 1L * WIRE_BLOCK, Dif.crc(remote, WIRE_BLOCK, INTERVAL),
                Dif.crc(data, INTERVAL, INTERVAL));
    }

    @Test
    void stripToTheWireChecksMemoryTuples() {
        FakeMr mr = sigMr(attrs(DIF, NONE), dataSg(), metaSg(), AccessFlags.LOCAL_WRITE);
        assertEquals(BLOCKS * INTERVAL, mr.sigAttrs().wireLength(mr.length()));
        Dif.putTuple(meta, 7 * 8, Dif.crc(data, 7 * INTERVAL, INTERVAL), 0x0042, REF + 7);
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * INTERVAL, mr.lkey()))));
        RcOpsTest.assertRange(data, 0, remote, 0, BLOCKS * INTERVAL);
        assertSigErr(mr, SigErrType.BAD_APPTAG, 7L * INTERVAL, APP, 0x0042);
    }

    @Test
    void interleavedMemoryWithoutMetadataListIsStripped() {
        ByteBuffer inter = image.duplicate();
        FakeMr mr = sigMr(attrs(DIF, NONE), new SgEntry[] {new SgEntry(na.ctx.dma.map(inter), BLOCKS * WIRE_BLOCK)},
                new SgEntry[0], AccessFlags.LOCAL_WRITE);
        assertEquals(BLOCKS * INTERVAL, mr.sigAttrs().wireLength(mr.length()));
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * INTERVAL, mr.lkey()))));
        RcOpsTest.assertRange(data, 0, remote, 0, BLOCKS * INTERVAL);
        assertClean(mr);
    }

    @Test
    void dixChecksumGuardsBecomeCrcGuardsOnTheWire() {
        SigAttrs a = attrs(DIF, DIF);
        a.mem.dif.bgType = T10DifBgType.CSUM;
        for (int i = 0; i < BLOCKS; i++) {
            Dif.putTuple(meta, 8 * i, Dif.csum(data, i * INTERVAL, INTERVAL), APP, REF + i);
        }
        FakeMr mr = sigMr(a, dataSg(), metaSg(), AccessFlags.LOCAL_WRITE);
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey()))));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);
        assertClean(mr);
        // and back: CRC on the wire checked, checksum stored in memory
        meta.put(0, new byte[BLOCKS * 8]);
        assertSuccess(run(p.a, read(2, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey()))));
        for (int i = 0; i < BLOCKS; i++) {
            assertEquals(Dif.csum(data, i * INTERVAL, INTERVAL), Dif.guardAt(meta, 8 * i), "interval " + i);
        }
        assertClean(mr);
    }

    @Test
    void escapedIntervalsAreNotChecked() {
        SigAttrs a = attrs(DIF, DIF);
        a.wire.dif.appEscape = true;
        FakeMr mr = sigMr(a, dataSg(), metaSg(), AccessFlags.LOCAL_WRITE);
        remote.put(0, image, 0, image.capacity());
        Dif.putTuple(remote, 2 * WIRE_BLOCK + INTERVAL, 0xdead, 0xffff, 0);
        Sge all = new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey());
        assertSuccess(run(p.a, read(1, REMOTE_IOVA, remoteMr.rkey(), all)));
        assertClean(mr);
        // a check mask without the guard bytes ignores a bad guard too
        Dif.putTuple(remote, 2 * WIRE_BLOCK + INTERVAL, 0xdead, APP, REF + 2);
        assertSuccess(run(p.a, read(2, REMOTE_IOVA, remoteMr.rkey(), all)));
        assertSigErr(mr, SigErrType.BAD_GUARD, 2L * WIRE_BLOCK, Dif.crc(data, 2 * INTERVAL, INTERVAL), 0xdead);
    }

    // ================================================================== the region as remote key

    @Test
    void remoteWriteIntoTheRegionStoresDixAndChecks() {
        ByteBuffer d2 = ByteBuffer.allocate(BLOCKS * INTERVAL);
        ByteBuffer m2 = ByteBuffer.allocate(BLOCKS * 8);
        FakeMr mr = sigMr(attrs(DIF, DIF), new SgEntry[] {new SgEntry(na.ctx.dma.map(d2), BLOCKS * INTERVAL)},
                new SgEntry[] {new SgEntry(na.ctx.dma.map(m2), BLOCKS * 8)}, ALL);
        remote.put(0, image, 0, image.capacity());
        Sge src = new Sge(REMOTE_IOVA, BLOCKS * WIRE_BLOCK, remoteMr.lkey());
        assertSuccess(run(p.b, write(1, 0, mr.rkey(), src)));
        RcOpsTest.assertRange(data, 0, d2, 0, BLOCKS * INTERVAL);
        RcOpsTest.assertRange(meta, 0, m2, 0, BLOCKS * 8);
        assertClean(mr);

        Dif.putTuple(remote, 6 * WIRE_BLOCK + INTERVAL, 0x1234, APP, REF + 6);
        assertSuccess(run(p.b, write(2, 0, mr.rkey(), src)));
        assertSigErr(mr, SigErrType.BAD_GUARD, 6L * WIRE_BLOCK, Dif.crc(data, 6 * INTERVAL, INTERVAL), 0x1234);
    }

    @Test
    void remoteReadFromTheRegionGetsTuplesAndTheSourceIsChecked() {
        FakeMr mr = sigMr(attrs(DIF, DIF), dataSg(), metaSg(), ALL);
        Sge dst = new Sge(REMOTE_IOVA, BLOCKS * WIRE_BLOCK, remoteMr.lkey());
        assertSuccess(run(p.b, read(1, 0, mr.rkey(), dst)));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);
        assertClean(mr);

        Dif.putTuple(meta, 4 * 8, Dif.crc(data, 4 * INTERVAL, INTERVAL), APP, 0x99);
        assertSuccess(run(p.b, read(2, 0, mr.rkey(), dst)));
        assertSigErr(mr, SigErrType.BAD_REFTAG, 4L * WIRE_BLOCK, REF + 4, 0x99);
    }

    @Test
    void remoteWriteIntoMemoryWithoutProtectionStripsAndChecks() {
        ByteBuffer d2 = ByteBuffer.allocate(BLOCKS * INTERVAL);
        FakeMr mr = sigMr(attrs(NONE, DIF), new SgEntry[] {new SgEntry(na.ctx.dma.map(d2), BLOCKS * INTERVAL)},
                new SgEntry[0], ALL);
        remote.put(0, image, 0, image.capacity());
        remote.put(WIRE_BLOCK + INTERVAL + 7, (byte) 0x55);
        assertSuccess(run(p.b, write(1, 0, mr.rkey(), new Sge(REMOTE_IOVA, BLOCKS * WIRE_BLOCK, remoteMr.lkey()))));
        RcOpsTest.assertRange(data, 0, d2, 0, BLOCKS * INTERVAL);
        assertSigErr(mr, SigErrType.BAD_REFTAG, WIRE_BLOCK, REF + 1, (REF + 1) & 0xffffff00 | 0x55);
    }

    @Test
    void atomicsCannotTargetASignatureRegion() {
        FakeMr mr = sigMr(attrs(DIF, DIF), dataSg(), metaSg(), ALL | AccessFlags.REMOTE_ATOMIC);
        SendWr w = Rig.send(WrOpcode.ATOMIC_FETCH_AND_ADD, 1, new Sge(REMOTE_IOVA, 8, remoteMr.lkey()));
        w.remoteAddr = 0;
        w.rkey = mr.rkey();
        w.compareAdd = 1;
        List<Wc> wcs = run(p.b, w);
        assertEquals(WcStatus.REM_ACCESS_ERR, wcs.get(0).status);
    }

    // ================================================================== lifecycle and errors

    @Test
    void reRegistrationNeedsALocalInvalidateFirst() {
        FakeMr mr = sigMr(attrs(DIF, DIF), dataSg(), metaSg(), AccessFlags.LOCAL_WRITE);
        // mapping while the registration is valid is allowed (rdma_rw does it before its LOCAL_INV)
        assertEquals(0, mr.mapMrSgPi(dataSg(), 2, null, metaSg(), 1, null, 4096));
        assertSuccess(run(p.a, inv(mr)));
        mr.sigAttrs().copyFrom(attrs(NONE, DIF));
        assertEquals(0, mr.mapMrSgPi(dataSg(), 2, null, new SgEntry[0], 0, null, 4096));
        register(mr, AccessFlags.LOCAL_WRITE);
        assertSuccess(run(p.a, write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey()))));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);
        // the old key is gone after the invalidation; a second registration without one fails
        assertSuccess(run(p.a, inv(mr)));
        register(mr, AccessFlags.LOCAL_WRITE);
        mr.updateFastRegKey(mr.lkey() + 1);
        SendWr again = new SendWr();
        again.opcode = WrOpcode.REG_MR_INTEGRITY;
        again.mr = mr;
        again.key = mr.lkey();
        assertEquals(WcStatus.LOC_QP_OP_ERR, run(p.a, again).get(0).status);
    }

    @Test
    void aPlainRegistrationCannotRegisterASignatureRegion() {
        FakeMr mr = na.allocMrIntegrity(o.pdA, 8, 8);
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR;
        reg.mr = mr;
        reg.key = mr.lkey();
        assertEquals(WcStatus.LOC_QP_OP_ERR, run(p.a, reg).get(0).status);
    }

    SendWr inv(FakeMr mr) {
        SendWr inv = new SendWr();
        inv.opcode = WrOpcode.LOCAL_INV;
        inv.invalidateRkey = mr.rkey();
        return inv;
    }

    @Test
    void postingRefusesWhatTheDeviceCannotApply() {
        FakeMr mr = na.allocMrIntegrity(o.pdA, 8, 8);
        mr.sigAttrs().copyFrom(attrs(DIF, DIF));
        assertEquals(0, mr.mapMrSgPi(dataSg(), 2, null, metaSg(), 1, null, 4096));
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR_INTEGRITY;
        reg.mr = mr;
        reg.key = mr.lkey();
        // a QP created without IB_QP_CREATE_INTEGRITY_EN
        assertEquals(-Errno.EINVAL.value, p.b.p.postSend(regOnB(), null));
        // an interval the device has no block size for
        mr.sigAttrs().wire.dif.piInterval = 520;
        assertEquals(-Errno.EINVAL.value, p.a.p.postSend(reg, null));
        // different intervals in the two domains
        mr.sigAttrs().wire.dif.piInterval = 4096;
        assertEquals(-Errno.EINVAL.value, p.a.p.postSend(reg, null));
        // an SGE on a registration
        mr.sigAttrs().wire.dif.piInterval = INTERVAL;
        reg.sg(new Sge(0, 1, 0));
        assertEquals(-Errno.EINVAL.value, p.a.p.postSend(reg, null));
        reg.sg();
        assertSuccess(run(p.a, reg));
    }

    private SendWr regOnB() {
        FakeMr mr = nb.allocMrIntegrity(o.pdB, 1, 1);
        mr.sigAttrs().copyFrom(attrs(NONE, DIF));
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR_INTEGRITY;
        reg.mr = mr;
        reg.key = mr.lkey();
        return reg;
    }

    @Test
    void dataThatIsNotWholeIntervalsFailsTheRegistration() {
        FakeMr mr = na.allocMrIntegrity(o.pdA, 8, 8);
        mr.sigAttrs().copyFrom(attrs(DIF, DIF));
        assertEquals(0, mr.mapMrSgPi(new SgEntry[] {new SgEntry(dataDma, 1000)}, 1, null, metaSg(), 1, null, 4096));
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR_INTEGRITY;
        reg.mr = mr;
        reg.key = mr.lkey();
        assertEquals(WcStatus.LOC_QP_OP_ERR, run(p.a, reg).get(0).status);
        assertEquals(QpState.ERR, p.a.p.state());
    }

    @Test
    void tooLittleMetadataForTheDataFailsTheRegistration() {
        FakeMr mr = na.allocMrIntegrity(o.pdA, 8, 8);
        mr.sigAttrs().copyFrom(attrs(DIF, DIF));
        assertEquals(0, mr.mapMrSgPi(dataSg(), 2, null, new SgEntry[] {new SgEntry(metaDma, 8)}, 1, null, 4096));
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR_INTEGRITY;
        reg.mr = mr;
        reg.key = mr.lkey();
        assertEquals(WcStatus.LOC_QP_OP_ERR, run(p.a, reg).get(0).status);
    }

    @Test
    void allocationMappingAndStatusChecksValidateTheirArguments() {
        RdmaException e = assertThrows(RdmaException.class, () -> na.allocMrIntegrity(o.pdA, 8, 0));
        assertEquals(Errno.EINVAL, e.errno());
        e = assertThrows(RdmaException.class, () -> na.allocMrIntegrity(o.pdA, 257, 1));
        assertEquals(Errno.EINVAL, e.errno());
        FakeMr mr = na.allocMrIntegrity(o.pdA, 1, 1);
        assertEquals(-Errno.ENOMEM.value, mr.mapMrSgPi(dataSg(), 2, null, metaSg(), 1, null, 4096));
        assertEquals(-Errno.EINVAL.value, mr.mapMrSgPi(dataSg(), 0, null, metaSg(), 1, null, 4096));
        assertEquals(-Errno.EINVAL.value, mr.mapMrSg(dataSg(), 1, null, 4096));
        MrStatus st = new MrStatus();
        assertEquals(-Errno.EINVAL.value, mr.checkMrStatus(2, st));
        FakeMr plain = na.allocMr(o.pdA, MrType.MEM_REG, 4);
        assertEquals(-Errno.EOPNOTSUPP.value, plain.mapMrSgPi(dataSg(), 2, null, metaSg(), 1, null, 4096));
        assertEquals(-Errno.EINVAL.value, plain.checkMrStatus(MrStatus.CHECK_SIG_STATUS, st));

        Rig other = new Rig();
        other.attr.kernelCapFlags &= ~DeviceCapFlags.IBK_INTEGRITY_HANDOVER;
        Node n = other.node(3);
        Node.Pd pd = n.allocPd();
        e = assertThrows(RdmaException.class, () -> n.allocMrIntegrity(pd, 1, 1));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        n.createFlags = QpInitAttr.CREATE_INTEGRITY_EN;
        e = assertThrows(RdmaException.class, () -> n.createQp(pd, org.rdma.verbs.QpType.RC, n.createCq(4),
                n.createCq(4), null, 4, 1, 0));
        assertEquals(Errno.EINVAL, e.errno());
    }

    // ================================================================== datapath cost

    @Test
    void protectedWritesAllocateNothingOnceWarm() {
        FakeMr mr = sigMr(attrs(DIF, DIF), dataSg(), metaSg(), AccessFlags.LOCAL_WRITE);
        SendWr w = write(1, REMOTE_IOVA, remoteMr.rkey(), new Sge(0, BLOCKS * WIRE_BLOCK, mr.lkey()));
        FakeMr plainMr = na.regMr(o.pdA, image.duplicate(), 0x10_0000, AccessFlags.LOCAL_WRITE);
        SendWr plain = write(2, REMOTE_IOVA, remoteMr.rkey(), new Sge(0x10_0000, BLOCKS * WIRE_BLOCK, plainMr.lkey()));
        Wc[] wcs = Wc.array(16);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        writes(w, wcs, 3000);
        writes(plain, wcs, 3000);
        long before = mx.getThreadAllocatedBytes(tid);
        long t0 = System.nanoTime();
        writes(w, wcs, 2000);
        long t1 = System.nanoTime();
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        writes(plain, wcs, 2000);
        long t2 = System.nanoTime();
        System.out.printf("integrity: 2000 RC WRITEs of %d bytes through a DIX->DIF signature MR: %d bytes allocated,"
                + " %.1f us/op vs %.1f us/op from a plain MR (x%.1f)%n", BLOCKS * WIRE_BLOCK, allocated,
                (t1 - t0) / 2000 / 1e3, (t2 - t1) / 2000 / 1e3, (double) (t1 - t0) / (t2 - t1));
        RcOpsTest.assertRange(image, 0, remote, 0, BLOCKS * WIRE_BLOCK);
        assertClean(mr);
        assertTrue(allocated < 1024, "bytes allocated on the posting thread: " + allocated);
    }

    private void writes(SendWr w, Wc[] wcs, int count) {
        int done = 0;
        for (int i = 0; i < count; i++) {
            if (p.a.p.postSend(w, null) != 0) {
                throw new AssertionError("post failed at " + i);
            }
            int n = p.a.scq.p.pollCq(16, wcs);
            for (int k = 0; k < n; k++) {
                if (wcs[k].status != WcStatus.SUCCESS) {
                    throw new AssertionError("completion failed: " + wcs[k]);
                }
            }
            done += n;
        }
        assertEquals(count, done);
    }
}
