package org.rdma.iscsi.internal.target;

import java.util.concurrent.TimeUnit;

/**
 * The engine's own tunables (LIO's TPG attributes {@code default_cmdsn_depth},
 * {@code nopin_timeout}, {@code nopin_response_timeout}, and the logout deadline its asynchronous
 * logout request names).
 *
 * @param cmdSnDepth how many non-immediate commands a session may have outstanding: the distance
 *     of MaxCmdSN from ExpCmdSN while none is
 * @param nopInIntervalNanos idle time on a connection before the target pings it with a NOP-In
 * @param nopInTimeoutNanos how long the answering NOP-Out may take before the connection is dropped
 * @param logoutTimeoutSeconds Parameter3 of an asynchronous logout request: how long the
 *     initiator has to log out before the target drops the connection
 */
public record TargetSettings(int cmdSnDepth, long nopInIntervalNanos, long nopInTimeoutNanos, int logoutTimeoutSeconds) {
    /** LIO's defaults: depth 64, a ping after 15 s idle answered within 30 s; 10 s to log out. */
    public static final TargetSettings DEFAULTS = new TargetSettings(64, TimeUnit.SECONDS.toNanos(15),
            TimeUnit.SECONDS.toNanos(30), 10);

    public TargetSettings {
        if (cmdSnDepth < 1 || cmdSnDepth > 1 << 16 || nopInIntervalNanos <= 0 || nopInTimeoutNanos <= 0
                || logoutTimeoutSeconds < 0 || logoutTimeoutSeconds > 0xffff) {
            throw new IllegalArgumentException("EINVAL: settings out of range: " + cmdSnDepth + ", "
                    + nopInIntervalNanos + ", " + nopInTimeoutNanos + ", " + logoutTimeoutSeconds);
        }
    }
}
