package org.rdma.verbs.runtime;

import org.osgi.dto.DTO;

/** A port of a registered device. */
public class PortDTO extends DTO {
    /** Port number. */
    public int port;
    /** Port state name, e.g. {@code ACTIVE}. */
    public String state;
    /** Physical state name, e.g. {@code LINK_UP}. */
    public String physState;
    /** {@code InfiniBand} or {@code Ethernet}. */
    public String linkLayer;
    /** Base LID. */
    public int lid;
    /** SM LID. */
    public int smLid;
    /** LMC. */
    public int lmc;
    /** Maximum MTU in bytes. */
    public int maxMtu;
    /** Active MTU in bytes. */
    public int activeMtu;
    /** Active width, e.g. {@code 4X}. */
    public String width;
    /** Active speed name, e.g. {@code QDR}. */
    public String speed;
    /** Capability mask. */
    public int capabilityMask;
    /** Bound network interface, or null. */
    public String netdev;
    /** Non-empty GIDs, as index=gid. */
    public String[] gids;
    /** P_Key table (non-zero entries). */
    public int[] pkeys;
}
