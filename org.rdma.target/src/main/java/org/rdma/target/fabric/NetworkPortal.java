package org.rdma.target.fabric;

/**
 * A network portal of a target portal group (LIO's {@code struct iscsi_tpg_np}, targetcli's
 * {@code portals/ADDR:PORT}): where a fabric with network portals (iSCSI) listens for the TPG.
 *
 * @param address an IPv4 or IPv6 literal, without brackets ({@code 0.0.0.0} and {@code ::} are
 *        the wildcards)
 * @param port the TCP port
 * @param iser whether the portal is served by iSER instead of TCP (LIO's {@code np/iser} flag)
 */
public record NetworkPortal(String address, int port, boolean iser) {
    /** The portal as LIO names it: {@code 0.0.0.0:3260}, {@code [::0]:3260}. */
    @Override
    public String toString() {
        return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
    }
}
