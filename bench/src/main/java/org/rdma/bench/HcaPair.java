package org.rdma.bench;

import org.rdma.core.internal.verbs.CoreDevice;

/** Two registered single-port HCAs that reach each other, as a {@link Writer} needs them. */
interface HcaPair extends AutoCloseable {
    /** The sending HCA. */
    CoreDevice devA();

    /** The receiving HCA. */
    CoreDevice devB();

    @Override
    void close();
}
