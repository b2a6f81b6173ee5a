package org.rdma.iscsi.internal.target;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A transport in memory for engine tests: what the engine sends is laid out on a byte stream with
 * the digests in force (as TCP would), for the test's initiator to decode; data moves in PDUs.
 */
class MemoryTransport implements Transport {
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    private final PduEncoder encoder = new PduEncoder();
    private final InetSocketAddress local;
    private boolean headerDigest;
    private boolean dataDigest;
    int maxRecvDataSegmentLength;
    boolean closed;
    PduHandler handler;

    MemoryTransport(InetSocketAddress local) {
        this.local = local;
    }

    @Override
    public synchronized void sendPdu(TxPdu pdu) {
        if (closed) {
            throw new IllegalStateException("a PDU after close: " + pdu.bhs());
        }
        encoder.start(pdu, headerDigest, dataDigest);
        ByteBuffer out = ByteBuffer.allocate(64 + pdu.dataLength() + 8);
        encoder.encode(out);
        wire.write(out.array(), 0, out.position());
    }

    /** Takes what was sent so far. */
    synchronized byte[] take() {
        byte[] b = wire.toByteArray();
        wire.reset();
        return b;
    }

    @Override
    public void getDataOut(TargetCmd cmd) {
        PduDataMover.getDataOut(cmd);
    }

    @Override
    public void putDataIn(TargetCmd cmd) {
        PduDataMover.putDataIn(cmd);
    }

    @Override
    public void setHandler(PduHandler h) {
        handler = h;
    }

    @Override
    public synchronized void setDigests(boolean header, boolean data) {
        headerDigest = header;
        dataDigest = data;
    }

    @Override
    public void setMaxRecvDataSegmentLength(int length) {
        maxRecvDataSegmentLength = length;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (handler != null) {
            handler.transportClosed();
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public String peerName() {
        return "memory";
    }
}
