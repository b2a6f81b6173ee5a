package org.rdma.scsi;

/**
 * A command that ended in a status other than GOOD: CHECK CONDITION with its {@link Sense}, or a
 * status without sense (RESERVATION CONFLICT, BUSY, TASK SET FULL, TASK ABORTED). Initiators
 * complete {@link BlockDevice} futures with it; the target core's command emulation throws it.
 */
public class ScsiException extends Exception {
    private static final long serialVersionUID = 1L;

    private final ScsiStatus status;
    private final transient Sense sense;

    /** CHECK CONDITION with this sense. */
    public ScsiException(Sense sense) {
        super(ScsiStatus.CHECK_CONDITION + ": " + sense);
        this.status = ScsiStatus.CHECK_CONDITION;
        this.sense = sense;
    }

    /** CHECK CONDITION with a sense of this key and code. */
    public ScsiException(SenseKey key, Asc asc) {
        this(Sense.of(key, asc));
    }

    /**
     * A status without sense data.
     *
     * @throws IllegalArgumentException {@code EINVAL} for GOOD, CONDITION MET or CHECK CONDITION
     */
    public ScsiException(ScsiStatus status) {
        super(status.name());
        if (status == ScsiStatus.GOOD || status == ScsiStatus.CONDITION_MET || status == ScsiStatus.CHECK_CONDITION) {
            throw new IllegalArgumentException("EINVAL: " + status + " is not a failure without sense");
        }
        this.status = status;
        this.sense = null;
    }

    public ScsiStatus status() {
        return status;
    }

    /** The sense of a CHECK CONDITION, else null. */
    public Sense sense() {
        return sense;
    }
}
