package org.rdma.iscsi.internal.target;

import java.nio.ByteBuffer;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.ReadResult;

/**
 * Where a transport delivers what it reads: the login phase first, the connection's full feature
 * phase after (LIO's {@code iscsi_target_rx_thread} dispatch). The header and buffers are valid
 * only during the call.
 */
public interface PduHandler {
    /** One result other than {@link ReadResult#NEED_MORE}: a PDU, or what was wrong with it. */
    void receive(ReadResult result, Bhs bhs, ByteBuffer ahs, ByteBuffer data);

    /** The transport is closed (by the peer, an error, or {@link Transport#close}); nothing more comes. */
    void transportClosed();
}
