package org.rdma.hca.mlx4sim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.rdma.verbs.SendFlags;
import org.rdma.verbs.SendWr;
import org.rdma.verbs.Sge;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;
import org.rdma.verbs.WcOpcode;
import org.rdma.verbs.WcStatus;
import org.rdma.verbs.WrOpcode;
import org.rdma.verbs.time.VirtualClock;

/**
 * A seeded mix of every RC operation (SEND and SEND with immediate, RDMA WRITE and WRITE with
 * immediate, RDMA READ, fetch-add, compare-swap; 0 bytes to eight packets) posted over several
 * {@link RcConn}s at once, each completion checked as it is polled: exactly once, in post order
 * per QP, successful, with its data; each receive likewise, in order. Time moves only when nothing
 * else can: the clock jumps to the next timer (retransmit, reorder hold, delayed packet).
 */
final class MixedRcLoad {
    /** Requests in flight per QP (its send queue holds 128). */
    static final int WINDOW = 48;
    /** Virtual time without a single completion after which the run fails as hung. */
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** One posted work request and what its completion must show. */
    private static final class Op {
        long id;
        WrOpcode opcode;
        int src;
        int len;
        int slot;
        int imm;
        /** Atomics: the original value the responder must return, and the value it leaves. */
        long original;
        long after;
    }

    /** What one connection has in flight, in post order, and the atomic words as they will be. */
    private static final class Flow {
        final RcConn c;
        final ArrayDeque<Op> sent = new ArrayDeque<>();
        final ArrayDeque<Op> toReceive = new ArrayDeque<>();
        /** Work requests posted: the slot of the next is this modulo {@link RcConn#SLOTS}. */
        long posted;
        long recvConsumed;
        long faa;
        long cas;

        Flow(RcConn c) {
            this.c = c;
        }
    }

    /**
     * Result of a run.
     *
     * @param received receive completions (SENDs and WRITEs with immediate)
     * @param posted   work requests per opcode
     */
    record Stats(int completed, int received, Map<WrOpcode, Integer> posted, long virtualNanos, long wallMillis) {
    }

    private final VirtualClock clock;
    private final List<Flow> flows = new ArrayList<>();
    private final Random rnd;
    private final SendWr w = new SendWr();
    private final Sge sge = new Sge();
    private final Wc[] wcs = Wc.array(64);
    private final Map<WrOpcode, Integer> posted = new EnumMap<>(WrOpcode.class);
    private long nextId;
    private int completed;
    private int received;
    /** Receives that the SENDs and WRITEs with immediate posted so far consume. */
    private int receives;

    MixedRcLoad(VirtualClock clock, List<RcConn> conns, long seed) {
        this.clock = clock;
        this.rnd = new Random(seed);
        for (RcConn c : conns) {
            flows.add(new Flow(c));
        }
        w.sg(sge);
    }

    /** Posts {@code total} operations spread over the connections and checks all of it. */
    Stats run(int total) {
        for (Flow f : flows) {
            for (int i = 0; i < RcConn.RECVS_POSTED; i++) {
                f.c.postRecv();
            }
        }
        long start = System.nanoTime();
        long vstart = clock.nanoTime();
        long lastProgress = vstart;
        while (completed < total || received < receives) {
            for (Flow f : flows) {
                while (f.sent.size() < WINDOW && nextId < total) {
                    post(f);
                }
            }
            int progress = 0;
            for (Flow f : flows) {
                progress += pollSends(f) + pollReceives(f);
            }
            if (progress > 0) {
                lastProgress = clock.nanoTime();
                continue;
            }
            long next = clock.nextDeadline();
            if (next < 0 || next - lastProgress > STALL_NANOS) {
                fail((next < 0 ? "stuck with no timer pending" : "no completion for " + STALL_NANOS / 1_000_000_000
                        + " s of virtual time") + " after " + completed + " of " + total + " completions; in flight: "
                        + inFlight());
            }
            clock.advanceTo(next);
        }
        settle();
        for (Flow f : flows) {
            List<Wc> late = new ArrayList<>(f.c.req.scq().drain());
            late.addAll(f.c.resp.rcq().drain());
            assertEquals(List.of(), late, f.c.name + ": no completion after the last one (nothing duplicated)");
            assertEquals(0, f.toReceive.size(), f.c.name + ": every SEND received exactly once");
            f.c.assertModel();
        }
        return new Stats(completed, received, posted, clock.nanoTime() - vstart, (System.nanoTime() - start) / 1_000_000);
    }

