package org.rdma.cm.rdma;

import org.osgi.dto.DTO;

/**
 * One RDMA CM id as {@link RdmaCmService#ids()} lists it, with the fields {@code rdma res show
 * cm_id} prints.
 */
public class RdmaCmIdDTO extends DTO {
    /** {@code cm-idn}: the id's number. */
    public long cmIdn;
    /** Device name, or {@code null} while unbound. */
    public String device;
    /** Port, 0 while unbound. */
    public int port;
    /** Port space. */
    public RdmaPortSpace ps;
    /** QP type name ({@code RC}, {@code UD} ...). */
    public String qpType;
    /** State. */
    public RdmaCmState state;
    /** The local QP number, 0 without one. */
    public int lqpn;
    /** Source address as {@code addr:port}, or {@code null}. */
    public String srcAddr;
    /** Destination address as {@code addr:port}, or {@code null}. */
    public String dstAddr;
    /** The owner: symbolic name of the bundle that created the id (the kernel's {@code comm}). */
    public String owner;
    /** Whether the CM made the id itself (a wildcard listen's per-device listener). */
    public boolean internal;
}
