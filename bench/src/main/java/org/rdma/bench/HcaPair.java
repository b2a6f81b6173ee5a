package org.rdma.bench;

import org.rdma.core.internal.verbs.CoreDevice;

/** Two registered single-port HCAs that reach each other, as a {@link Writer} needs them. */
interface HcaPair extends AutoCloseable {
    /** The sending HCA. */
    CoreDevice devA();

    /** The receiving HCA. */
    CoreDevice devB();

    /** Port 1's LID on {@link #devA()}. */
    int lidA();

    /** Port 1's LID on {@link #devB()}. */
    int lidB();

    @Override
    void close();
}