    private String inFlight() {
        StringBuilder b = new StringBuilder();
        for (Flow f : flows) {
            b.append(f.c.name).append(' ').append(f.sent.size()).append(" sends, ").append(f.toReceive.size())
                    .append(" receives; ");
        }
        return b.toString();
    }

    /** Lets 100 ms of virtual time pass: late retransmissions, ACKs and held packets. */
    private void settle() {
        for (int i = 0; i < 100; i++) {
            clock.advance(1, TimeUnit.MILLISECONDS);
        }
    }

    // ================================================================== posting

    private void post(Flow f) {
        RcConn c = f.c;
        Op op = new Op();
        op.id = nextId++;
        op.slot = (int) (f.posted++ % RcConn.SLOTS);
        op.src = rnd.nextInt(RcConn.READ_DST - RcConn.MAX_LEN);
        op.len = length();
        op.imm = rnd.nextInt();
        int kind = rnd.nextInt(100);
        op.opcode = kind < 20 ? WrOpcode.SEND : kind < 30 ? WrOpcode.SEND_WITH_IMM : kind < 50 ? WrOpcode.RDMA_WRITE
                : kind < 60 ? WrOpcode.RDMA_WRITE_WITH_IMM : kind < 80 ? WrOpcode.RDMA_READ
                : kind < 90 ? WrOpcode.ATOMIC_FETCH_AND_ADD : WrOpcode.ATOMIC_CMP_AND_SWP;
        w.wrId = op.id;
        w.opcode = op.opcode;
        w.sendFlags = SendFlags.SIGNALED;
        w.immData = op.imm;
        w.rkey = c.respMr.rkey();
        switch (op.opcode) {
            case SEND:
            case SEND_WITH_IMM:
                sge.set(RcConn.IOVA_REQ + RcConn.SRC + op.src, op.len, c.reqMr.lkey());
                f.toReceive.add(op);
                receives++;
                break;
            case RDMA_WRITE_WITH_IMM:
                f.toReceive.add(op);
                receives++;
                // fall through
            case RDMA_WRITE:
                sge.set(RcConn.IOVA_REQ + RcConn.SRC + op.src, op.len, c.reqMr.lkey());
                w.remoteAddr = RcConn.IOVA_RESP + writeDst(op);
                break;
            case RDMA_READ:
                sge.set(RcConn.IOVA_REQ + readDst(op), op.len, c.reqMr.lkey());
                w.remoteAddr = RcConn.IOVA_RESP + RcConn.READ_SRC + op.src;
                break;
            case ATOMIC_FETCH_AND_ADD:
                op.len = 8;
                sge.set(RcConn.IOVA_REQ + atomicDst(op), 8, c.reqMr.lkey());
                w.remoteAddr = RcConn.IOVA_RESP + RcConn.COUNTER_FAA;
                w.compareAdd = rnd.nextLong();
                op.original = f.faa;
                op.after = f.faa += w.compareAdd;
                break;
            default: // ATOMIC_CMP_AND_SWP: a quarter of them compare against a value the word does not hold
                op.len = 8;
                sge.set(RcConn.IOVA_REQ + atomicDst(op), 8, c.reqMr.lkey());
                w.remoteAddr = RcConn.IOVA_RESP + RcConn.COUNTER_CAS;
                w.compareAdd = rnd.nextInt(4) == 0 ? f.cas + 1 + rnd.nextInt(1000) : f.cas;
                w.swap = rnd.nextLong();
                op.original = f.cas;
                op.after = f.cas = f.cas == w.compareAdd ? w.swap : f.cas;
                break;
        }
        assertEquals(0, c.req.p().postSend(w, null), c.name + ": post " + op.id + " " + op.opcode);
        f.sent.add(op);
        posted.merge(op.opcode, 1, Integer::sum);
    }

    /** Half of the messages fit a packet, a quarter are any length up to eight packets, a quarter whole packets. */
    private int length() {
        int mtu = RcConn.MTU.bytes;
        switch (rnd.nextInt(4)) {
            case 0:
            case 1:
                return rnd.nextInt(257);
            case 2:
                return rnd.nextInt(RcConn.MAX_LEN + 1);
            default:
                return (1 + rnd.nextInt(RcConn.MAX_LEN / mtu)) * mtu;
        }
    }

    private static int writeDst(Op op) {
        return RcConn.WRITE_DST + op.slot * RcConn.MAX_LEN;
    }

    private static int readDst(Op op) {
        return RcConn.READ_DST + op.slot * RcConn.MAX_LEN;
    }

