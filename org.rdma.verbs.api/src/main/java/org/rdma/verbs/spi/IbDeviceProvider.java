package org.rdma.verbs.spi;

import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.CqInitAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.DeviceModify;
import org.rdma.verbs.Errno;
import org.rdma.verbs.HwStats;
import org.rdma.verbs.IbAh;
import org.rdma.verbs.IbCq;
import org.rdma.verbs.IbMr;
import org.rdma.verbs.IbMw;
import org.rdma.verbs.IbPd;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.IbSrq;
import org.rdma.verbs.IbWq;
import org.rdma.verbs.MrType;
import org.rdma.verbs.MwType;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortModify;
import org.rdma.verbs.QpInitAttr;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.SrqInitAttr;
import org.rdma.verbs.WqInitAttr;

/**
 * One device instance of a driver: {@code struct ib_device_ops} plus the {@code struct ib_device}
 * fields a driver fills ({@link #info()}). Published by the driver as an OSGi service; the core
 * registers it ({@code ib_register_device()}) and unregisters it when the service goes away.
 *
 * <p>Mandatory operations are abstract; optional ones default to {@code EOPNOTSUPP}. Each
 * {@code create}/{@code alloc} receives the core object first (the kernel's pre-allocated
 * {@code struct ib_qp} etc.), so completions and events can name it. Methods throw
 * {@link RdmaException} on failure.
 */
@ConsumerType
public interface IbDeviceProvider {
    /** Name template, driver id, node identity and port count. Must not change while registered. */
    DeviceInfo info();

    /** The core registered the device; {@code ctx} stays valid until {@link #detach()}. */
    void attach(DeviceContext ctx);

    /** The device is fully unregistered: every object was destroyed, no more calls follow. */
    void detach();

    /** {@code ops.query_device}. */
    DeviceAttr queryDevice();

    /** {@code ops.query_port}. */
    PortAttr queryPort(int port);

    /** {@code ops.query_gid} with the slot's type and netdev; {@code null} for an empty slot. */
    GidEntry queryGid(int port, int index);

    /** {@code ops.query_pkey}. */
    int queryPkey(int port, int index);

    /** {@code ops.modify_device}. */
    default void modifyDevice(int mask, DeviceModify modify) {
        throw new RdmaException(Errno.EOPNOTSUPP, "modify_device is not supported");
    }

    /** {@code ops.modify_port}. */
    default void modifyPort(int port, int mask, PortModify modify) {
        throw new RdmaException(Errno.EOPNOTSUPP, "modify_port is not supported");
    }

    /**
     * {@code ops.alloc_hw_port_stats}: the port's hardware counters, named, all 0; called once
     * per port when the device registers. {@code null} (the default): the port has none.
     */
    default HwStats allocHwPortStats(int port) {
        return null;
    }

    /**
     * {@code ops.get_hw_stats}: fills {@code stats.value} for {@code port} with the current
     * counts. Called with the object {@link #allocHwPortStats} returned for that port, never
     * concurrently for one port; allocates nothing.
     *
     * @param index how many counters the caller wants, from the first ({@code num_counters})
     * @return the number of counters filled, or a negative errno
     */
    default int getHwStats(HwStats stats, int port, int index) {
        return -Errno.EOPNOTSUPP.value;
    }

    /** {@code ops.alloc_pd}. */
    ProviderPd allocPd(IbPd pd);

    /** {@code ops.create_ah}; {@code attr} is the core's resolved copy. */
    ProviderAh createAh(IbAh ah, AhAttr attr, int flags);

    /** {@code ops.create_cq}. */
    ProviderCq createCq(IbCq cq, CqInitAttr attr);

    /** {@code ops.create_qp}; updates {@code init.cap} with the sizes allocated. */
    ProviderQp createQp(IbQp qp, ProviderPd pd, QpInitAttr init);

    /** {@code ops.get_dma_mr}: also used for the PD's {@code local_dma_lkey} without {@code IBK_LOCAL_DMA_LKEY}. */
    ProviderMr getDmaMr(IbMr mr, ProviderPd pd, int access);

    /** {@code ops.create_srq}. */
    default ProviderSrq createSrq(IbSrq srq, ProviderPd pd, SrqInitAttr init) {
        throw new RdmaException(Errno.EOPNOTSUPP, "create_srq is not supported");
    }

    /** {@code ops.create_wq}. */
    default ProviderWq createWq(IbWq wq, ProviderPd pd, WqInitAttr init) {
        throw new RdmaException(Errno.EOPNOTSUPP, "create_wq is not supported");
    }

    /** {@code ops.reg_user_mr}: registers {@code buffer} (a slice at position 0) at {@code iova}. */
    default ProviderMr regUserMr(IbMr mr, ProviderPd pd, ByteBuffer buffer, long iova, int access) {
        throw new RdmaException(Errno.EOPNOTSUPP, "reg_user_mr is not supported");
    }

    /** {@code ops.alloc_mr}. */
    default ProviderMr allocMr(IbMr mr, ProviderPd pd, MrType type, int maxNumSg) {
        throw new RdmaException(Errno.EOPNOTSUPP, "alloc_mr is not supported");
    }

    /** {@code ops.alloc_mr_integrity}. */
    default ProviderMr allocMrIntegrity(IbMr mr, ProviderPd pd, int maxNumDataSg, int maxNumMetaSg) {
        throw new RdmaException(Errno.EOPNOTSUPP, "alloc_mr_integrity is not supported");
    }

    /** {@code ops.alloc_mw}. */
    default ProviderMw allocMw(IbMw mw, ProviderPd pd, MwType type) {
        throw new RdmaException(Errno.EOPNOTSUPP, "alloc_mw is not supported");
    }
}
