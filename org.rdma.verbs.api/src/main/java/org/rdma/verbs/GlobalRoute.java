package org.rdma.verbs;

/**
 * The GRH part of an address: {@code struct ib_global_route}. {@link #sgidAttr} is a held
 * reference managed by the {@link AhAttr} copy/replace/move/destroy helpers.
 */
public final class GlobalRoute {
    /** {@code sgid_attr}: the source GID entry, held while this route refers to it. */
    public GidAttr sgidAttr;
    /** {@code dgid}. */
    public Gid dgid = Gid.ZERO;
    /** {@code flow_label} (20 bits). */
    public int flowLabel;
    /** {@code sgid_index}. */
    public int sgidIndex;
    /** {@code hop_limit}. */
    public int hopLimit;
    /** {@code traffic_class}. */
    public int trafficClass;

    void copyFieldsFrom(GlobalRoute src) {
        sgidAttr = src.sgidAttr;
        dgid = src.dgid;
        flowLabel = src.flowLabel;
        sgidIndex = src.sgidIndex;
        hopLimit = src.hopLimit;
        trafficClass = src.trafficClass;
    }
}
