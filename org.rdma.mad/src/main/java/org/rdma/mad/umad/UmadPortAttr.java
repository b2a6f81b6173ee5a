package org.rdma.mad.umad;

import java.util.List;

/**
 * A port as libibumad describes it: {@code umad_port_t} (libibumad/umad.h), the values of the
 * port's sysfs files ({@code lid}, {@code lid_mask_count}, {@code sm_lid}, {@code state},
 * {@code rate}, {@code cap_mask}, {@code link_layer} ...) parsed as {@code umad_get_port()} does.
 *
 * @param caName    {@code ca_name}
 * @param portnum   {@code portnum}
 * @param baseLid   {@code base_lid}
 * @param lmc       {@code lmc}
 * @param smLid     {@code sm_lid}
 * @param smSl      {@code sm_sl}
 * @param state     {@code state}: 1 Down, 2 Initializing, 3 Armed, 4 Active
 * @param physState {@code phys_state}: 1 Sleep, 2 Polling, 3 Disabled, 5 LinkUp ...
 * @param rate      {@code rate}: Gb/s as the integer part of sysfs {@code rate} (2 for 2.5)
 * @param capmask   {@code capmask}: PortInfo:CapabilityMask (host order)
 * @param gidPrefix {@code gid_prefix}: of GID 0
 * @param portGuid  {@code port_guid}: interface ID of GID 0
 * @param pkeys     {@code pkeys}: the P_Key table
 * @param linkLayer {@code link_layer}: {@code InfiniBand} or {@code Ethernet}
 */
public record UmadPortAttr(String caName, int portnum, int baseLid, int lmc, int smLid, int smSl, int state,
        int physState, int rate, int capmask, long gidPrefix, long portGuid, List<Integer> pkeys, String linkLayer) {

    /** Freezes the P_Key table. */
    public UmadPortAttr {
        pkeys = List.copyOf(pkeys);
    }
}
