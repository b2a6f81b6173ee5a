/**
 * The target core's command path (LIO's target_core_transport.c, target_core_tpg.c,
 * target_core_ua.c, target_core_tmr.c): target portal groups with LUNs and node ACLs, sessions
 * (I_T nexuses), the per-device task set honouring task attributes, unit attentions per I_T_L
 * nexus, and task management.
 *
 * <p>Locking: each {@link org.rdma.target.internal.core.TaskSet}, each session's unit attention
 * store, command table and set of task management tags, and each command has its own monitor;
 * the TPG's LUN and ACL maps are concurrent maps. No lock is held while a fabric callback, the
 * executor or the emulation runs, and no monitor is taken while another is held but a task
 * set's or a unit attention store's, which take none. A command passes through the states of
 * {@link org.rdma.target.internal.core.SeCmd.State}, each transition under its monitor, so it
 * completes or is aborted exactly once.
 */
package org.rdma.target.internal.core;
