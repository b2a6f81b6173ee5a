package org.rdma.rvt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.rdma.rvt.harness.Node;
import org.rdma.rvt.harness.Rig;
import org.rdma.rvt.testkit.FakeMr;
import org.rdma.verbs.AccessFlags;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;

/** The datapath allocates nothing per operation once warm. */
class ZeroAllocTest {
    @Test
    void tenThousandSmallWritesAllocateNothing() {
        Rig rig = new Rig();
        Node na = rig.node(1);
        Node nb = rig.node(2);
        Rig.Opts o = new Rig.Opts();
        o.pdA = na.allocPd();
        o.pdB = nb.allocPd();
        Rig.Pair p = rig.connect(na, nb, o);
        int acc = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        ByteBuffer a = Rig.pattern(ByteBuffer.allocateDirect(1 << 16), 1);
        ByteBuffer b = ByteBuffer.allocateDirect(1 << 16);
        FakeMr mrA = na.regMr(o.pdA, a, 0x1000, acc);
        FakeMr mrB = nb.regMr(o.pdB, b, 0x2000_0000, acc);
        SendWr w = new SendWr();
        Sge sge = new Sge();
        w.sg(sge);
        w.opcode = WrOpcode.RDMA_WRITE;
        w.rkey = mrB.rkey();
        w.sendFlags = SendFlags.SIGNALED;
        Wc[] wcs = Wc.array(16);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        run(p, w, sge, mrA, wcs, Integer.getInteger("rvt.warmup", 20_000));
        long before = mx.getThreadAllocatedBytes(tid);
        long t0 = System.nanoTime();
        int n = run(p, w, sge, mrA, wcs, 10_000);
        long t1 = System.nanoTime();
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertEquals(10_000, n);
        System.out.printf("zero-alloc: 10000 RC WRITEs of 8 bytes, %d bytes allocated, %.0f ns/op (%.2f Mops/s)%n",
                allocated, (t1 - t0) / 10_000.0, 10_000 * 1e3 / (t1 - t0));
        RcOpsTest.assertRange(a, 0, b, 0, 8 * 1024);
        // Any per-operation allocation would show as >= 16 bytes per op (160 KB here). A few dozen
        // bytes can appear once when the JIT deoptimizes and rematerializes scalar-replaced objects.
        assertTrue(allocated < 1024, "bytes allocated on the posting thread: " + allocated);
    }

    private static int run(Rig.Pair p, SendWr w, Sge sge, FakeMr mrA, Wc[] wcs, int count) {
        int done = 0;
        for (int i = 0; i < count; i++) {
            int slot = i & 1023;
            sge.set(0x1000 + slot * 8L, 8, mrA.lkey());
            w.wrId = i;
            w.remoteAddr = 0x2000_0000L + slot * 8L;
            if (p.a.p.postSend(w, null) != 0) {
                throw new AssertionError("post failed at " + i);
            }
            int n = p.a.scq.p.pollCq(16, wcs);
            for (int k = 0; k < n; k++) {
                if (wcs[k].status != WcStatus.SUCCESS) {
                    throw new AssertionError("completion " + wcs[k].wrId + " failed");
                }
            }
            done += n;
        }
        return done;
    }
}
