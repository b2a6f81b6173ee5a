package org.rdma.iscsi.login;

/**
 * The sequence numbers every target response of the full feature phase carries (RFC 7143 11.4.4,
 * 11.4.5): the connection's StatSN and the session's command window; the session owns them.
 */
public record ResponseNumbers(int statSn, int expCmdSn, int maxCmdSn) {
}
