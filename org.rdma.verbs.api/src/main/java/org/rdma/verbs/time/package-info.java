/**
 * Time for every protocol timer of the platform (RC retransmit and RNR timers, MAD retries, CM
 * and SA timeouts): the kernel's {@code jiffies}, {@code mod_timer()} and delayed work behind
 * one interface, with a real-time implementation for production and a virtual-time one that
 * tests advance explicitly.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.verbs.time;
