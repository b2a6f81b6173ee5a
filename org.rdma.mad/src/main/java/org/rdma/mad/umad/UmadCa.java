package org.rdma.mad.umad;

import java.util.List;

/**
 * A CA as libibumad describes it: {@code umad_ca_t} (libibumad/umad.h), filled from the device's
 * attributes the way the kernel's sysfs files present them.
 *
 * @param caName     {@code ca_name}: the device name
 * @param nodeType   {@code node_type}: 1 CA, 2 switch, 3 router, 4 RNIC (sysfs {@code node_type})
 * @param numports   {@code numports}: ports 1..numports (a switch also has port 0)
 * @param fwVer      {@code fw_ver}: the firmware version text, empty when the driver has none
 * @param caType     {@code ca_type}: sysfs {@code hca_type} (e.g. {@code MT4099}), empty when absent
 * @param hwVer      {@code hw_ver}: sysfs {@code hw_rev} in hexadecimal
 * @param nodeGuid   {@code node_guid}
 * @param systemGuid {@code system_guid}: sysfs {@code sys_image_guid}
 * @param ports      {@code ports[]}: the ports in number order (port 0 first on a switch)
 */
public record UmadCa(String caName, int nodeType, int numports, String fwVer, String caType, String hwVer,
        long nodeGuid, long systemGuid, List<UmadPortAttr> ports) {

    /** Freezes the port list. */
    public UmadCa {
        ports = List.copyOf(ports);
    }

    /** {@code ca->ports[portNum]}, or {@code null} when the CA has no such port. */
    public UmadPortAttr port(int portNum) {
        for (UmadPortAttr p : ports) {
            if (p.portnum() == portNum) {
                return p;
            }
        }
        return null;
    }
}
