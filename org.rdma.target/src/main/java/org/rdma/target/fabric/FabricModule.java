package org.rdma.target.fabric;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * What the target core must know of a fabric before any of its targets is configured (LIO's
 * fabric module as rtslib describes it: name, accepted WWN types, features). Registered as an
 * OSGi service with the property {@link #FABRIC}; a target of a fabric without a registered
 * module stays configured but is not built.
 *
 * <p>{@code org.rdma.target} registers the module of {@code iscsi} itself, so that iSCSI
 * targets are built from the configuration whether or not the iSCSI engine has started; a
 * fabric bundle of another name (SRP: {@code srpt}) registers its own. The engine of a fabric
 * then follows its TPGs as {@link FabricTpg} services.
 */
@ConsumerType
public interface FabricModule {
    /** The service property naming the fabric (a String, e.g. {@code "iscsi"}). */
    String FABRIC = "target.fabric";

    /** The fabric's name, the first element of targetcli's paths ({@code iscsi}, {@code srpt}). */
    String name();

    /** The SPC-4 protocol identifier of the fabric's ports (SPC-4 table 362: 4 SRP, 5 iSCSI). */
    int protocolId();

    /**
     * The canonical form of a target or initiator name of this fabric (rtslib's
     * {@code normalize_wwn()}: iSCSI names in lower case).
     *
     * @throws TargetException {@code EINVAL} for a name the fabric does not accept
     */
    String normalizeWwn(String wwn);

    /**
     * The TCP port of a network portal created without one (3260 for iSCSI), or 0 when the
     * fabric's TPGs have no network portals (rtslib's {@code nps} feature).
     */
    int defaultPort();
}
