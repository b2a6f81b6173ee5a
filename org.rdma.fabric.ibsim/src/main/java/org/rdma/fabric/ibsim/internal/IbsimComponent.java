package org.rdma.fabric.ibsim.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Hashtable;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.FabricNode;
import org.rdma.fabric.ibsim.IbsimAttachment;
import org.rdma.fabric.ibsim.IbsimAttachments;
import org.rdma.verbs.Errno;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.IbRuntime;

/**
 * One {@link IbsimAttachment} per factory configuration of {@value #PID}: finds the configured
 * device's node on the fabric by its node GUID, attaches the port and publishes the attachment
 * as a service (properties {@value #NODE}, {@value #CLIENT_ID}, the device name and port).
 * Deleting the configuration, or losing the device or the fabric, detaches.
 */
@Component(configurationPid = IbsimComponent.PID, configurationPolicy = ConfigurationPolicy.REQUIRE, service = {})
@Designate(ocd = IbsimConfig.class, factory = true)
public final class IbsimComponent {
    /** The factory PID. */
    public static final String PID = "org.rdma.fabric.ibsim";
    /** Service property: the ibsim node id. */
    public static final String NODE = "ibsim.node";
    /** Service property: the ibsim client index. */
    public static final String CLIENT_ID = "ibsim.client.id";
    /** Service property: the device port. */
    public static final String PORT = "rdma.device.port";

    private final IbsimAttachment attachment;
    private final ServiceRegistration<IbsimAttachment> registration;

    /**
     * Attaches and registers.
     *
     * @param context the bundle context
     * @param fabric  the fabric chosen by {@code fabric.target}
     * @param device  the device chosen by {@code device.target}
     * @param config  the configuration
     */
    @Activate
    public IbsimComponent(BundleContext context, @Reference(name = "fabric") Fabric fabric,
                          @Reference(name = "device") IbDevice device, IbsimConfig config) {
        FabricNode node = fabric.findNode(device.nodeGuid()).orElseThrow(() -> new RdmaException(Errno.ENODEV,
                String.format("device %s (node GUID %016x) is not on fabric %s", device.name(), device.nodeGuid(),
                        fabric.name())));
        this.attachment = IbsimAttachments.attach(node.port(config.port()), options(config));
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(NODE, attachment.nodeId());
        props.put(CLIENT_ID, attachment.clientId());
        props.put(IbRuntime.DEVICE_NAME, device.name());
        props.put(PORT, config.port());
        props.put(Fabric.FABRIC_NAME, fabric.name());
        ServiceRegistration<IbsimAttachment> reg;
        try {
            reg = context.registerService(IbsimAttachment.class, attachment, props);
        } catch (RuntimeException e) {
            attachment.close();
            throw e;
        }
        this.registration = reg;
    }

    static IbsimAttachments.Options options(IbsimConfig c) {
        InetAddress host;
        try {
            host = InetAddress.getByName(c.server_host());
        } catch (UnknownHostException e) {
            throw new RdmaException(Errno.EINVAL, "cannot resolve ibsim host " + c.server_host(), e);
        }
        RdmaException.check(c.server_port() > 0 && c.server_port() <= 0xFFFF - 11, Errno.EINVAL,
                "ibsim port must leave room for its 10 client ports, got " + c.server_port());
        return new IbsimAttachments.Options(new InetSocketAddress(host, c.server_port()), c.node(),
                c.receive_requests(), c.poll_interval_ms(), c.ctl_timeout_ms());
    }

    @Deactivate
    void deactivate() {
        try {
            registration.unregister();
        } catch (IllegalStateException alreadyGone) {
            // the bundle is stopping
        }
        attachment.close();
    }
}
