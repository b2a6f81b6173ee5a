package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.QpState;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** Every protection failure gives the kernel's status and moves no byte. */
class ProtectionTest {
    static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE
            | AccessFlags.REMOTE_ATOMIC | AccessFlags.MW_BIND;
    static final long IA = 0x10000;
    static final long IB = 0x900000;

    Rig rig;
    Rig.Pair p;
    Rig.Opts o;
    ByteBuffer a;
    ByteBuffer b;
    ByteBuffer bSnap;
    ByteBuffer aSnap;
    FakeMr mrA;

    void setUp(int pkeyA, int pkeyB) {
        rig = new Rig();
        Node na = rig.node(1);
        Node nb = rig.node(2);
        o = new Rig.Opts();
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        o.pkeyIndexA = pkeyA;
        o.pkeyIndexB = pkeyB;
        o.retry = 2;
        p = rig.connect(na, nb, o);
        a = Rig.pattern(ByteBuffer.allocate(1 << 16), 5);
        b = Rig.pattern(ByteBuffer.allocate(1 << 16), 6);
        mrA = na.regMr(o.pdA, a, IA, ALL);
        snapshot();
    }

    void snapshot() {
        aSnap = ByteBuffer.allocate(a.capacity()).put(0, a, 0, a.capacity());
        bSnap = ByteBuffer.allocate(b.capacity()).put(0, b, 0, b.capacity());
    }

    void assertUntouched() {
        assertEquals(0, b.compareTo(bSnap), "remote memory changed");
        assertEquals(0, a.compareTo(aSnap), "local memory changed");
    }

    Wc runOne(SendWr w) {
        assertEquals(0, p.a.p.postSend(w, null));
        rig.settle();
        List<Wc> l = Rig.drain(p.a.scq);
        assertEquals(1, l.size(), () -> l.toString());
        return l.get(0);
    }

    SendWr op(WrOpcode code, int len, long remote, int rkey) {
        SendWr w = Rig.send(code, 1, new Sge(IA + 64, len, mrA.lkey()));
        w.remoteAddr = remote;
        w.rkey = rkey;
        w.compareAdd = 1;
        return w;
    }

    void expectRemote(WrOpcode code, int len, long remote, int rkey, WcStatus status) {
        Wc c = runOne(op(code, len, remote, rkey));
        assertEquals(status, c.status);
        assertEquals(QpState.ERR, p.a.p.state());
        assertUntouched();
    }

