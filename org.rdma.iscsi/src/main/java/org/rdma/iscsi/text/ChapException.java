package org.rdma.iscsi.text;

import org.rdma.iscsi.pdu.LoginStatus;

/** CHAP failed; the login ends with {@link #status()} (RFC 7143 12.1.3, 11.13.5). */
public final class ChapException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient LoginStatus status;

    public ChapException(LoginStatus status, String message) {
        super("EACCES: " + message);
        this.status = status;
    }

    public LoginStatus status() {
        return status;
    }
}
