package org.rdma.target.fabric;

import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ProviderType;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.TaskAttribute;

/**
 * A command as a fabric sees it (LIO's {@code struct se_cmd}): what it submitted, the buffer the
 * core allocated for its data, and, once {@link FabricOps#queueDataIn} or
 * {@link FabricOps#queueStatus} was called, its status, sense data and residual.
 */
@ProviderType
public interface FabricCommand {
    /** The fabric's tag (iSCSI's Initiator Task Tag), unique among the session's outstanding commands. */
    long tag();

    /** The LUN field as submitted (SAM-5 8-byte encoding). */
    long lun();

    byte[] cdb();

    TaskAttribute taskAttribute();

    /** The direction the CDB implies, decided when the command was submitted. */
    DataDirection direction();

    /**
     * The command's data: the data-out the fabric fills for {@link FabricOps#writePending}, the
     * data-in it sends for {@link FabricOps#queueDataIn}; positions 0 to {@link #dataLength}.
     * Allocated by the core per command, so an RDMA fabric can register it.
     */
    ByteBuffer dataBuffer();

    /** The bytes to move: data-out expected, or data-in to send (at most the expected length). */
    int dataLength();

    /** The status, once the command completed. */
    ScsiStatus status();

    /** The sense data of a CHECK CONDITION, in the format the LUN's D_SENSE asks for; else null. */
    byte[] senseData();

    /**
     * The residual count (SAM-5 5.4.3): with {@link #residualOverflow} the bytes beyond the
     * expected data transfer length the command would have moved, with {@link #residualUnderflow}
     * the bytes of the expected length it did not move.
     */
    int residualCount();

    boolean residualOverflow();

    boolean residualUnderflow();

    /** The data-out is in {@link #dataBuffer}: the command may run. LIO's {@code target_execute_cmd()}. */
    void writeDataReady();

    /**
     * The fabric is done with the command (status sent, or the connection gone): the core
     * forgets it and its tag may be reused. LIO's {@code transport_generic_free_cmd()}.
     */
    void release();
}
