/**
 * The core's runtime view, as the HTTP and JAX-RS whiteboards publish theirs: registered
 * devices, clients in order, every provider or client the core could not use (with the reason),
 * and the resource tracker behind {@code rdma res}. All data are DTOs. {@link DriverLoader}
 * loads and unloads drivers by name (1.2).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rdma.verbs.runtime;
