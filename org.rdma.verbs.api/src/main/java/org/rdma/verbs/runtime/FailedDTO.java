package org.rdma.verbs.runtime;

import org.osgi.dto.DTO;

/** A provider or client service the core could not use, and why. */
public class FailedDTO extends DTO {
    /** The provider's name template is missing or malformed. */
    public static final int FAILURE_REASON_BAD_NAME_TEMPLATE = 1;
    /** A mandatory field or operation is missing. */
    public static final int FAILURE_REASON_MISSING_OPERATION = 2;
    /** Another registered device has the same node GUID. */
    public static final int FAILURE_REASON_DUPLICATE_GUID = 3;
    /** The name (without {@code %d}) is taken. */
    public static final int FAILURE_REASON_NAME_IN_USE = 4;
    /** The driver threw during registration. */
    public static final int FAILURE_REASON_DRIVER_ERROR = 5;
    /** The device was unregistered through {@code IbCore} while its service stays registered. */
    public static final int FAILURE_REASON_UNREGISTERED = 6;
    /** The client has no usable name. */
    public static final int FAILURE_REASON_BAD_CLIENT = 7;

    /** The service id. */
    public long serviceId;
    /** The name template (providers) or client name. */
    public String name;
    /** One of the {@code FAILURE_REASON_*} constants. */
    public int failureReason;
    /** Human-readable detail with the errno. */
    public String message;
}
