package org.rdma.iscsi.internal.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.iscsi.internal.target.PduDataMover;
import org.rdma.iscsi.internal.target.PduEncoder;
import org.rdma.iscsi.internal.target.PduHandler;
import org.rdma.iscsi.internal.target.TargetCmd;
import org.rdma.iscsi.internal.target.Transport;
import org.rdma.iscsi.internal.target.TxPdu;
import org.rdma.iscsi.pdu.ReadResult;

/**
 * iSCSI over one TCP connection (LIO's iscsi_target_tcp side of {@code iscsit_transport}, without
 * its two threads per connection): its selector loop reads whatever arrived and decodes it with a
 * {@link org.rdma.iscsi.pdu.PduReader}; PDUs queued from any thread are laid out by a
 * {@link PduEncoder} into a direct buffer and written by whichever thread finds the writer idle,
 * or by the loop once the socket can take more. While more than {@link #HIGH_WATER} bytes wait to
 * be sent the connection is not read (back-pressure: an initiator that does not read its
 * responses cannot make the target queue without end); reading resumes below {@link #LOW_WATER}.
 */
final class TcpConnection implements Transport, SelectorLoop.Ready {
    private static final Logger LOG = Logger.getLogger(TcpConnection.class.getName());
    static final int BUFFER = 256 * 1024;
    static final long HIGH_WATER = 4L << 20;
    static final long LOW_WATER = 1L << 20;

    private record Queued(TxPdu pdu, boolean headerDigest, boolean dataDigest) {
    }

