package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.DeviceCapFlags;
import org.rdma.verbs.MrType;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.SgEntry;
import org.rdma.verbs.Sge;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** DMA MRs, the device-wide local DMA lkey and SG_GAPS registration. */
class MemoryTest {
    static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;

    @Test
    void dmaMrAndGlobalLocalDmaLkeyTranslateThroughTheCoreDmaSpace() {
        Rig rig = new Rig();
        rig.attr.kernelCapFlags |= DeviceCapFlags.IBK_LOCAL_DMA_LKEY;
        Node na = rig.node(1);
        Node nb = rig.node(2);
        Rig.Opts o = new Rig.Opts();
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        Rig.Pair p = rig.connect(na, nb, o);
        ByteBuffer src = Rig.pattern(ByteBuffer.allocateDirect(10000), 3);
        ByteBuffer dst = ByteBuffer.allocate(10000);
        long sdma = na.ctx.dma.map(src);
        long ddma = nb.ctx.dma.map(dst);
        FakeMr dmaB = nb.dmaMr(o.pdB, ALL);
        int globalLkey = 0; // DeviceInfo.localDmaLkey of the test nodes
        p.b.p.postRecv(Rig.recv(1, new Sge(ddma + 100, 5000, dmaB.lkey())), null);
        p.a.p.postSend(Rig.send(WrOpcode.SEND, 1, new Sge(sdma + 10, 4000, globalLkey)), null);
        rig.settle();
        assertEquals(WcStatus.SUCCESS, Rig.drain(p.a.scq).get(0).status);
        assertEquals(4000, Rig.drain(p.b.rcq).get(0).byteLen);
        RcOpsTest.assertRange(src, 10, dst, 100, 4000);
        // an address outside every mapping is a local protection error
        p.a.p.postSend(Rig.send(WrOpcode.SEND, 2, new Sge(0x5, 10, globalLkey)), null);
        rig.settle();
        assertEquals(WcStatus.LOC_PROT_ERR, Rig.drain(p.a.scq).get(0).status);
    }

    @Test
    void sgGapsRegionSpansDiscontiguousPieces() {
        Rig rig = new Rig();
        Node na = rig.node(1);
        Node nb = rig.node(2);
        Rig.Opts o = new Rig.Opts();
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        Rig.Pair p = rig.connect(na, nb, o);
        ByteBuffer src = Rig.pattern(ByteBuffer.allocate(8000), 4);
        FakeMr mrA = na.regMr(o.pdA, src, 0x1000, ALL);
        ByteBuffer x = ByteBuffer.allocate(3000);
        ByteBuffer y = ByteBuffer.allocate(5000);
        long dx = nb.ctx.dma.map(x);
        long dy = nb.ctx.dma.map(y);
        FakeMr gaps = nb.allocMr(o.pdB, MrType.SG_GAPS, 8);
        assertEquals(2, gaps.mapMrSg(new SgEntry[] {new SgEntry(dx + 1000, 1777), new SgEntry(dy + 3, 4000)}, 2, null, 4096));
        assertEquals(5777, gaps.length());
        gaps.updateFastRegKey(7);
        SendWr reg = new SendWr();
        reg.opcode = WrOpcode.REG_MR;
        reg.mr = gaps;
        reg.key = gaps.rkey();
        reg.access = ALL;
        p.b.p.postSend(reg, null);
        SendWr w = Rig.send(WrOpcode.RDMA_WRITE, 1, new Sge(0x1000, 5777, mrA.lkey()));
        w.remoteAddr = gaps.iova();
        w.rkey = gaps.rkey();
        p.a.p.postSend(w, null);
        rig.settle();
        assertEquals(WcStatus.SUCCESS, Rig.drain(p.a.scq).get(0).status);
        RcOpsTest.assertRange(src, 0, x, 1000, 1777);
        RcOpsTest.assertRange(src, 1777, y, 3, 4000);
    }
}
