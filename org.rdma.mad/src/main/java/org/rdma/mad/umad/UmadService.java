package org.rdma.mad.umad;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The entry points of libibumad (libibumad/umad.c) over the devices of this runtime: what
 * {@code /sys/class/infiniband} and {@code /dev/infiniband/umadN} give a tool on Linux.
 *
 * <p>A {@code null} CA name, or port 0, selects as libibumad's {@code resolve_ca_name()} and
 * {@code resolve_ca_port()} do: the first CA with an ACTIVE port (else the first one with a port
 * whose physical state is LinkUp, else the first CA), and its first ACTIVE port (else LinkUp, else
 * port 1). An unknown CA is {@code ENODEV}, a port the CA does not have {@code EINVAL}.
 */
@ProviderType
public interface UmadService {
    /** {@code UMAD_MAX_DEVICES}: the most CAs {@link #getCasNames()} lists. */
    int UMAD_MAX_DEVICES = 32;

    /** {@code umad_get_cas_names()}: the CA names, in registration order. */
    List<String> getCasNames();

    /**
     * {@code umad_get_ca()}: the CA and all its ports.
     *
     * @throws org.rdma.verbs.RdmaException ENODEV when there is no such CA (or none at all)
     */
    UmadCa getCa(String caName);

    /**
     * {@code umad_get_port()}: one port of a CA; {@code caName} {@code null} and {@code portNum} 0
     * resolve to the default.
     *
     * @throws org.rdma.verbs.RdmaException ENODEV for an unknown CA, EINVAL for a port it lacks
     */
    UmadPortAttr getPort(String caName, int portNum);

    /**
     * {@code umad_get_ca_portguids()}: the port GUIDs of a CA indexed by port number; entry 0 is
     * the GUID of a switch's port 0 and 0 on a CA.
     *
     * @throws org.rdma.verbs.RdmaException ENODEV for an unknown CA
     */
    long[] getCaPortguids(String caName);

    /**
     * {@code umad_open_port()}: a user-MAD handle on a port ({@code open("/dev/infiniband/umadN")}
     * with {@code IB_USER_MAD_ENABLE_PKEY}). Close it to release its agents.
     *
     * @throws org.rdma.verbs.RdmaException ENODEV for an unknown CA, EINVAL for a port it lacks,
     *         ENODEV when the port has no management QPs
     */
    UmadPort openPort(String caName, int portNum);
}
