package org.rdma.iscsi.internal.target;

import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.target.fabric.FabricTpg;

/**
 * What a successful login hands to the engine (the state LIO's {@code iscsi_post_login_handler()}
 * takes over): who the session is (ISID, the TSIH the initiator sent, 0 for a new session; the
 * two names; discovery or normal, and for a normal session the TPG it logged in to), the
 * connection's CID, the negotiated parameters, and the login's CmdSN (a new session's first
 * ExpCmdSN: the login does not consume it).
 */
public record LoginOutcome(long isid, int tsih, int cid, String initiatorName, String targetName, boolean discovery,
        FabricTpg tpg, OperationalParameters parameters, int cmdSn) {
    public LoginOutcome {
        if ((isid & ~0xffff_ffff_ffffL) != 0 || tsih < 0 || tsih > 0xffff || cid < 0 || cid > 0xffff) {
            throw new IllegalArgumentException(String.format("EINVAL: ISID 0x%x, TSIH %d or CID %d out of range",
                    isid, tsih, cid));
        }
        if (initiatorName == null || !discovery && (tpg == null || targetName == null)) {
            throw new IllegalArgumentException("EINVAL: a normal session needs the initiator, the target and its TPG");
        }
    }

    /** The SCSI initiator port name of the nexus (RFC 7143 4.4.1): name, ",i,0x" and the ISID in 12 hex digits. */
    public String initiatorPortName() {
        return String.format("%s,i,0x%012x", initiatorName, isid);
    }
}
