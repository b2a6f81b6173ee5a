package org.rdma.target.fabric;

import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;

/**
 * What the core calls on a fabric, per session (LIO's {@code struct target_core_fabric_ops}). The
 * core never holds a lock of its own while it calls these, and may call them on the thread that
 * submitted the command (a command failing its checks gets {@link #queueStatus} before
 * {@link FabricSession#submit} returns) or on an executor thread. A fabric must not block in
 * them: it queues the transfer and returns.
 *
 * <p>The life of a READ: {@code submit} → (queued by task attribute, executed) →
 * {@link #queueDataIn} with the data and GOOD status → the fabric sends both →
 * {@link FabricCommand#release}. A WRITE: {@code submit} → {@link #writePending} → the fabric
 * fills {@link FabricCommand#dataBuffer} (from immediate data, R2T/Data-Out, or an RDMA READ) and
 * calls {@link FabricCommand#writeDataReady} → (queued, executed, forced when it must be) →
 * {@link #queueStatus} → the fabric sends the status → {@code release}.
 */
@ConsumerType
public interface FabricOps {
    /**
     * The command needs its data-out: fill {@link FabricCommand#dataBuffer} with
     * {@link FabricCommand#dataLength} bytes, then call {@link FabricCommand#writeDataReady}.
     * LIO's {@code write_pending}.
     */
    void writePending(FabricCommand cmd);

    /**
     * The command ended GOOD with data-in: send {@link FabricCommand#dataLength} bytes of
     * {@link FabricCommand#dataBuffer}, then the status (the fabric may collapse them, as iSCSI's
     * S bit does). LIO's {@code queue_data_in}.
     */
    void queueDataIn(FabricCommand cmd);

    /**
     * Send the status of a command without data-in to send: its {@link FabricCommand#status},
     * sense data and residual. LIO's {@code queue_status}.
     */
    void queueStatus(FabricCommand cmd);

    /** The response of a task management function. LIO's {@code queue_tm_rsp}. */
    void queueTmResponse(long tag, TmfFunction function, TmfResponse response);

    /**
     * A command was aborted by task management and no status is to be sent for it; the fabric
     * releases what it holds for it. LIO's {@code aborted_task}.
     */
    default void abortedTask(FabricCommand cmd) {
    }
}
