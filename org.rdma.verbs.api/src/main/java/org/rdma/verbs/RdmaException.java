package org.rdma.verbs;

/**
 * A control-path failure: the Java form of a kernel verb returning {@code -errno} or
 * {@code ERR_PTR(-errno)}. The message starts with the errno name, then says what was wrong.
 */
public class RdmaException extends RuntimeException {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    /** The errno this failure carries. */
    private final Errno errno;

    /** A failure with the given errno and a description of what was wrong. */
    public RdmaException(Errno errno, String what) {
        super(errno.name() + ": " + what);
        this.errno = errno;
    }

    /** A failure with the given errno, a description and its cause. */
    public RdmaException(Errno errno, String what, Throwable cause) {
        super(errno.name() + ": " + what, cause);
        this.errno = errno;
    }

    /** The errno, e.g. {@link Errno#EINVAL}. */
    public Errno errno() {
        return errno;
    }

    /** Throws {@code EINVAL} with the message unless the condition holds. */
    public static void check(boolean condition, Errno errno, String what) {
        if (!condition) {
            throw new RdmaException(errno, what);
        }
    }
}
