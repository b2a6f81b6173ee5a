package org.rdma.verbs.runtime;

import org.osgi.dto.DTO;

/** A registered client. */
public class ClientDTO extends DTO {
    /** {@code client->name}. */
    public String name;
    /** The client's service id. */
    public long serviceId;
    /** {@code client->client_id}: the registration order. */
    public int clientId;
    /** Devices this client was added to (add returned 0). */
    public String[] devices;
}
