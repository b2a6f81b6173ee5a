package org.rdma.target.internal.emul;

import org.rdma.scsi.Sense;

/**
 * What the emulation needs of the I_T_L nexus a command runs on: the target core implements it
 * per session and LUN.
 */
public interface Nexus {
    TargetPort port();

    /** The LUN is mapped read-only for this nexus (an ACL's write_protect, demo_mode_write_protect). */
    default boolean readOnly() {
        return false;
    }

    /** The LUNs this nexus's initiator sees, SAM-5 encoded, ascending (REPORT LUNS). */
    long[] reportLuns();

    /** Removes and returns the oldest pending unit attention of this I_T_L nexus, or null (REQUEST SENSE). */
    Sense takeUnitAttention();

    /** MODE SELECT changed a parameter: MODE PARAMETERS CHANGED for every other I_T nexus (SPC-4 6.9). */
    void modeParametersChanged();
}
