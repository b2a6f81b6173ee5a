package org.rdma.target.internal.backstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackstoreTest {
    @TempDir
    Path dir;

    private static ByteBuffer fill(int len, int v) {
        byte[] b = new byte[len];
        java.util.Arrays.fill(b, (byte) v);
        return ByteBuffer.wrap(b);
    }

    private static byte[] read(Backstore s, long lba, int blocks) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(blocks * s.blockSize());
        s.read(lba, b);
        return b.array();
    }

    @Test
    void fileioCreatesAMissingFileSparseAtItsSize() throws Exception {
        List<String> log = new ArrayList<>();
        Path f = dir.resolve("disk0.img");
        try (FileioBackstore s = FileioBackstore.open(f, 1 << 20, 4096, false, RecordingChannel.opener(log))) {
            assertEquals(256, s.blockCount());
            assertEquals(1 << 20, Files.size(f));
            // One byte at the end and nothing else: the file is sparse.
            assertEquals(List.of("write data " + ((1 << 20) - 1) + "+1", "force data"), log);
            assertFalse(s.thin());
            assertTrue(s.isMapped(7));
        }
        try (FileioBackstore s = FileioBackstore.open(f, 0, 512, false, FileioBackstore.FILES)) {
            assertEquals(2048, s.blockCount());
        }
    }

    @Test
    void fileioRefusesBadGeometry() {
        Path f = dir.resolve("x.img");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FileioBackstore.open(f, 4096, 1000, false, FileioBackstore.FILES));
        assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FileioBackstore.open(f, 0, 512, false, FileioBackstore.FILES));
        assertTrue(e.getMessage().startsWith("ENOENT: "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FileioBackstore.open(f, 100, 512, false, FileioBackstore.FILES));
        assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RamdiskBackstore(1 << 20, 2048));
    }

    @Test
    void thinFileioReadsUnmappedBlocksAsZerosAndKeepsItsMapAcrossReopen() throws Exception {
        Path f = dir.resolve("thin.img");
        try (FileioBackstore s = FileioBackstore.open(f, 64 * 512, 512, true, FileioBackstore.FILES)) {
            assertTrue(s.thin());
            assertFalse(s.isMapped(0));
            s.write(4, fill(8 * 512, 0x5A));
            assertEquals(4, s.runLength(0, 64));
            assertEquals(8, s.runLength(4, 64));
            assertEquals(52, s.runLength(12, 64));
            s.unmap(6, 2);
            byte[] r = read(s, 4, 8);
            assertEquals(0x5A, r[0]);
            assertEquals(0, r[2 * 512]);
            assertEquals(0, r[4 * 512 - 1]);
            assertEquals(0x5A, r[4 * 512]);
        }
        assertTrue(Files.exists(dir.resolve("thin.img" + FileioBackstore.MAP_SUFFIX)));
        try (FileioBackstore s = FileioBackstore.open(f, 0, 512, true, FileioBackstore.FILES)) {
            assertFalse(s.isMapped(6));
            assertTrue(s.isMapped(8));
            // The data of the unmapped blocks is still in the file; the map hides it.
            assertArrayEquals(new byte[512], read(s, 7, 1));
            assertEquals(0x5A, read(s, 11, 1)[511]);
        }
    }

    @Test
    void anExistingFileWithoutMapCountsAsMapped() throws Exception {
        Path f = dir.resolve("old.img");
        Files.write(f, fill(8 * 512, 0x11).array());
        try (FileioBackstore s = FileioBackstore.open(f, 0, 512, true, FileioBackstore.FILES)) {
            assertTrue(s.isMapped(0) && s.isMapped(7));
            assertEquals(0x11, read(s, 3, 1)[0]);
        }
    }

    @Test
    void ramdiskAllocatesPagesOnWriteAndFreesThemOnUnmap() throws Exception {
        RamdiskBackstore r = new RamdiskBackstore(4 * RamdiskBackstore.PAGE, 512);
        assertFalse(r.isMapped(0));
        r.write(100, fill(200 * 512, 7));
        assertTrue(r.isMapped(100) && r.isMapped(299));
        assertFalse(r.isMapped(400));
        assertEquals(384, r.runLength(0, 512));
        r.unmap(128, 128); // a whole page
        assertFalse(r.isMapped(128));
        r.unmap(100, 10); // part of a page: zeroed, still allocated
        assertTrue(r.isMapped(100));
        byte[] b = read(r, 100, 30);
        assertEquals(0, b[0]);
        assertEquals(7, b[10 * 512]);
        assertEquals(128, r.unmapGranularity());
    }
}
