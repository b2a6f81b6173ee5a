package org.rdma.mad.sa;

import org.rdma.verbs.wire.MadAttribute;

/** An SA record codec: a {@link MadAttribute} that can also read itself back. */
public interface SaRecord extends MadAttribute {
    /** Unpacks the record from {@code buf[off..]}; returns {@code this}. */
    SaRecord unpack(byte[] buf, int off);
}
