package org.rdma.verbs;

import java.util.function.Supplier;

/**
 * A control-path failure: the Java form of a kernel verb returning {@code -errno} or
 * {@code ERR_PTR(-errno)}. The message starts with the errno name, then says what was wrong.
 */
public class RdmaException extends RuntimeException {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    /** The errno this failure carries. */
    private final Errno errno;
    /** What was wrong, for a {@link #miss}: said only when asked. */
    private final transient Supplier<String> what;

    /** A failure with the given errno and a description of what was wrong. */
    public RdmaException(Errno errno, String what) {
        super(errno.name() + ": " + what);
        this.errno = errno;
        this.what = null;
    }

    /** A failure with the given errno, a description and its cause. */
    public RdmaException(Errno errno, String what, Throwable cause) {
        super(errno.name() + ": " + what, cause);
        this.errno = errno;
        this.what = null;
    }

    private RdmaException(Errno errno, Supplier<String> what) {
        super(null, null, false, false);
        this.errno = errno;
        this.what = what;
    }

    /**
     * A lookup that found nothing, where the kernel returns {@code ERR_PTR(-ENOENT)} and its
     * callers routinely probe with it (is this GID on that port?): no stack trace is recorded and
     * the message is built only when read, since the caller usually just moves on.
     *
     * @param errno the errno, e.g. {@link Errno#ENOENT}
     * @param what  says what was not found, when asked
     * @return the exception, to throw
     */
    public static RdmaException miss(Errno errno, Supplier<String> what) {
        return new RdmaException(errno, what);
    }

    @Override
    public String getMessage() {
        return what == null ? super.getMessage() : errno.name() + ": " + what.get();
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
