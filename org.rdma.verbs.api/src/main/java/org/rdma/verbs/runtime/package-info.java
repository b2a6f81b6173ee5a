/**
 * The core's runtime view, as the HTTP and JAX-RS whiteboards publish theirs: registered
 * devices, clients in order, every provider or client the core could not use (with the reason),
 * and the resource tracker behind {@code rdma res}. All data are DTOs.
 *
 * <p>1.2: {@link org.rdma.verbs.runtime.IbRuntime#hwStats}, the ports' hardware counters, and
 * {@link DriverLoader}, which loads and unloads drivers by name.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rdma.verbs.runtime;
