/**
 * Attachment of simulated HCA ports to a running ibsim simulator (github.com/linux-rdma/ibsim)
 * in its remote UDP mode: {@link org.rdma.fabric.ibsim.SimCtl}, {@link org.rdma.fabric.ibsim.SimClientInfo}
 * and {@link org.rdma.fabric.ibsim.SimRequest} encode the protocol's structures byte for byte,
 * {@link org.rdma.fabric.ibsim.IbsimClient} is a pure-Java client of it (what umad2sim's
 * {@code sim_client.c} is for libibumad programs), and
 * {@link org.rdma.fabric.ibsim.IbsimAttachments#attach} makes a fabric port a node of the
 * simulated subnet ({@link org.rdma.fabric.ibsim.IbsimAttachment}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.fabric.ibsim;
