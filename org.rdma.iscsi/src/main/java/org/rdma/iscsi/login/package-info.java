/**
 * The iSCSI login phase without sockets (RFC 7143 sections 6.3, 11.12 and 11.13; Linux LIO's
 * iscsi_target_login.c and iscsi_target_nego.c, open-iscsi's login state machine): a
 * {@link org.rdma.iscsi.login.TargetLogin} answers decoded Login Requests with Login Responses, an
 * {@link org.rdma.iscsi.login.InitiatorLogin} makes the requests and checks the responses. Both end
 * with a {@link org.rdma.iscsi.login.LoginResult}: the negotiated operational parameters and the
 * session's identity. The TCP and iSER transports drive the same classes; the target's decisions
 * that need its configuration and session table come through a {@link org.rdma.iscsi.login.LoginPolicy}.
 * The Text Request/Response exchange that follows in a discovery session (SendTargets, answered
 * through a {@link org.rdma.iscsi.login.TargetDirectory}) is here too: {@link
 * org.rdma.iscsi.login.TargetText} and {@link org.rdma.iscsi.login.InitiatorText}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.rdma.iscsi.login;
