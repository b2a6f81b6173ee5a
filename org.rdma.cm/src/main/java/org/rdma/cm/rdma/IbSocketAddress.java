package org.rdma.cm.rdma;

import java.net.SocketAddress;
import java.util.Objects;
import org.rdma.verbs.Gid;

/**
 * An InfiniBand socket address: {@code struct sockaddr_ib} ({@code AF_IB}). A GID stands for the
 * port, a service ID under a mask for the port number: the port of an {@code AF_IB} address is
 * the low 16 bits of {@code sid & sidMask} ({@code cma_port()}). Immutable.
 */
public final class IbSocketAddress extends SocketAddress {
    private static final long serialVersionUID = 1L;

    private final Gid gid;
    private final int pkey;
    private final int flowinfo;
    private final long sid;
    private final long sidMask;
    private final long scopeId;

    /**
     * @param gid      {@code sib_addr}: the port's GID ({@link Gid#ZERO} for any)
     * @param pkey     {@code sib_pkey}
     * @param flowinfo {@code sib_flowinfo}: traffic class in bits 27..20, flow label in bits 19..0
     * @param sid      {@code sib_sid}: the service ID
     * @param sidMask  {@code sib_sid_mask}
     * @param scopeId  {@code sib_scope_id}
     */
    public IbSocketAddress(Gid gid, int pkey, int flowinfo, long sid, long sidMask, long scopeId) {
        this.gid = Objects.requireNonNull(gid, "gid");
        this.pkey = pkey & 0xFFFF;
        this.flowinfo = flowinfo;
        this.sid = sid;
        this.sidMask = sidMask;
        this.scopeId = scopeId;
    }

    /**
     * The address of {@code port} in {@code ps} at {@code gid}, default P_Key: the service ID is
     * {@code RDMA_IB_IP_PS_*} plus the port, fully masked, as librdmacm's {@code ucma_set_sid()}
     * makes it for {@code rdma_getaddrinfo()} with {@code AF_IB}.
     */
    public static IbSocketAddress of(Gid gid, RdmaPortSpace ps, int port) {
        return new IbSocketAddress(gid, 0xFFFF, 0, ((long) ps.value << 16) | (port & 0xFFFF), ~0L, 0);
    }

    /** The address of the exact service ID {@code sid} at {@code gid}, default P_Key ({@code sib_sid_mask} all ones). */
    public static IbSocketAddress ofServiceId(Gid gid, long sid) {
        return new IbSocketAddress(gid, 0xFFFF, 0, sid, ~0L, 0);
    }

    /** {@code sib_addr}. */
    public Gid gid() {
        return gid;
    }

    /** {@code sib_pkey}. */
    public int pkey() {
        return pkey;
    }

    /** {@code sib_flowinfo}. */
    public int flowinfo() {
        return flowinfo;
    }

    /** {@code sib_sid}. */
    public long sid() {
        return sid;
    }

    /** {@code sib_sid_mask}. */
    public long sidMask() {
        return sidMask;
    }

    /** {@code sib_scope_id}. */
    public long scopeId() {
        return scopeId;
    }

    /** The port number the service ID carries ({@code cma_port()}). */
    public int port() {
        return (int) (sid & sidMask & 0xFFFF);
    }

    /** A copy with another GID. */
    public IbSocketAddress withGid(Gid g) {
        return new IbSocketAddress(g, pkey, flowinfo, sid, sidMask, scopeId);
    }

    /** A copy with another service ID and mask. */
    public IbSocketAddress withSid(long s, long mask) {
        return new IbSocketAddress(gid, pkey, flowinfo, s, mask, scopeId);
    }

    /** A copy with another P_Key. */
    public IbSocketAddress withPkey(int p) {
        return new IbSocketAddress(gid, p, flowinfo, sid, sidMask, scopeId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IbSocketAddress a && a.gid.equals(gid) && a.pkey == pkey && a.flowinfo == flowinfo
                && a.sid == sid && a.sidMask == sidMask && a.scopeId == scopeId;
    }

    @Override
    public int hashCode() {
        return Objects.hash(gid, pkey, sid, sidMask);
    }

    /** {@code GID/sid 0x...}, as librdmacm's tools print an {@code AF_IB} address. */
    @Override
    public String toString() {
        return gid + String.format("/sid 0x%016x", sid);
    }
}
