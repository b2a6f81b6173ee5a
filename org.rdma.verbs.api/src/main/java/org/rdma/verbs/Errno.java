package org.rdma.verbs;

/**
 * Linux errno values used by the verbs layer ({@code include/uapi/asm-generic/errno-base.h},
 * {@code errno.h}). Datapath calls return {@code -errno.value}; control-path calls throw
 * {@link RdmaException} carrying one of these.
 */
public enum Errno {
    /** {@code EPERM}. */
    EPERM(1),
    /** {@code ENOENT}. */
    ENOENT(2),
    /** {@code EINTR}. */
    EINTR(4),
    /** {@code EIO}. */
    EIO(5),
    /** {@code ENXIO}. */
    ENXIO(6),
    /** {@code E2BIG}. */
    E2BIG(7),
    /** {@code EAGAIN}. */
    EAGAIN(11),
    /** {@code ENOMEM}. */
    ENOMEM(12),
    /** {@code EACCES}. */
    EACCES(13),
    /** {@code EFAULT}. */
    EFAULT(14),
    /** {@code EBUSY}. */
    EBUSY(16),
    /** {@code EEXIST}. */
    EEXIST(17),
    /** {@code ENODEV}. */
    ENODEV(19),
    /** {@code EINVAL}. */
    EINVAL(22),
    /** {@code ENOSPC}. */
    ENOSPC(28),
    /** {@code ERANGE}. */
    ERANGE(34),
    /** {@code ENOSYS}. */
    ENOSYS(38),
    /** {@code ENODATA}. */
    ENODATA(61),
    /** {@code EPROTO}. */
    EPROTO(71),
    /** {@code EMSGSIZE}. */
    EMSGSIZE(90),
    /** {@code EOPNOTSUPP}. */
    EOPNOTSUPP(95),
    /** {@code EADDRINUSE}. */
    EADDRINUSE(98),
    /** {@code EADDRNOTAVAIL}. */
    EADDRNOTAVAIL(99),
    /** {@code ENETUNREACH}. */
    ENETUNREACH(101),
    /** {@code ECONNABORTED}. */
    ECONNABORTED(103),
    /** {@code ECONNRESET}. */
    ECONNRESET(104),
    /** {@code ENOTCONN}. */
    ENOTCONN(107),
    /** {@code ETIMEDOUT}. */
    ETIMEDOUT(110),
    /** {@code ECONNREFUSED}. */
    ECONNREFUSED(111),
    /** {@code EHOSTUNREACH}. */
    EHOSTUNREACH(113),
    /** {@code EALREADY}. */
    EALREADY(114),
    /** {@code EINPROGRESS}. */
    EINPROGRESS(115),
    /** {@code ECANCELED}. */
    ECANCELED(125);

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
