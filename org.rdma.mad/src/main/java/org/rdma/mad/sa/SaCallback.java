package org.rdma.mad.sa;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * The completion of an SA query: the kernel's {@code callback(status, resp, context)}. Status 0
 * with the response, -EINTR when cancelled, -ETIMEDOUT when unanswered, -EINVAL when the SA
 * answered with an error status, -EIO when the send failed; {@code resp} is {@code null} unless 0.
 */
@FunctionalInterface
@ConsumerType
public interface SaCallback<T> {
    /** Called once per query. */
    void done(int status, T resp);
}
