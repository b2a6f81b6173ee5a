package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.scsi.Cdb;
import org.rdma.target.internal.backstore.FileioBackstore;
import org.rdma.target.internal.backstore.RecordingChannel;
import org.rdma.target.internal.device.DeviceAttributes;

/**
 * "Nothing is acknowledged before it is safe", tested on the order itself: a fileio backstore
 * whose channels log every write and force into the same list as the statuses, and a check that
 * each FUA, write-cache-off or synchronised command forced every channel it wrote after its last
 * write and before its status.
 */
class DurabilityTest {
    @TempDir
    Path dir;

    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private Harness h;

    private void open(boolean thin, boolean writeCache) throws Exception {
        FileioBackstore store = FileioBackstore.open(dir.resolve("d.img"), 4096 * 512, 512, thin, RecordingChannel.opener(log));
        h = new Harness(Harness.device(store, DeviceAttributes.DEFAULTS.withThinProvisioning(thin).withWriteCache(writeCache)),
                log);
        log.clear();
    }

    @AfterEach
    void close() throws Exception {
        h.dev.backstore().close();
    }

    /** The events of one command, up to and including its status. */
    private List<String> run(byte[] cdb, byte[] data) {
        int from = log.size();
        h.run(cdb, data).good();
        return new ArrayList<>(log.subList(from, log.size()));
    }

    /** Every channel written in {@code events} is forced after its last write and before the status. */
    private static void assertStableBeforeStatus(List<String> events) {
        int status = events.indexOf("status GOOD");
        assertEquals(events.size() - 1, status, () -> "status is not last: " + events);
        for (String ch : new String[] {"data", "map"}) {
            int lastWrite = -1;
            for (int i = 0; i < status; i++) {
                if (events.get(i).startsWith("write " + ch + " ")) {
                    lastWrite = i;
                }
            }
            if (lastWrite >= 0) {
                int force = events.subList(lastWrite, status).indexOf("force " + ch);
                assertTrue(force > 0, () -> ch + " written and not forced before the status: " + events);
            }
        }
    }

    private static boolean forced(List<String> events) {
        return events.stream().anyMatch(e -> e.startsWith("force"));
    }

    @Test
    void writeCacheOnForcesOnlyFuaWritesAndSynchronizeCache() throws Exception {
        open(false, true);
        byte[] block = new byte[512];
        List<String> plain = run(Cdb.write10(1, 1, 0), block);
        assertEquals(List.of("write data 512+512", "status GOOD"), plain);
        assertFalse(forced(plain));
        assertStableBeforeStatus(run(Cdb.write10(2, 1, Cdb.FUA), block));
        assertStableBeforeStatus(run(Cdb.write16(3, 1, Cdb.FUA), block));
        assertStableBeforeStatus(run(Cdb.write12(4, 1, Cdb.FUA), block));
        assertStableBeforeStatus(run(Cdb.writeAndVerify16(5, 1), block));
        byte[] caw = new byte[1024];
        assertStableBeforeStatus(run(Cdb.compareAndWrite(9, 1, Cdb.FUA), caw));
        List<String> sync = run(Cdb.synchronizeCache10(0, 0), new byte[0]);
        assertEquals(List.of("force data", "status GOOD"), sync);
    }

    @Test
    void writeCacheOffForcesEveryWrite() throws Exception {
        open(false, true);
        byte[] caching = HexFormat.of().parseHex("00000000" + "0812" + "00".repeat(18));
        h.run(Cdb.modeSelect6(true, false, caching.length), caching).good();
        assertStableBeforeStatus(run(Cdb.write10(1, 1, 0), new byte[512]));
        assertStableBeforeStatus(run(Cdb.write6(2, 1), new byte[512]));
        assertStableBeforeStatus(run(Cdb.writeSame16(0, 3000, 0), new byte[512]));
    }

    @Test
    void thinBackstoreForcesItsMapToo() throws Exception {
        open(true, false);
        List<String> w = run(Cdb.write10(8, 2, 0), new byte[1024]);
        assertEquals("write map 1+1", w.get(0), "the map is updated before the data: " + w);
        assertStableBeforeStatus(w);
        byte[] p = Cdb.unmapParameterList(8, 1);
        List<String> u = run(Cdb.unmap(p.length), p);
        assertStableBeforeStatus(u);
        assertTrue(u.contains("force map"), u::toString);
    }

    @Test
    void thinBackstoreWithWriteCacheLeavesTheMapToSynchronizeCache() throws Exception {
        open(true, true);
        List<String> w = run(Cdb.write10(8, 2, 0), new byte[1024]);
        assertFalse(forced(w));
        List<String> sync = run(Cdb.synchronizeCache16(0, 0), new byte[0]);
        assertEquals(List.of("force data", "force map", "status GOOD"), sync);
    }
}
