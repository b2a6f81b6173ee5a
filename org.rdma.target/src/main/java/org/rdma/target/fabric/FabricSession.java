package org.rdma.target.fabric;

import org.osgi.annotation.versioning.ProviderType;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;

/**
 * An I_T nexus on a target portal group (LIO's {@code struct se_session}), opened by a fabric
 * after its login with {@link FabricTpg#openSession}.
 */
@ProviderType
public interface FabricSession {
    /** The initiator's SCSI device name (an iSCSI initiator name), which ACLs are keyed by. */
    String initiatorName();

    /** The initiator port name (iSCSI: name plus {@code ",i,0x"} and the ISID). */
    String initiatorPortName();

    FabricTpg tpg();

    /**
     * Submits a command (LIO's {@code target_submit_cmd()}). The outcome comes through the
     * session's {@link FabricOps}, possibly before this returns.
     *
     * @param lun the 8-byte LUN field
     * @param tag unique among this session's commands not yet released
     * @param expectedLength the expected data transfer length (iSCSI's EDTL)
     * @param expectedDirection the direction the fabric saw (iSCSI's R and W bits)
     */
    FabricCommand submit(long lun, byte[] cdb, long tag, TaskAttribute attribute, int expectedLength,
            DataDirection expectedDirection);

    /**
     * Submits a task management function (LIO's {@code target_submit_tmr()}); the response comes
     * through {@link FabricOps#queueTmResponse}.
     *
     * @param tag the TMF request's own tag
     * @param referencedTag the tag of the task ABORT TASK and QUERY TASK name, else ignored
     */
    void submitTmr(TmfFunction function, long lun, long tag, long referencedTag);

    /**
     * Closes the nexus (LIO's {@code transport_deregister_session()}): its queued commands are
     * aborted without status; other nexuses of its LUNs get I_T NEXUS LOSS OCCURRED only from a
     * later reservation step.
     */
    void close();
}
