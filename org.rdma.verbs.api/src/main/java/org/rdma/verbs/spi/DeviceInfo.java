package org.rdma.verbs.spi;

import org.rdma.verbs.NodeType;

/**
 * What a driver fills in {@code struct ib_device} before {@code ib_register_device()}: the name
 * template, the driver id ({@code ops.driver_id}), node identity and port count.
 */
public final class DeviceInfo {
    /** The name template, e.g. {@code mlx4_%d}; {@code %d} takes the lowest free index. */
    public String nameTemplate;
    /** {@code ops.driver_id} as a name, e.g. {@code mlx4sim}. */
    public String driverId;
    /** {@code node_type}. */
    public NodeType nodeType = NodeType.CA;
    /** {@code node_guid}. */
    public long nodeGuid;
    /** {@code node_desc}. */
    public String nodeDesc = "";
    /** {@code phys_port_cnt}. */
    public int physPortCnt = 1;
    /** {@code local_dma_lkey} when the device sets {@code IBK_LOCAL_DMA_LKEY}. */
    public int localDmaLkey;
}
