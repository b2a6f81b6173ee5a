package org.rdma.verbs.runtime;

import org.osgi.dto.DTO;

/** The whiteboard's state. */
public class RuntimeDTO extends DTO {
    /** Registered devices, in registration order. */
    public DeviceDTO[] devices;
    /** Registered clients, in registration order. */
    public ClientDTO[] clients;
    /** Provider services the core could not use. */
    public FailedDTO[] failedProviders;
    /** Client services the core could not use. */
    public FailedDTO[] failedClients;
}
