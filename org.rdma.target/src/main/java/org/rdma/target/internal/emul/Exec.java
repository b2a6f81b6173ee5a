package org.rdma.target.internal.emul;

import org.rdma.scsi.ScsiException;

/** The execute step of a parsed command; runs once its data-out buffer is filled. */
@FunctionalInterface
public interface Exec {
    void execute(Cmd cmd) throws ScsiException;
}
