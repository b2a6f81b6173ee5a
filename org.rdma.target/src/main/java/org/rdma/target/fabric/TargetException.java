package org.rdma.target.fabric;

/** A control-path failure of the target core, naming its errno (message {@code "EACCES: ..."}). */
public class TargetException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String errno;

    public TargetException(String errno, String message) {
        super(errno + ": " + message);
        this.errno = errno;
    }

    /** The errno name, e.g. {@code "EACCES"}. */
    public String errno() {
        return errno;
    }
}
