package org.rdma.bench;

import java.nio.ByteBuffer;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WrOpcode;

/**
 * perftest's {@code run_iter_bw()} for RDMA WRITE on one QP, one message per {@link #next()}:
 * keeps up to {@code depth} WRITEs posted, signals every {@code signalEvery}-th one (CQ
 * moderation) and polls the CQ when the queue is full. The same {@link SendWr}s are reused for every
 * post; nothing is allocated per message.
 */
final class Writer implements AutoCloseable {
    final HcaPair net;
    final RcConn conn;
    final int size;
    final int depth;
    final int signalEvery;
    final int postList;
    private final SendWr[] wrs;
    private final SendWr[] bad = new SendWr[1];
    private final Wc[] wc = Wc.array(16);
    private long posted;
    private long completed;

    /**
     * A writer on {@code net} (which it closes); as perftest's {@code --post_list}, each
     * {@link #next()} posts a chain of {@code postList} WRITEs.
     */
    Writer(HcaPair net, int size, int depth, int signalEvery, int postList) {
        if (depth % signalEvery != 0 || signalEvery % postList != 0) {
            net.close();
            throw new IllegalArgumentException("depth must be a multiple of the signalling interval, and that of the post list");
        }
        this.postList = postList;
        this.size = size;
        this.depth = depth;
        this.signalEvery = signalEvery;
        this.net = net;
        conn = new RcConn(net, depth, Math.max(size, 64));
        ByteBuffer src = conn.a.buf;
        for (int i = 0; i < src.capacity(); i++) {
            src.put(i, (byte) (i * 31 + 7));
        }
        wrs = new SendWr[postList];
        for (int i = postList - 1; i >= 0; i--) {
            SendWr wr = new SendWr();
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.sg(new Sge(conn.a.mr.iova(), size, conn.a.mr.lkey()));
            wr.remoteAddr = conn.b.mr.iova();
            wr.rkey = conn.b.mr.rkey();
            wr.next = i + 1 < postList ? wrs[i + 1] : null;
            wrs[i] = wr;
        }
    }

    /** Posts one WRITE (or one post list), first reaping completions while the send queue is full. */
    void next() {
        while (posted - completed > depth - postList) {
            completed += (long) RcConn.poll(conn.a, wc) * signalEvery;
        }
        for (SendWr wr : wrs) {
            posted++;
            wr.wrId = posted;
            wr.sendFlags = posted % signalEvery == 0 ? SendFlags.SIGNALED : 0;
        }
        int rc = conn.a.qp.postSend(wrs[0], bad);
        if (rc != 0) {
            throw new IllegalStateException("postSend " + rc + " after " + posted);
        }
    }

    /** Waits for every signalled WRITE posted so far. */
    void drain() {
        long want = posted - posted % signalEvery;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (completed < want) {
            completed += (long) RcConn.poll(conn.a, wc) * signalEvery;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion for 10 s: " + completed + " of " + want);
            }
        }
    }

    /** The destination holds what the source holds (the WRITEs really moved the bytes). */
    void verify() {
        for (int i = 0; i < size; i++) {
            if (conn.b.buf.get(i) != conn.a.buf.get(i)) {
                throw new IllegalStateException("destination differs at byte " + i);
            }
        }
    }

    @Override
    public void close() {
        conn.close();
        net.close();
    }
}