    @Test
    void wrongPd() {
        setUp(0, 0);
        FakeMr other = p.nb.regMr(p.nb.allocPd(), b, IB, ALL);
        expectRemote(WrOpcode.RDMA_WRITE, 100, IB, other.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void missingRemoteWrite() {
        setUp(0, 0);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL & ~AccessFlags.REMOTE_WRITE);
        expectRemote(WrOpcode.RDMA_WRITE, 100, IB, mr.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void missingRemoteRead() {
        setUp(0, 0);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL & ~AccessFlags.REMOTE_READ);
        expectRemote(WrOpcode.RDMA_READ, 100, IB, mr.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void missingRemoteAtomic() {
        setUp(0, 0);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL & ~AccessFlags.REMOTE_ATOMIC);
        expectRemote(WrOpcode.ATOMIC_FETCH_AND_ADD, 8, IB + 8, mr.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void outOfBoundsAndMisalignedAtomic() {
        setUp(0, 0);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL);
        expectRemote(WrOpcode.RDMA_WRITE, 100, IB + b.capacity() - 99, mr.rkey(), WcStatus.REM_ACCESS_ERR);
        setUp(0, 0);
        mr = p.nb.regMr(o.pdB, b, IB, ALL);
        expectRemote(WrOpcode.ATOMIC_CMP_AND_SWP, 8, IB + 4, mr.rkey(), WcStatus.REM_INV_REQ_ERR);
    }

    @Test
    void missingLocalWriteOnTheReceiveBuffer() {
        setUp(0, 0);
        FakeMr ro = p.nb.regMr(o.pdB, b, IB, AccessFlags.REMOTE_READ & 0);
        p.b.p.postRecv(Rig.recv(9, new Sge(IB, 1000, ro.lkey())), null);
        Wc c = runOne(Rig.send(WrOpcode.SEND, 1, new Sge(IA, 500, mrA.lkey())));
        assertEquals(WcStatus.REM_OP_ERR, c.status);
        Wc r = Rig.drain(p.b.rcq).get(0);
        assertEquals(WcStatus.LOC_PROT_ERR, r.status);
        assertEquals(QpState.ERR, p.b.p.state());
        assertUntouched();
    }

    @Test
    void localProtectionErrorsSendNothing() {
        setUp(0, 0);
        FakeMr ro = p.na.regMr(o.pdA, a, IA, AccessFlags.REMOTE_READ);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL);
        long sent = rig.wire.sent;
        SendWr w = op(WrOpcode.RDMA_READ, 100, IB, mr.rkey());
        w.sgList[0].lkey = ro.lkey();
        assertEquals(WcStatus.LOC_PROT_ERR, runOne(w).status);
        assertEquals(sent, rig.wire.sent);
        assertUntouched();
        setUp(0, 0);
        mr = p.nb.regMr(o.pdB, b, IB, ALL);
        sent = rig.wire.sent;
        w = op(WrOpcode.RDMA_WRITE, 100, IB, mr.rkey());
        w.sgList[0].lkey = mrA.lkey() + 1;
        assertEquals(WcStatus.LOC_PROT_ERR, runOne(w).status);
        assertEquals(sent, rig.wire.sent);
        assertUntouched();
    }

    @Test
    void pkeyMismatchIsDroppedUntilRetriesRunOut() {
        setUp(2, 1);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL);
        expectRemote(WrOpcode.RDMA_WRITE, 100, IB, mr.rkey(), WcStatus.RETRY_EXC_ERR);
        assertTrue(p.nb.dev.counter(RvtCounter.BAD_PKEY) >= 3);
    }

    /** B fast-registers {@code b} through a MEM_REG MR and returns it. */
    FakeMr fastReg(int key) {
        long dma = p.nb.ctx.dma.map(b);
        FakeMr mr = p.nb.allocMr(o.pdB, MrType.MEM_REG, 32);
        int n = mr.mapMrSg(new SgEntry[] {new SgEntry(dma, b.capacity())}, 1, null, 4096);
        assertEquals(1, n);
        mr.updateFastRegKey(key);
        registerOnB(mr);
        return mr;
    }

    void registerOnB(FakeMr mr) {
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR;
        reg.mr = mr;
        reg.key = mr.rkey();
        reg.access = ALL;
        reg.sendFlags = org.rdma.verbs.SendFlags.SIGNALED;
        assertEquals(0, p.b.p.postSend(reg, null));
        rig.settle();
        assertEquals(WcStatus.SUCCESS, Rig.drain(p.b.scq).get(0).status);
    }

    void localInvOnB(int rkey, WcStatus expect) {
        SendWr inv = new SendWr();
        inv.opcode = WrOpcode.LOCAL_INV;
        inv.invalidateRkey = rkey;
        inv.sendFlags = org.rdma.verbs.SendFlags.SIGNALED;
        p.b.p.postSend(inv, null);
        rig.settle();
        assertEquals(expect, Rig.drain(p.b.scq).get(0).status);
    }

    @Test
    void fastRegisteredRegionWorksThenInvalidatedRkeyFails() {
        setUp(0, 0);
        FakeMr mr = fastReg(0x11);
        Wc ok = runOne(op(WrOpcode.RDMA_WRITE, 300, mr.iova() + 1000, mr.rkey()));
        assertEquals(WcStatus.SUCCESS, ok.status);
        RcOpsTest.assertRange(a, 64, b, 1000, 300);
        localInvOnB(mr.rkey(), WcStatus.SUCCESS);
        snapshot();
        expectRemote(WrOpcode.RDMA_WRITE, 300, mr.iova(), mr.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void staleKeyByteAfterUpdateFastRegKey() {
        setUp(0, 0);
        FakeMr mr = fastReg(0x20);
        int old = mr.rkey();
        localInvOnB(old, WcStatus.SUCCESS);
        mr.updateFastRegKey(0x21);
        registerOnB(mr);
        assertEquals(WcStatus.SUCCESS, runOne(op(WrOpcode.RDMA_WRITE, 10, mr.iova(), mr.rkey())).status);
        snapshot();
        expectRemote(WrOpcode.RDMA_WRITE, 10, mr.iova() + 100, old, WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void sendWithInvalidateInvalidatesTheRegion() {
        setUp(0, 0);
        FakeMr mr = fastReg(0x33);
        FakeMr rb = p.nb.regMr(o.pdB, ByteBuffer.allocate(4096), 0x5000_0000L, ALL);
        p.b.p.postRecv(Rig.recv(4, new Sge(0x5000_0000L, 4096, rb.lkey())), null);
        SendWr w = Rig.send(WrOpcode.SEND_WITH_INV, 1, new Sge(IA, 20, mrA.lkey()));
        w.invalidateRkey = mr.rkey();
        assertEquals(WcStatus.SUCCESS, runOne(w).status);
        Wc r = Rig.drain(p.b.rcq).get(0);
        assertEquals(mr.rkey(), r.invalidateRkey);
        assertTrue((r.wcFlags & org.rdma.verbs.WcFlags.WITH_INVALIDATE) != 0);
        snapshot();
        expectRemote(WrOpcode.RDMA_WRITE, 10, mr.iova(), mr.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    Node.Mw bindOnB(MwType type, FakeMr mr, long addr, int len, int access, WcStatus expect) {
        Node.Mw mw = p.nb.allocMw(o.pdB, type);
        bind(mw, mr, addr, len, access, expect);
        return mw;
    }

    void bind(Node.Mw mw, FakeMr mr, long addr, int len, int access, WcStatus expect) {
        SendWr w = new SendWr();
        w.opcode = WrOpcode.BIND_MW;
        w.rkey = mw.p.rkey();
        w.key = org.rdma.verbs.IbMr.incRkey(mw.p.rkey());
        w.access = access;
        w.sendFlags = org.rdma.verbs.SendFlags.SIGNALED;
        w.sg(new Sge(addr, len, mr.lkey()));
        p.b.p.postSend(w, null);
        rig.settle();
        assertEquals(expect, Rig.drain(p.b.scq).get(0).status);
    }

    @Test
    void unboundWindowRefusesAccess() {
        setUp(0, 0);
        Node.Mw mw = p.nb.allocMw(o.pdB, MwType.TYPE_2);
        expectRemote(WrOpcode.RDMA_WRITE, 10, IB, mw.p.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void boundWindowsGrantExactlyTheirRangeAndRights() {
        setUp(0, 0);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL);
        Node.Mw mw2 = bindOnB(MwType.TYPE_2, mr, IB + 4096, 8192, AccessFlags.REMOTE_WRITE, WcStatus.SUCCESS);
        assertEquals(WcStatus.SUCCESS, runOne(op(WrOpcode.RDMA_WRITE, 100, IB + 5000, mw2.p.rkey())).status);
        RcOpsTest.assertRange(a, 64, b, 5000, 100);
        Node.Mw mw1 = bindOnB(MwType.TYPE_1, mr, IB, 1024, AccessFlags.REMOTE_READ, WcStatus.SUCCESS);
        assertEquals(WcStatus.SUCCESS, runOne(op(WrOpcode.RDMA_READ, 64, IB + 10, mw1.p.rkey())).status);
        RcOpsTest.assertRange(b, 10, a, 64, 64);
        snapshot();
        // outside the window, and a right the window lacks
        expectRemote(WrOpcode.RDMA_WRITE, 100, IB + 4096 + 8192 - 50, mw2.p.rkey(), WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void invalidatedType2WindowAndBadBinds() {
        setUp(0, 0);
        FakeMr mr = p.nb.regMr(o.pdB, b, IB, ALL);
        Node.Mw mw = bindOnB(MwType.TYPE_2, mr, IB, 4096, AccessFlags.REMOTE_WRITE, WcStatus.SUCCESS);
        localInvOnB(mw.p.rkey(), WcStatus.SUCCESS);
        snapshot();
        expectRemote(WrOpcode.RDMA_WRITE, 10, IB, mw.p.rkey(), WcStatus.REM_ACCESS_ERR);
        // binding to an MR without MW_BIND fails with MW_BIND_ERR
        setUp(0, 0);
        FakeMr nobind = p.nb.regMr(o.pdB, b, IB, ALL & ~AccessFlags.MW_BIND);
        bindOnB(MwType.TYPE_2, nobind, IB, 100, AccessFlags.REMOTE_WRITE, WcStatus.MW_BIND_ERR);
        assertEquals(QpState.ERR, p.b.p.state());
    }
}
