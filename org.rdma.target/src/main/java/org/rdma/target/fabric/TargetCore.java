package org.rdma.target.fabric;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** The SCSI target core as a service: how a fabric finds its target portal groups. */
@ProviderType
public interface TargetCore {
    /** The TPG of a fabric's target, if configured. */
    Optional<FabricTpg> tpg(String fabric, String targetName, int tag);

    /** Every TPG of a fabric (iSCSI's SendTargets), in the order they were created. */
    List<FabricTpg> tpgs(String fabric);
}
