package org.rdma.target.internal.pr;

import java.util.function.Predicate;
import org.rdma.scsi.Asc;

/** What the reservation rules of one device need of the target core (LIO's se_device, se_lun and se_node_acl walks). */
public interface PrContext {
    /** Establishes a unit attention on the device for every open I_T nexus that {@code who} accepts. */
    void unitAttention(Predicate<ItNexus> who, Asc asc);

    /**
     * Aborts the device's commands of the I_T nexuses {@code who} accepts, all but the command
     * asking (PREEMPT AND ABORT, SPC-4 5.12.11.2.6), and returns once their outcomes are delivered.
     */
    void abortTasks(Predicate<ItNexus> who);

    /** The RELATIVE TARGET PORT IDENTIFIER of a target port exporting the device, or 0. */
    int relativePortId(String targetPortName);

    /** The name of the target port exporting the device with this relative identifier, or null. */
    String targetPortName(int relativePortId);

    /** Whether an initiator sees the device through a target port (its ACL maps it, or demo mode). */
    boolean canAccess(String initiatorName, String targetPortName);
}
