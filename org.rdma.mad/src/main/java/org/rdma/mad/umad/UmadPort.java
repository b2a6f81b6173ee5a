package org.rdma.mad.umad;

import java.util.BitSet;
import org.osgi.annotation.versioning.ProviderType;

/**
 * An open user-MAD port: one {@code /dev/infiniband/umadN} file of ib_umad
 * (drivers/infiniband/core/user_mad.c) with P_Key index support enabled, as libibumad's
 * {@code umad_open_port()} returns it. Up to {@link #MAX_AGENTS} agents register on it; MADs for
 * every agent arrive on one receive queue.
 *
 * <p>Errors are {@code RdmaException}s with the errno the kernel or libibumad returns: EINVAL for
 * bad arguments or a closed port, EIO when the device went away, ETIMEDOUT when
 * {@link #recv(int)} waited in vain. Thread-safe; {@link #recv(int)} may block one thread while
 * others send.
 */
@ProviderType
public interface UmadPort extends AutoCloseable {
    /** {@code IB_UMAD_MAX_AGENTS}: agents per open port. */
    int MAX_AGENTS = 32;
    /** {@code IB_MGMT_RMPP_VERSION}. */
    int RMPP_VERSION = 1;

    /** The CA this port belongs to. */
    String caName();

    /** The port number. */
    int portNum();

    /**
     * {@code umad_register()}: an agent for {@code mgmtClass}/{@code mgmtVersion} on QP0 (the two
     * SMP classes) or QP1 (every other class), receiving requests of the methods in
     * {@code methodMask} ({@code null}: responses to its own requests only).
     *
     * @return the agent id (0..31)
     * @throws org.rdma.verbs.RdmaException EINVAL for a bad class, version or RMPP version; EBUSY
     *         when another agent has one of the methods; ENOMEM when all 32 ids are taken
     */
    int register(int mgmtClass, int mgmtVersion, int rmppVersion, BitSet methodMask);

    /**
     * {@code umad_register_oui()}: an agent for vendor class {@code mgmtClass} (0x30..0x4f) with
     * {@code oui}, class version 1.
     *
     * @return the agent id
     * @throws org.rdma.verbs.RdmaException EINVAL when the class is not a vendor class of range 2
     */
    int registerOui(int mgmtClass, int rmppVersion, int oui, BitSet methodMask);

    /**
     * {@code umad_register2()}: an agent as {@code attr} describes, flags included
     * ({@link UmadRegAttr#UMAD_USER_RMPP} leaves RMPP to the caller).
     *
     * @return the agent id
     */
    int register2(UmadRegAttr attr);

    /**
     * {@code umad_unregister()}: outstanding sends of the agent are flushed; MADs already queued
     * for it stay readable.
     *
     * @throws org.rdma.verbs.RdmaException EINVAL for an id that is not registered
     */
    void unregister(int agentId);

    /**
     * {@code umad_send()}: sends the first {@code length} bytes of {@code mad} (one MAD, or a
     * whole RMPP message for an RMPP class with the ACTIVE flag) to {@code addr}. A request
     * (response bit clear) gets the agent's identity in the high 32 bits of its TID, as ib_umad
     * writes it; with {@code timeoutMs} &gt; 0 it waits for its response and is resent up to
     * {@code retries} times; when none comes, {@link #recv(int)} returns the request's header with
     * status ETIMEDOUT.
     *
     * @return the TID the MAD went out with
     * @throws org.rdma.verbs.RdmaException EINVAL for a bad length, address or a duplicate
     *         outstanding TID; EIO when the agent is not registered or the device is gone
     */
    long send(int agentId, UmadAddr addr, byte[] mad, int length, int timeoutMs, int retries);

    /**
     * {@code umad_recv()}: the next MAD for any agent of this port, waiting up to
     * {@code timeoutMs} (negative: without limit; 0: only what is queued).
     *
     * @throws org.rdma.verbs.RdmaException ETIMEDOUT when nothing arrived in time; EIO when the
     *         device went away; EINVAL when the port is closed
     */
    UserMad recv(int timeoutMs);

    /**
     * {@code umad_poll()}: whether a MAD is ready, waiting up to {@code timeoutMs}.
     *
     * @throws org.rdma.verbs.RdmaException EIO when the device went away
     */
    boolean poll(int timeoutMs);

    /** {@code umad_close_port()}: unregisters every agent and drops what is queued; idempotent. */
    @Override
    void close();
}
