package org.rdma.target.internal.backstore;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The positional file operations fileio needs: a {@link FileChannel} in production, a
 * recording one in the test that proves every FUA write was forced before its status.
 */
public interface BlockChannel extends Closeable {
    int read(ByteBuffer dst, long position) throws IOException;

    int write(ByteBuffer src, long position) throws IOException;

    /** {@link FileChannel#force}: with {@code metaData} false, fdatasync. */
    void force(boolean metaData) throws IOException;

    long size() throws IOException;

    /** A channel over an open {@link FileChannel}. */
    static BlockChannel of(FileChannel ch) {
        return new BlockChannel() {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                return ch.read(dst, position);
            }

            @Override
            public int write(ByteBuffer src, long position) throws IOException {
                return ch.write(src, position);
            }

            @Override
            public void force(boolean metaData) throws IOException {
                ch.force(metaData);
            }

            @Override
            public long size() throws IOException {
                return ch.size();
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    /** Reads until {@code dst} is full; bytes past the end of the file read as zeros. */
    default void readFully(ByteBuffer dst, long position) throws IOException {
        while (dst.hasRemaining()) {
            int n = read(dst, position);
            if (n < 0) {
                while (dst.hasRemaining()) {
                    dst.put((byte) 0);
                }
                return;
            }
            position += n;
        }
    }

    /** Writes all of {@code src}. */
    default void writeFully(ByteBuffer src, long position) throws IOException {
        while (src.hasRemaining()) {
            position += write(src, position);
        }
    }
}
