package org.rdma.verbs.runtime;

import org.osgi.dto.DTO;

/** A registered device. */
public class DeviceDTO extends DTO {
    /** {@code ib_device.index}: the number {@code rdma dev} prints; never reused while the core runs. */
    public int index;
    /** Device name. */
    public String name;
    /** Driver id. */
    public String driverId;
    /** Service id of the driver's provider service. */
    public long providerServiceId;
    /** Node type name. */
    public String nodeType;
    /** Node GUID. */
    public long nodeGuid;
    /** System image GUID. */
    public long sysImageGuid;
    /** Node description. */
    public String nodeDesc;
    /** Firmware version. */
    public long fwVer;
    /** PCI vendor id. */
    public int vendorId;
    /** Vendor part id. */
    public int vendorPartId;
    /** Hardware version. */
    public int hwVer;
    /** {@code REGISTERED} or {@code UNREGISTERING}. */
    public String state;
    /**
     * References held: 1 for the registration itself, one per client the device is added to
     * (as each {@code client_data} entry holds one in the kernel), plus one per
     * {@code ib_device_get_by_name()} not yet put.
     */
    public int refCount;
    /** Ports in order. */
    public PortDTO[] ports;
    /** Clients added to this device, in registration order. */
    public String[] clients;
}