    private final SocketChannel channel;
    private final SelectorLoop loop;
    private final InetSocketAddress local;
    private final String peer;
    private final org.rdma.iscsi.pdu.PduReader reader = org.rdma.iscsi.pdu.PduReader.forTarget();
    private final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);
    private final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER);
    private final PduEncoder encoder = new PduEncoder();
    private final Deque<Queued> queue = new ArrayDeque<>();
    private final Runnable onClosed;
    private volatile PduHandler handler;
    private SelectionKey key;

    // guarded by queue
    private long queuedBytes;
    private boolean writing;
    private boolean awaitingWritable;
    private boolean closeRequested;
    private boolean closed;
    private boolean readPaused;
    private boolean headerDigest;
    private boolean dataDigest;

    TcpConnection(SocketChannel channel, SelectorLoop loop, Runnable onClosed) throws IOException {
        this.channel = channel;
        this.loop = loop;
        this.onClosed = onClosed;
        this.local = (InetSocketAddress) channel.getLocalAddress();
        this.peer = String.valueOf(channel.getRemoteAddress());
        channel.configureBlocking(false);
        channel.socket().setTcpNoDelay(true);
    }

    /** Starts reading into {@code first} (the login); on the loop's thread. */
    void start(PduHandler first) throws IOException {
        handler = first;
        key = loop.register(channel, SelectionKey.OP_READ, this);
    }

    @Override
    public void setHandler(PduHandler h) {
        handler = h;
    }

    // ---------------------------------------------------------------- reading (the loop's thread)

    @Override
    public void ready(SelectionKey k) throws IOException {
        if (k.isValid() && k.isWritable()) {
            synchronized (queue) {
                if (!awaitingWritable) {
                    return;
                }
                awaitingWritable = false;
            }
            flush();
        }
        if (k.isValid() && k.isReadable()) {
            read();
        }
    }

    private void read() throws IOException {
        int n = channel.read(in);
        if (n < 0) {
            ReadResult end = reader.endOfStream();
            handler.receive(end, reader.bhs(), ByteBuffer.allocate(0), ByteBuffer.allocate(0));
            abort();
            return;
        }
        in.flip();
        try {
            while (in.hasRemaining() && !closing()) {
                ReadResult r = reader.read(in);
                if (r == ReadResult.NEED_MORE) {
                    break;
                }
                handler.receive(r, reader.bhs(), reader.ahs(), reader.data());
                if (r.dropsConnection()) {
                    abort();
                    return;
                }
            }
        } finally {
            in.compact();
        }
    }

    /**
     * Back-pressure on (caller holds the queue): the responses of the commands already read are
     * enough to send; the connection is read again once they have mostly left.
     */
    private void pauseIfFull() {
        if (queuedBytes > HIGH_WATER && !readPaused && key != null && key.isValid()) {
            readPaused = true;
            key.interestOpsAnd(~SelectionKey.OP_READ);
        }
    }

    @Override
    public void failed(IOException e) {
        LOG.log(Level.FINE, peer + ": " + e.getMessage(), e);
        abort();
    }

    @Override
    public void setMaxRecvDataSegmentLength(int length) {
        reader.setMaxRecvDataSegmentLength(length);
    }

    // ---------------------------------------------------------------- writing (any thread)

    @Override
    public void sendPdu(TxPdu pdu) {
        synchronized (queue) {
            if (closed || closeRequested) {
                return;
            }
            queue.add(new Queued(pdu, headerDigest, dataDigest));
            queuedBytes += 56 + pdu.dataLength();
            pauseIfFull();
            if (writing) {
                return;
            }
            writing = true;
        }
        flush();
    }

    /** Writes what it can; only the thread that set {@code writing} (or the loop after it gave up) runs this. */
    private void flush() {
        try {
            while (true) {
                fill();
                out.flip();
                channel.write(out);
                boolean stuck = out.hasRemaining();
                out.compact();
                if (stuck) {
                    boolean close;
                    synchronized (queue) {
                        close = closeRequested;
                    }
                    if (close || !key.isValid()) {
                        abort(); // closing does not wait for a peer that does not read
                        return;
                    }
                    synchronized (queue) {
                        awaitingWritable = true;
                        key.interestOpsOr(SelectionKey.OP_WRITE);
                    }
                    loop.wakeup();
                    return;
                }
                boolean done;
                boolean close;
                synchronized (queue) {
                    done = queue.isEmpty() && !encoder.busy();
                    if (done) {
                        if (key != null && key.isValid()) {
                            key.interestOpsAnd(~SelectionKey.OP_WRITE);
                        }
                        writing = false;
                    }
                    close = closeRequested;
                    resumeIfDrained();
                }
                if (done) {
                    if (close) {
                        abort();
                    }
                    return;
                }
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, peer + ": write failed", e);
            abort();
        }
    }

    /** Lays queued PDUs into {@code out} until it is full or nothing is left. */
    private void fill() {
        while (out.hasRemaining()) {
            if (!encoder.busy()) {
                Queued q;
                synchronized (queue) {
                    q = queue.poll();
                    if (q != null) {
                        queuedBytes -= 56 + q.pdu().dataLength();
                    }
                }
                if (q == null) {
                    return;
                }
                encoder.start(q.pdu(), q.headerDigest(), q.dataDigest());
            }
            if (!encoder.encode(out)) {
                return;
            }
        }
    }

    /** Back-pressure off once the queue has drained below the low-water mark (caller holds the queue). */
    private void resumeIfDrained() {
        if (readPaused && queuedBytes < LOW_WATER && key.isValid()) {
            readPaused = false;
            key.interestOpsOr(SelectionKey.OP_READ);
            loop.wakeup();
        }
    }

    @Override
    public void setDigests(boolean header, boolean data) {
        synchronized (queue) {
            headerDigest = header;
            dataDigest = data;
        }
        reader.setDigests(header, data);
    }

    @Override
    public void getDataOut(TargetCmd cmd) {
        PduDataMover.getDataOut(cmd);
    }

    @Override
    public void putDataIn(TargetCmd cmd) {
        PduDataMover.putDataIn(cmd);
    }

    // ---------------------------------------------------------------- closing

    @Override
    public void close() {
        synchronized (queue) {
            if (closed || closeRequested) {
                return;
            }
            closeRequested = true;
            if (writing) {
                return; // the writer closes once it is done
            }
            writing = true;
        }
        flush();
    }

    /** Whether reading is paused because too much waits to be sent. */
    boolean readPaused() {
        synchronized (queue) {
            return readPaused;
        }
    }

    private boolean closing() {
        synchronized (queue) {
            return closed || closeRequested;
        }
    }

    /** Closes at once, dropping what is queued; the handler hears of it once. */
    void abort() {
        synchronized (queue) {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear();
            queuedBytes = 0;
        }
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closed anyway
        }
        onClosed.run();
        PduHandler h = handler;
        if (h != null) {
            h.transportClosed();
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public String peerName() {
        return peer;
    }

    @Override
    public String toString() {
        return "tcp " + peer + " -> " + local;
    }
}
