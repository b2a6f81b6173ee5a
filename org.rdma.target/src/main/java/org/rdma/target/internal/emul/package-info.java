/**
 * SPC-4 and SBC-3 command emulation (LIO's {@code target_core_spc.c} and
 * {@code target_core_sbc.c}): one {@link org.rdma.target.internal.emul.CommandTable} of every
 * supported operation code with its CDB usage bits (reserved-bit checks and REPORT SUPPORTED
 * OPERATION CODES read the same table), a parse step that checks the CDB and fixes the data
 * direction and length, and an execute step that runs once the data-out buffer is filled.
 */
package org.rdma.target.internal.emul;
