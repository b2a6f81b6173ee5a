package org.rdma.target.internal.core;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.rdma.scsi.Sense;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.fabric.FabricOps;

/**
 * A fabric written for the tests: it records every callback into a shared event list (beside
 * what a recording backstore logs there), answers write_pending from data staged per tag, and
 * keeps what each command ended with. The core's executor is {@link Manual}: tasks run only
 * when the test drains it.
 */
final class RecordingFabric implements FabricOps {
    /** An executor the test drains by hand. */
    static final class Manual implements Executor {
        final Deque<Runnable> queue = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            queue.add(r);
        }

        synchronized Runnable poll() {
            return queue.poll();
        }

        synchronized int pending() {
            return queue.size();
        }

        /** Runs queued tasks, and those they queue, until none is left. */
        void drain() {
            for (Runnable r; (r = poll()) != null;) {
                r.run();
            }
        }
    }

    /** What a command ended with. */
    record Outcome(FabricCommand cmd, byte[] data, Sense sense) {
    }

    final List<String> events;
    final Map<Long, byte[]> writeData = new HashMap<>();
    final Map<Long, Outcome> outcomes = Collections.synchronizedMap(new HashMap<>());
    final List<String> tmResponses = new ArrayList<>();
    boolean holdWriteData;

    RecordingFabric(List<String> events) {
        this.events = events;
    }

    @Override
    public void writePending(FabricCommand cmd) {
        events.add("write_pending " + cmd.tag());
        if (!holdWriteData) {
            supply(cmd);
        }
    }

    void supply(FabricCommand cmd) {
        ByteBuffer b = cmd.dataBuffer().clear();
        b.put(writeData.get(cmd.tag()), 0, cmd.dataLength()).flip();
        cmd.writeDataReady();
    }

    @Override
    public void queueDataIn(FabricCommand cmd) {
        byte[] d = new byte[cmd.dataLength()];
        cmd.dataBuffer().duplicate().clear().get(d);
        outcomes.put(cmd.tag(), new Outcome(cmd, d, null));
        events.add("data_in " + cmd.tag() + " " + cmd.status());
        cmd.release();
    }

    @Override
    public void queueStatus(FabricCommand cmd) {
        byte[] s = cmd.senseData();
        outcomes.put(cmd.tag(), new Outcome(cmd, new byte[0], s == null ? null : Sense.decode(s, 0, s.length)));
        events.add("status " + cmd.tag() + " " + cmd.status());
        cmd.release();
    }

    @Override
    public void queueTmResponse(long tag, TmfFunction function, TmfResponse response) {
        tmResponses.add(tag + " " + function + " " + response);
    }
}
