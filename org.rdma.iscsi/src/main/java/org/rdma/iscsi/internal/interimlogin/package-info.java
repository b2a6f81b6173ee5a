/**
 * TEMPORARY, to be deleted when the login state machine of package {@code org.rdma.iscsi.login}
 * is merged: a minimal target login (no CHAP) that produces the engine's
 * {@link org.rdma.iscsi.internal.target.LoginOutcome}, so that real initiators can be run against
 * the full feature phase meanwhile.
 */
package org.rdma.iscsi.internal.interimlogin;
