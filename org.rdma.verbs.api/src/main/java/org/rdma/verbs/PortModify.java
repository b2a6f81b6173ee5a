package org.rdma.verbs;

/** {@code struct ib_port_modify} with its mask bits ({@code ib_modify_port()}). */
public final class PortModify {
    /** {@code IB_PORT_SHUTDOWN}. */
    public static final int SHUTDOWN = 1;
    /** {@code IB_PORT_INIT_TYPE}. */
    public static final int INIT_TYPE = 1 << 2;
    /** {@code IB_PORT_RESET_QKEY_CNTR}. */
    public static final int RESET_QKEY_CNTR = 1 << 3;
    /** {@code IB_PORT_OPA_MASK_CHG}. */
    public static final int OPA_MASK_CHG = 1 << 4;

    /** {@code set_port_cap_mask}. */
    public int setPortCapMask;
    /** {@code clr_port_cap_mask}. */
    public int clrPortCapMask;
    /** {@code init_type}. */
    public int initType;

    /**
     * A modification that sets ({@code on}) or clears PortInfo:CapabilityMask bits
     * {@code capBits} ({@link PortCapFlags}), as the CM does for IsCM ({@code cm_add_one()}) and
     * the umad issm device for IsSM ({@code ib_umad_sm_open()}).
     */
    public static PortModify capability(int capBits, boolean on) {
        PortModify m = new PortModify();
        if (on) {
            m.setPortCapMask = capBits;
        } else {
            m.clrPortCapMask = capBits;
        }
        return m;
    }
}
