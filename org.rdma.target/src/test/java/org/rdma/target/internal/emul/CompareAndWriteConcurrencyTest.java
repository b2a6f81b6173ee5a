package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.target.internal.device.DeviceAttributes;

/**
 * COMPARE AND WRITE as an atomic increment: threads read a counter block and swap it for the next
 * value, retrying on MISCOMPARE, while another thread keeps rewriting a neighbouring block in the
 * same page with plain WRITEs. If a compare and its write could interleave with another write of
 * the block, an increment would be lost and the final count would fall short.
 */
class CompareAndWriteConcurrencyTest {
    private static final int THREADS = 4, INCREMENTS = 300;

    @Test
    void noIncrementIsLost() throws Exception {
        Harness h = Harness.ramdisk(256, 512, DeviceAttributes.DEFAULTS);
        h.run(Cdb.write10(0, 1, 0), new byte[512]).good();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        try {
            List<Future<Integer>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    int miscompares = 0;
                    for (int done = 0; done < INCREMENTS;) {
                        byte[] now = h.run(Cdb.read10(0, 1, 0)).good().data();
                        long v = ByteBuffer.wrap(now).getLong();
                        byte[] swap = new byte[1024];
                        System.arraycopy(now, 0, swap, 0, 512);
                        ByteBuffer.wrap(swap, 512, 8).putLong(v + 1);
                        Harness.Result r = h.run(Cdb.compareAndWrite(0, 1, 0), swap);
                        if (r.sense() == null) {
                            done++;
                        } else {
                            assertEquals(Asc.MISCOMPARE_DURING_VERIFY_OPERATION, r.sense().asc());
                            miscompares++;
                        }
                    }
                    return miscompares;
                }));
            }
            Future<?> noise = pool.submit(() -> {
                while (!workers.stream().allMatch(Future::isDone)) {
                    h.run(Cdb.write10(1, 1, 0), SbcTest.pattern(512, 3)).good();
                }
            });
            for (Future<Integer> w : workers) {
                w.get(60, TimeUnit.SECONDS);
            }
            noise.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(THREADS * INCREMENTS, ByteBuffer.wrap(h.run(Cdb.read10(0, 1, 0)).good().data()).getLong());
    }
}
