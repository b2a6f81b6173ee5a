package org.rdma.verbs;

/**
 * Linux errno values used by the verbs layer ({@code include/uapi/asm-generic/errno-base.h},
 * {@code errno.h}). Datapath calls return {@code -errno.value}; control-path calls throw
 * {@link RdmaException} carrying one of these.
 */
public enum Errno {
    EPERM(1), ENOENT(2), EINTR(4), EIO(5), ENXIO(6), E2BIG(7), EAGAIN(11), ENOMEM(12),
    EACCES(13), EFAULT(14), EBUSY(16), EEXIST(17), ENODEV(19), EINVAL(22), ENOSPC(28),
    ERANGE(34), ENOSYS(38), ENODATA(61), EPROTO(71), EMSGSIZE(90), EOPNOTSUPP(95),
    EADDRINUSE(98), EADDRNOTAVAIL(99), ENETUNREACH(101), ECONNABORTED(103), ECONNRESET(104),
    ENOTCONN(107), ETIMEDOUT(110), ECONNREFUSED(111), EHOSTUNREACH(113), EALREADY(114),
    EINPROGRESS(115), ECANCELED(125);

    /** The positive errno number, as in the kernel headers. */
    public final int value;

    Errno(int value) {
        this.value = value;
    }

    /** The errno with this positive or negative number; {@code null} if unknown. */
    public static Errno of(int value) {
        int v = Math.abs(value);
        for (Errno e : values()) {
            if (e.value == v) {
                return e;
            }
        }
        return null;
    }

    /** {@code -value}: the form a datapath call returns. */
    public int negative() {
        return -value;
    }
}
