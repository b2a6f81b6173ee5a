package org.rdma.hca.mlx4sim.internal;

import java.util.Locale;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.rdma.fabric.Fabric;
import org.rdma.rvt.RvtRegistration;
import org.rdma.verbs.Errno;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.spi.IbDeviceProvider;
import org.rdma.verbs.time.IbClock;

/**
 * One ConnectX-3 per factory configuration of {@value #PID}: the PCI probe of {@code mlx4_core}
 * followed by {@code mlx4_ib_add()}, publishing the device as an {@link IbDeviceProvider} service
 * for the core to register. Deleting the configuration, losing the fabric or stopping the bundle
 * unregisters the service first (the core then removes the device from its clients and destroys
 * what is left, {@code mlx4_ib_remove()}) and then takes the ports off the fabric.
 */
@Component(configurationPid = Mlx4Component.PID, configurationPolicy = ConfigurationPolicy.REQUIRE, service = {})
@Designate(ocd = Mlx4Config.class, factory = true)
public final class Mlx4Component {
    /** The factory PID. */
    public static final String PID = "org.rdma.hca.mlx4sim";

    private final RvtRegistration registration;

    /**
     * Builds the device and registers the provider.
     *
     * @param context the bundle context
     * @param fabric  the fabric chosen by {@code fabric.target}
     * @param clock   the platform clock
     * @param config  the configuration
     * @param props   the configuration properties
     */
    @Activate
    public Mlx4Component(BundleContext context, @Reference(name = "fabric") Fabric fabric,
                         @Reference(name = "clock") IbClock clock, Mlx4Config config, Map<String, Object> props) {
        Mlx4Device device = new Mlx4Device(params(config, fabric, clock));
        this.registration = RvtRegistration.register(context, device.provider(),
                Map.of("mlx4.node.guid", String.format("%016x", device.nodeGuid()), Fabric.FABRIC_NAME, fabric.name()),
                props, device::close);
    }

    @Deactivate
    void deactivate() {
        registration.close();
    }

    /** Translates the configuration into device parameters. */
    static Mlx4Params params(Mlx4Config c, Fabric fabric, IbClock clock) {
        Mlx4Params p = new Mlx4Params();
        p.fabric = fabric;
        p.clock = clock;
        p.nameTemplate = c.name_template();
        p.hostname = c.hostname();
        p.caSlot = c.ca_slot();
        p.caName = c.ca_name();
        p.switchName = c.switch_name();
        p.ethernetSegment = c.ethernet_segment();
        p.nodeGuid = c.node_guid().isBlank() ? 0 : Long.parseUnsignedLong(c.node_guid().replace(":", "").replace("0x", ""), 16);
        p.baseGuid = Long.parseUnsignedLong(c.base_guid().replace(":", "").replace("0x", ""), 16);
        int n = c.ports();
        if (n < 1 || n > 2) {
            throw new RdmaException(Errno.EINVAL, "ports must be 1 or 2, got " + n);
        }
        p.ports.clear();
        for (int i = 0; i < n; i++) {
            Mlx4Params.PortParams pp = new Mlx4Params.PortParams();
            String ll = i < c.link_layer().length ? c.link_layer()[i] : "ib";
            pp.linkLayer = linkLayer(ll);
            pp.netdev = i < c.netdev().length ? c.netdev()[i] : "";
            pp.vlan = i < c.vlan().length ? c.vlan()[i] : -1;
            pp.switchPort = i < c.switch_ports().length ? c.switch_ports()[i] : 0;
            for (String a : c.ip_addresses()) {
                int colon = a.indexOf(':');
                String port = colon > 0 ? a.substring(0, colon) : "";
                if (port.equals(String.valueOf(i + 1))) {
                    pp.ipAddresses.add(a.substring(colon + 1));
                }
            }
            p.ports.add(pp);
        }
        return p;
    }

    private static LinkLayer linkLayer(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "ib":
            case "infiniband":
                return LinkLayer.INFINIBAND;
            case "eth":
            case "ethernet":
                return LinkLayer.ETHERNET;
            default:
                throw new RdmaException(Errno.EINVAL, "link layer must be ib or eth, got " + s);
        }
    }
}
