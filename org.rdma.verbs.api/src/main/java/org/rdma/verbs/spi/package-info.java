/**
 * The driver SPI: what a driver implements per device ({@code struct ib_device_ops}) and the
 * upcalls the core offers it. A driver publishes one {@link org.rdma.verbs.spi.IbDeviceProvider}
 * service per device instance; the core is the only caller of provider methods, and wraps each
 * provider object in the core-owned verbs object consumers see.
 *
 * <p>1.2: {@code ops.alloc_hw_port_stats} and {@code ops.get_hw_stats}.
 *
 * <p>1.1: {@code ops.check_mr_status} and the signature attributes of the MR being mapped.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rdma.verbs.spi;
