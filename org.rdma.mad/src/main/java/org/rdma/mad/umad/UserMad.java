package org.rdma.mad.umad;

import java.util.Arrays;
import org.rdma.verbs.Errno;

/**
 * A MAD read from a user-MAD port: {@code struct ib_user_mad} (libibumad's {@code ib_user_mad_t}),
 * what {@code umad_recv()} returns. A request that received no response comes back with
 * {@link #status()} {@code ETIMEDOUT} and only its 24-byte common header, as {@code ib_umad}'s
 * {@code send_handler()} queues it.
 *
 * @param agentId {@code agent_id}: the registration it arrived for
 * @param status  {@code status}: 0, or a positive errno ({@code ETIMEDOUT})
 * @param addr    {@code addr}: where it came from (or, for a timeout, where the request went)
 * @param data    {@code data}: the MAD; for an RMPP transfer the reassembled message
 */
public record UserMad(int agentId, int status, UmadAddr addr, byte[] data) {

    /** Copies the data. */
    public UserMad {
        data = data.clone();
    }

    /** {@code data}, copied. */
    @Override
    public byte[] data() {
        return data.clone();
    }

    /** {@code length}: bytes of {@link #data()}. */
    public int length() {
        return data.length;
    }

    /** {@code umad_status()} as an errno, or {@code null} for 0. */
    public Errno errno() {
        return status == 0 ? null : Errno.of(status);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UserMad u && u.agentId == agentId && u.status == status && u.addr.equals(addr)
                && Arrays.equals(u.data, data);
    }

    @Override
    public int hashCode() {
        return (agentId * 31 + status) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "UserMad[agent=" + agentId + " status=" + status + " len=" + data.length + " " + addr + "]";
    }
}
