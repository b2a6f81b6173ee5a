package org.rdma.iscsi.internal.target;

import java.util.concurrent.atomic.LongAdder;

/** What a connection counted of its input: bad input is counted and dropped, never thrown. */
public final class ConnectionStats {
    final LongAdder pdus = new LongAdder();
    final LongAdder rejects = new LongAdder();
    final LongAdder outsideWindow = new LongAdder();
    final LongAdder unknownItt = new LongAdder();
    final LongAdder digestErrors = new LongAdder();
    final LongAdder ignored = new LongAdder();

    /** Every read result handed to the connection. */
    public long pdus() {
        return pdus.sum();
    }

    /** Reject PDUs sent. */
    public long rejects() {
        return rejects.sum();
    }

    /** Requests dropped because their CmdSN was below ExpCmdSN or beyond MaxCmdSN. */
    public long outsideWindow() {
        return outsideWindow.sum();
    }

    /** Data-Out PDUs for a task the session does not have (aborted, or never known). */
    public long unknownItt() {
        return unknownItt.sum();
    }

    /** PDUs whose data digest failed. */
    public long digestErrors() {
        return digestErrors.sum();
    }

    /** PDUs ignored: after a logout, empty Data-Out, stray NOP-Out answers. */
    public long ignored() {
        return ignored.sum();
    }
}
