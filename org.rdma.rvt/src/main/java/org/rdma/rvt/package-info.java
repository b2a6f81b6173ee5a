/**
 * The software RDMA transport shared by drivers (the kernel's rdmavt with rxe's state machines).
 *
 * <p>A driver constructs one {@link org.rdma.rvt.RvtDevice} per device instance with its
 * {@link org.rdma.rvt.RvtDriver} (how packets leave and what the ports look like), publishes it
 * (possibly wrapped) as its {@link org.rdma.verbs.spi.IbDeviceProvider} service, and hands every
 * received transport packet to {@link org.rdma.rvt.RvtDevice#receive}. Packets travel as
 * {@link org.rdma.rvt.RvtPacket} descriptors: transport headers in a byte array, the payload by
 * reference.
 *
 * <p>1.4: {@link org.rdma.rvt.RvtDriver#mcastAdd} and {@link org.rdma.rvt.RvtDriver#mcastDel}, so a
 * driver joins and leaves the groups its QPs attach to.
 *
 * <p>1.1: INTEGRITY MRs ({@link org.rdma.rvt.RvtDevice#allocMrIntegrity}); rvt devices advertise
 * {@code IBK_INTEGRITY_HANDOVER} by default.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.4.0")
package org.rdma.rvt;
