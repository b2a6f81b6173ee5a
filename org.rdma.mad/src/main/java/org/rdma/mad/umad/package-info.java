/**
 * The user-MAD interface for management tools: libibumad over {@code ib_umad}
 * (drivers/infiniband/core/user_mad.c, include/uapi/rdma/ib_user_mad.h). A tool lists the CAs and
 * their ports ({@code umad_get_cas_names()}, {@code umad_get_ca()}, {@code umad_get_port()}),
 * opens a port ({@code umad_open_port()}), registers agents for the management classes it speaks
 * ({@code umad_register()}), and sends and receives raw MADs with an address
 * ({@code umad_send()}, {@code umad_recv()}). Requests that get no answer come back from
 * {@code umad_recv()} with status {@code ETIMEDOUT}, as {@code ib_umad} reports them.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.mad.umad;
