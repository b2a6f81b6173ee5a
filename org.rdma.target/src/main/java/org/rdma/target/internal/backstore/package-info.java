/**
 * Backstores (LIO's {@code target_core_rd.c} and {@code target_core_file.c}): where a device's
 * blocks live. The locking contract: a backstore is safe for concurrent reads and writes of
 * different blocks; overlapping concurrent commands are ordered by the caller (the device's
 * lock for COMPARE AND WRITE, the task queue for ORDERED tasks), as SAM-5 leaves them undefined.
 */
package org.rdma.target.internal.backstore;
