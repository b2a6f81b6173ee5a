package org.rdma.iscsi.internal.target;

/**
 * Data movement in PDUs, for transports that carry everything in PDUs (iSCSI over TCP): R2T and
 * Data-Out for the data of a WRITE, Data-In with the status collapsed into the last for a READ.
 * iSER replaces both with RDMA READ and RDMA WRITE.
 */
public final class PduDataMover {
    private PduDataMover() {
    }

    /** {@link Transport#getDataOut} in PDUs: R2Ts for what did not come unsolicited. */
    public static void getDataOut(TargetCmd cmd) {
        cmd.solicit();
        cmd.checkComplete();
    }

    /** {@link Transport#putDataIn} in PDUs: Data-In, the last with the status. */
    public static void putDataIn(TargetCmd cmd) {
        cmd.connection().sendDataIn(cmd);
    }
}
