package org.rdma.verbs;

/** The result of {@link IbMr#checkMrStatus}: {@code struct ib_mr_status}. Reusable. */
public final class MrStatus {
    /** {@code IB_MR_CHECK_SIG_STATUS}: check (and clear) the signature status. */
    public static final int CHECK_SIG_STATUS = 1;

    /** {@code fail_status}: the {@code CHECK_*} bits whose check found an error. */
    public int failStatus;
    /** {@code sig_err}: valid when {@link #failStatus} has {@link #CHECK_SIG_STATUS}. */
    public final SigErr sigErr = new SigErr();

    /** Whether the signature check failed. */
    public boolean sigFailed() {
        return (failStatus & CHECK_SIG_STATUS) != 0;
    }
}
