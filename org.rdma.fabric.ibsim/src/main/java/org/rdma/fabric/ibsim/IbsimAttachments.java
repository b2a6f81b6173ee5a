package org.rdma.fabric.ibsim;

import java.net.InetSocketAddress;
import java.util.Objects;
import org.rdma.fabric.FabricPort;
import org.rdma.fabric.ibsim.internal.Gateway;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/** Attaches HCA ports to ibsim without OSGi (the component does the same per configuration). */
public final class IbsimAttachments {

    /**
     * Where the simulator is and how to attach.
     *
     * @param server          ibsim's control address ({@code IBSIM_SERVER_NAME}:{@code IBSIM_SERVER_PORT})
     * @param nodeId          the node to attach as ({@code SIM_HOST}): node id or NodeDescription; empty for
     *                        ibsim's default node
     * @param receiveRequests whether ibsim hands this port the QP0/QP1 requests its own node model does not
     *                        answer (GSI requests such as CM REQs; the {@code issm} of CONNECT)
     * @param pollIntervalMs  how often ibsim's PortInfo of the node is read and mirrored into the HCA
     * @param ctlTimeoutMs    how long a control request waits for ibsim's answer
     */
    public record Options(InetSocketAddress server, String nodeId, boolean receiveRequests, long pollIntervalMs,
                          int ctlTimeoutMs) {
        /** Default PortInfo poll interval. */
        public static final long DEFAULT_POLL_INTERVAL_MS = 100;
        /** Default control timeout. */
        public static final int DEFAULT_CTL_TIMEOUT_MS = 1000;

        /**
         * @throws RdmaException {@code EINVAL} for a non-positive interval or timeout
         */
        public Options {
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(nodeId, "nodeId");
            RdmaException.check(pollIntervalMs > 0, Errno.EINVAL,
                    "poll interval must be positive, got " + pollIntervalMs);
            RdmaException.check(ctlTimeoutMs > 0, Errno.EINVAL,
                    "control timeout must be positive, got " + ctlTimeoutMs);
        }

        /**
         * The defaults: receive requests, poll every {@value #DEFAULT_POLL_INTERVAL_MS} ms, control
         * timeout {@value #DEFAULT_CTL_TIMEOUT_MS} ms.
         *
         * @param server ibsim's control address
         * @param nodeId the node to attach as
         * @return the options
         */
        public static Options of(InetSocketAddress server, String nodeId) {
            return new Options(server, nodeId, true, DEFAULT_POLL_INTERVAL_MS, DEFAULT_CTL_TIMEOUT_MS);
        }
    }

    private IbsimAttachments() {
    }

    /**
     * Makes {@code port} the port of ibsim node {@code options.nodeId()}: connects to ibsim
     * (umad2sim's {@code sim_client_init()}), checks that the HCA's node and port GUIDs are the
     * node's, cables a gateway to the port (a CA slot of the port's fabric, named
     * {@code "ibsim-gw <node>/<port>"}) and starts carrying MADs and mirroring ibsim's PortInfo.
     * The HCA must be attached to the port's node and the port uncabled.
     *
     * @param port    an InfiniBand port of a CA whose HCA driver is attached
     * @param options where ibsim is and how to attach
     * @return the attachment; close it to detach
     * @throws RdmaException {@code EINVAL} for a non-IB or switch port or GUIDs that differ from
     *                       ibsim's, {@code EBUSY} for a cabled port, {@code ECONNREFUSED} /
     *                       {@code ENODEV} / {@code ETIMEDOUT} / {@code EIO} from the connection
     */
    public static IbsimAttachment attach(FabricPort port, Options options) {
        return Gateway.attach(port, options);
    }
}
