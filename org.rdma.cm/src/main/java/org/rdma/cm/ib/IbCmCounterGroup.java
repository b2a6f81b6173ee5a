package org.rdma.cm.ib;

/**
 * The per-port counter groups of the kernel CM (sysfs {@code cm_tx_msgs}, {@code cm_tx_retries},
 * {@code cm_rx_msgs}, {@code cm_rx_duplicates}); each group counts per message attribute ID.
 */
public enum IbCmCounterGroup {
    /** {@code CM_XMIT}: messages sent. */
    XMIT("cm_tx_msgs"),
    /** {@code CM_XMIT_RETRIES}: resends after a response timeout. */
    XMIT_RETRIES("cm_tx_retries"),
    /** {@code CM_RECV}: messages received. */
    RECV("cm_rx_msgs"),
    /** {@code CM_RECV_DUPLICATES}: duplicates received (answered from the last response or dropped). */
    RECV_DUPLICATES("cm_rx_duplicates");

    /** The sysfs group name. */
    public final String sysfsName;

    IbCmCounterGroup(String sysfsName) {
        this.sysfsName = sysfsName;
    }
}
