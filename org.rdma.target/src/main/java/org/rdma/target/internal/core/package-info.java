/**
 * The target core's command path (LIO's target_core_transport.c, target_core_tpg.c,
 * target_core_ua.c): target portal groups with LUNs and node ACLs, sessions (I_T nexuses), the
 * per-device task set honouring task attributes, and unit attentions per I_T_L nexus.
 *
 * <p>Locking: each {@link org.rdma.target.internal.core.TaskSet}, each session's unit attention
 * store and each session's command table has its own monitor; the TPG's LUN and ACL maps are
 * concurrent maps. No lock is held while a fabric callback, the executor or the emulation runs.
 * A command passes through the states of {@link org.rdma.target.internal.core.SeCmd.State}, each
 * transition a compare-and-set, so it completes exactly once.
 */
package org.rdma.target.internal.core;
