package org.rdma.verbs.runtime;

import java.util.Map;
import org.osgi.dto.DTO;

/** One tracked object ({@code struct rdma_restrack_entry}). */
public class ResourceDTO extends DTO {
    /** Device name. */
    public String device;
    /** {@code pd}, {@code cq}, {@code qp}, {@code srq}, {@code wq}, {@code mr}, {@code mw} or {@code ah}. */
    public String type;
    /** Restrack id, unique per device and type. */
    public long id;
    /** Owner ({@code kern_name}): the bundle or caller that created it. */
    public String owner;
    /** Type-specific attributes in {@code rdma res show} order (e.g. lqpn, type, state for QPs). */
    public Map<String, String> attrs;
}
