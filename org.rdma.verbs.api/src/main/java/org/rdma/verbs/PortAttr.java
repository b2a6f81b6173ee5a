package org.rdma.verbs;

/** Port attributes: {@code struct ib_port_attr} ({@code ib_query_port()}). */
public final class PortAttr implements Cloneable {
    /** {@code subnet_prefix} (filled by the core from GID index 0, as {@code ib_query_port()} does). */
    public long subnetPrefix;
    /** {@code state}. */
    public PortState state = PortState.DOWN;
    /** {@code max_mtu}. */
    public Mtu maxMtu = Mtu.MTU_4096;
    /** {@code active_mtu}. */
    public Mtu activeMtu = Mtu.MTU_4096;
    /** {@code phys_mtu} in bytes. */
    public int physMtu = 4096;
    /** {@code gid_tbl_len}. */
    public int gidTblLen;
    /** {@code ip_gids}: the GID table is built from IP addresses (RoCE). */
    public boolean ipGids;
    /** {@code port_cap_flags}: {@link PortCapFlags} bits. */
    public int portCapFlags;
    /** {@code max_msg_sz}. */
    public int maxMsgSz = Integer.MAX_VALUE;
    /** {@code bad_pkey_cntr}. */
    public int badPkeyCntr;
    /** {@code qkey_viol_cntr}. */
    public int qkeyViolCntr;
    /** {@code pkey_tbl_len}. */
    public int pkeyTblLen;
    /** {@code lid}. */
    public int lid;
    /** {@code sm_lid}. */
    public int smLid;
    /** {@code lmc}. */
    public int lmc;
    /** {@code max_vl_num}. */
    public int maxVlNum;
    /** {@code sm_sl}. */
    public int smSl;
    /** {@code subnet_timeout}. */
    public int subnetTimeout;
    /** {@code init_type_reply}. */
    public int initTypeReply;
    /** {@code active_width}. */
    public PortWidth activeWidth = PortWidth.WIDTH_4X;
    /** {@code active_speed}. */
    public PortSpeed activeSpeed = PortSpeed.QDR;
    /** {@code phys_state}. */
    public PhysPortState physState = PhysPortState.DISABLED;
    /** {@code link_layer} as {@code rdma_port_get_link_layer()} reports it. */
    public LinkLayer linkLayer = LinkLayer.INFINIBAND;

    /** A copy. */
    public PortAttr copy() {
        try {
            return (PortAttr) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    protected Object clone() throws CloneNotSupportedException {
        return super.clone();
    }
}
