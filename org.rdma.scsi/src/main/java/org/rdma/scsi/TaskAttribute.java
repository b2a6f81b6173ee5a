package org.rdma.scsi;

/**
 * The task attributes of SAM-5 8.6; each fabric maps its own codes to these (iSCSI's ATTR field,
 * SRP's TASK ATTRIBUTE). LIO's {@code TCM_SIMPLE_TAG}...{@code TCM_ACA_TAG}.
 */
public enum TaskAttribute {
    /** 8.6.2: may run in any order with other SIMPLE tasks, after earlier ORDERED ones. */
    SIMPLE,
    /** 8.6.3: runs after every earlier task and before every later one, HEAD OF QUEUE aside. */
    ORDERED,
    /** 8.6.4: runs before every task that is not yet running. */
    HEAD_OF_QUEUE,
    /** 8.6.5: only while an ACA condition is established. */
    ACA
}
