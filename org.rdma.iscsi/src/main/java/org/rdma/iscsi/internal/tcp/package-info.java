/**
 * iSCSI over TCP on NIO (RFC 7143 over RFC 793; LIO's iscsi_target_tcp and its network portals):
 * listeners on the portals of target portal groups (IPv4 and IPv6), a few selector threads that
 * serve every connection, back-pressure per connection, digests as negotiated. A connection
 * starts in the login handler it is given and moves to the engine's full feature phase when the
 * login hands it over.
 */
package org.rdma.iscsi.internal.tcp;
