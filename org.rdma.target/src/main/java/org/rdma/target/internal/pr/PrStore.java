package org.rdma.target.internal.pr;

import java.io.IOException;
import java.util.Optional;

/**
 * Where a device's persistent reservations live while APTPL is active (SPC-4 5.12.5, Activate
 * Persist Through Power Loss; LIO's {@code /var/target/pr/aptpl_<serial>}). The configuration
 * stores them beside the device's own; {@link FilePrStore} keeps them in a file.
 */
public interface PrStore {
    /** No persistence: PTPL_C is zero and a request for APTPL is refused. */
    PrStore NONE = new PrStore() {
        @Override
        public boolean persistent() {
            return false;
        }

        @Override
        public Optional<PrState> load() {
            return Optional.empty();
        }

        @Override
        public void save(PrState state) throws IOException {
            throw new IOException("EOPNOTSUPP: no store for persistent reservations");
        }

        @Override
        public void clear() {
        }
    };

    /** Whether state survives a restart (REPORT CAPABILITIES' PTPL_C). */
    boolean persistent();

    /**
     * The state saved while APTPL was active, or empty.
     *
     * @throws IOException when it cannot be read; {@code IllegalArgumentException} {@code EINVAL}
     *         when what was read is not a state
     */
    Optional<PrState> load() throws IOException;

    /** Replaces the saved state; returns once it is stable. */
    void save(PrState state) throws IOException;

    /** APTPL was turned off: nothing is to be restored. */
    void clear() throws IOException;
}
