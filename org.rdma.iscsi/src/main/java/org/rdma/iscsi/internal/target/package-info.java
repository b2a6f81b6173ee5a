/**
 * The iSCSI target engine's full feature phase (Linux LIO's iscsi_target.c, iscsi_target_erl0.c,
 * iscsi_target_tmr.c, iscsi_target_datain_values.c, iscsi_target_nodeattrib.c): sessions (I_T
 * nexuses over the target core's fabric SPI) and connections with the state machines of RFC 7143
 * section 8, CmdSN ordering and windowing, R2T/Data-Out and Data-In, SCSI responses, NOP,
 * task management, text (SendTargets), logout and asynchronous messages, Reject.
 *
 * <p>Locking, written once here. Each connection's inbound PDUs are handled by one thread at a
 * time (its transport's reader). The target core may call back on any thread. Three locks, always
 * taken in this order and never while calling the target core: a command's own monitor (its
 * data-out bookkeeping), a connection's transmit lock (StatSN assignment and the order PDUs reach
 * the transport), a session's monitor (CmdSN window, tasks, connections). The transport's
 * {@code sendPdu} only queues; it never calls back into the engine.
 */
package org.rdma.iscsi.internal.target;
