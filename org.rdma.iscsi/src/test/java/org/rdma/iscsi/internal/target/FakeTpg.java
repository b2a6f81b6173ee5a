package org.rdma.iscsi.internal.target;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.fabric.FabricOps;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.fabric.TargetException;

/**
 * A TPG whose nexus records what the engine hands it: commands are kept (never completed), task
 * management functions answered with {@link #tmfResponse}. For the engine's own part of task
 * management, whatever the target core does with the function.
 */
final class FakeTpg implements FabricTpg {
    record Tmr(TmfFunction function, long lun, long tag, long referencedTag) {
    }

    final List<Long> submitted = new ArrayList<>();
    final List<Tmr> tmrs = new ArrayList<>();
    TmfResponse tmfResponse = TmfResponse.FUNCTION_COMPLETE;
    FabricOps ops;
    boolean closed;

    @Override
    public String fabric() {
        return IscsiTarget.FABRIC;
    }

    @Override
    public String targetName() {
        return Harness.IQN;
    }

    @Override
    public int tag() {
        return 1;
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public List<NetworkPortal> portals() {
        return List.of();
    }

    @Override
    public int attribute(String name) {
        throw new TargetException("ENOENT", "no TPG attribute " + name + " in this fake");
    }

    @Override
    public Optional<ChapCredentials> chapCredentials(String initiatorName) {
        return Optional.empty();
    }

    @Override
    public FabricSession openSession(String initiatorName, String initiatorPortName, FabricOps fabricOps) {
        ops = fabricOps;
        return new FabricSession() {
            @Override
            public String initiatorName() {
                return initiatorName;
            }

            @Override
            public String initiatorPortName() {
                return initiatorPortName;
            }

            @Override
            public FabricTpg tpg() {
                return FakeTpg.this;
            }

            @Override
            public FabricCommand submit(long lun, byte[] cdb, long tag, TaskAttribute attribute, int expectedLength,
                    DataDirection expectedDirection) {
                submitted.add(tag);
                return null;
            }

            @Override
            public void submitTmr(TmfFunction function, long lun, long tag, long referencedTag) {
                tmrs.add(new Tmr(function, lun, tag, referencedTag));
                ops.queueTmResponse(tag, function, tmfResponse);
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
