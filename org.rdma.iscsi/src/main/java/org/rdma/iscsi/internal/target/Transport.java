package org.rdma.iscsi.internal.target;

import java.net.InetSocketAddress;

/**
 * What the engine needs from a connection's transport (LIO's {@code struct iscsit_transport}):
 * iSCSI over TCP moves everything in PDUs; iSER (RFC 7145) sends the control PDUs as messages and
 * moves solicited data-out and all data-in by RDMA READ and WRITE. So the three operations stay
 * apart: {@link #sendPdu}, {@link #getDataOut} and {@link #putDataIn}. A transport built on PDUs
 * implements the last two with {@link PduDataMover}.
 *
 * <p>Inbound, the transport hands every PDU (or what its reader found wrong with it) to the
 * {@link PduHandler} it was given, one at a time.
 */
public interface Transport {
    /**
     * Queues one PDU for sending (LIO's {@code iscsit_xmit_pdu}), after every PDU queued before it.
     * Never blocks and never calls back into the engine; callers hold the connection's transmit
     * lock so that StatSN order is wire order.
     */
    void sendPdu(TxPdu pdu);

    /**
     * Gets the data-out of a WRITE that did not come unsolicited (LIO's {@code iscsit_get_dataout}):
     * TCP sends R2Ts, iSER issues RDMA READs. The command learns of each arrival through
     * {@link TargetCmd}; once all of it is in, the engine hands the command back to the core.
     */
    void getDataOut(TargetCmd cmd);

    /**
     * Sends the data-in of a READ that ended GOOD and then its status (LIO's
     * {@code iscsit_queue_data_in}): TCP sends Data-In PDUs with the status in the last (S bit),
     * iSER RDMA WRITEs the data and sends a SCSI Response.
     */
    void putDataIn(TargetCmd cmd);

    /**
     * Routes what the transport reads from the next PDU on to {@code handler}: the login hands the
     * connection to its full feature phase this way.
     */
    void setHandler(PduHandler handler);

    /** Header and data digests (RFC 7143 13.1) for PDUs queued and read from now on. */
    void setDigests(boolean header, boolean data);

    /** The MaxRecvDataSegmentLength this side declared: the largest data segment the reader accepts. */
    void setMaxRecvDataSegmentLength(int length);

    /** Sends what is queued if it can without waiting, then closes; the handler hears {@code transportClosed}. */
    void close();

    /** The local address the connection arrived on (SendTargets answers it for a wildcard portal). */
    InetSocketAddress localAddress();

    /** The peer, for logs. */
    String peerName();
}
