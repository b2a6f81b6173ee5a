package org.rdma.iscsi.login;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;
import org.rdma.iscsi.text.TextPair;

/**
 * What SendTargets reports (RFC 7143 Appendix C; LIO's iscsit_build_sendtargets_response()):
 * for "All" (discovery sessions), an iSCSI name, or the empty value (the session's own target), the
 * TargetName pairs, each followed by its TargetAddress pairs ({@code address[:port],tpgt}), of the
 * targets {@code session}'s initiator may see. Called on the thread that drives the connection.
 */
@ConsumerType
@FunctionalInterface
public interface TargetDirectory {
    List<TextPair> sendTargets(SessionIdentity session, String value);
}