    private static int atomicDst(Op op) {
        return RcConn.ATOMIC_DST + op.slot * 8;
    }

    // ================================================================== checking

    /**
     * Checks the requester's completions: each is the oldest request outstanding, successful, of
     * its opcode; its effect is applied to the model and the memory it touched compared with it.
     */
    private int pollSends(Flow f) {
        RcConn c = f.c;
        int n = c.req.scq().p().pollCq(wcs.length, wcs);
        for (int i = 0; i < n; i++) {
            Wc wc = wcs[i];
            Op op = f.sent.poll();
            if (op == null) {
                fail(c.name + ": a completion with nothing outstanding (duplicated?): " + wc);
            }
            String what = op.opcode + " " + op.id;
            assertEquals(op.id, wc.wrId, () -> c.name + ": completions in post order, expected " + what + ": " + wc);
            assertEquals(WcStatus.SUCCESS, wc.status, () -> c.name + ": " + what + ": " + wc);
            assertEquals(sendOpcode(op.opcode), wc.opcode, () -> c.name + ": " + what + ": " + wc);
            switch (op.opcode) {
                case RDMA_WRITE:
                case RDMA_WRITE_WITH_IMM:
                    c.respModel.put(writeDst(op), c.reqModel, RcConn.SRC + op.src, op.len);
                    c.assertModel(false, writeDst(op), op.len, what);
                    break;
                case RDMA_READ:
                    c.reqModel.put(readDst(op), c.respModel, RcConn.READ_SRC + op.src, op.len);
                    c.assertModel(true, readDst(op), op.len, what);
                    break;
                case ATOMIC_FETCH_AND_ADD:
                case ATOMIC_CMP_AND_SWP:
                    int word = op.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD ? RcConn.COUNTER_FAA : RcConn.COUNTER_CAS;
                    assertEquals(op.original, c.reqBuf.getLong(atomicDst(op)), () -> c.name + ": " + what
                            + ": the original value returned");
                    c.reqModel.putLong(atomicDst(op), op.original);
                    c.respModel.putLong(word, op.after);
                    break;
                default:
                    break;
            }
            completed++;
        }
        return n;
    }

    /**
     * Checks the responder's receive completions: each consumes the oldest receive, belongs to the
     * oldest SEND or WRITE with immediate not yet received, and carries its length, immediate and data.
     */
    private int pollReceives(Flow f) {
        RcConn c = f.c;
        int n = c.resp.rcq().p().pollCq(wcs.length, wcs);
        for (int i = 0; i < n; i++) {
            Wc wc = wcs[i];
            Op op = f.toReceive.poll();
            if (op == null) {
                fail(c.name + ": a receive completion without a SEND (duplicated?): " + wc);
            }
            String what = "receive of " + op.opcode + " " + op.id;
            long recvId = f.recvConsumed++;
            assertEquals(recvId, wc.wrId, () -> c.name + ": receives complete in order: " + what + ": " + wc);
            assertEquals(WcStatus.SUCCESS, wc.status, () -> c.name + ": " + what + ": " + wc);
            boolean write = op.opcode == WrOpcode.RDMA_WRITE_WITH_IMM;
            assertEquals(write ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV, wc.opcode, () -> c.name + ": " + what);
            assertEquals(op.len, wc.byteLen, () -> c.name + ": " + what + ": length");
            boolean imm = op.opcode != WrOpcode.SEND;
            assertEquals(imm, (wc.wcFlags & WcFlags.WITH_IMM) != 0, () -> c.name + ": " + what + ": IB_WC_WITH_IMM");
            if (imm) {
                assertEquals(op.imm, wc.immData, () -> c.name + ": " + what + ": immediate data");
            }
            if (!write) {
                int slot = RcConn.recvSlot(recvId);
                c.respModel.put(slot, c.reqModel, RcConn.SRC + op.src, op.len);
                c.assertModel(false, slot, op.len, what);
            }
            received++;
            c.postRecv();
        }
        return n;
    }

    private static WcOpcode sendOpcode(WrOpcode op) {
        switch (op) {
            case SEND:
            case SEND_WITH_IMM:
                return WcOpcode.SEND;
            case RDMA_WRITE:
            case RDMA_WRITE_WITH_IMM:
                return WcOpcode.RDMA_WRITE;
            case RDMA_READ:
                return WcOpcode.RDMA_READ;
            case ATOMIC_FETCH_AND_ADD:
                return WcOpcode.FETCH_ADD;
            default:
                return WcOpcode.COMP_SWAP;
        }
    }
}
