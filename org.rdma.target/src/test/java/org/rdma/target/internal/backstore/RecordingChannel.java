package org.rdma.target.internal.backstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A file channel that logs every write and force, as {@code "write NAME POS+LEN"} and
 * {@code "force NAME"}, into a shared event list, before the operation returns.
 */
public final class RecordingChannel implements BlockChannel {
    private final BlockChannel ch;
    private final String name;
    private final List<String> log;

    private RecordingChannel(BlockChannel ch, String name, List<String> log) {
        this.ch = ch;
        this.name = name;
        this.log = log;
    }

    /** An opener whose channels log under "data" (the data file) or "map" (its allocation map). */
    public static FileioBackstore.Opener opener(List<String> log) {
        return f -> new RecordingChannel(FileioBackstore.FILES.open(f),
                f.getFileName().toString().endsWith(FileioBackstore.MAP_SUFFIX) ? "map" : "data", log);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return ch.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        int len = src.remaining();
        int n = ch.write(src, position);
        synchronized (log) {
            log.add("write " + name + " " + position + "+" + len);
        }
        return n;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        ch.force(metaData);
        synchronized (log) {
            log.add("force " + name);
        }
    }

    @Override
    public long size() throws IOException {
        return ch.size();
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
