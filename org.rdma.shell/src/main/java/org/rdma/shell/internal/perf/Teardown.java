package org.rdma.shell.internal.perf;

/**
 * A teardown that tries every step, as the tools' {@code pp_close_ctx()} goes on after a failed
 * {@code ibv_destroy_qp()}: the first failure is kept, later ones are added to it as suppressed.
 */
final class Teardown {
    private RuntimeException first;

    /** Runs {@code step}, remembering a failure. */
    void step(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            if (first == null) {
                first = e;
            } else {
                first.addSuppressed(e);
            }
        }
    }

    /** The first failure, or null. */
    RuntimeException failure() {
        return first;
    }

    /** Throws the first failure, if any. */
    void rethrow() {
        if (first != null) {
            throw first;
        }
    }
}
