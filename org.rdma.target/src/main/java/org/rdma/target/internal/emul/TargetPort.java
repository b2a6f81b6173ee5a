package org.rdma.target.internal.emul;

/**
 * The SCSI target port a command arrived through, for the designators of VPD page 0x83.
 *
 * @param protocolId the SPC-4 protocol identifier (table 362: 4 SRP, 5 iSCSI)
 * @param targetName the SCSI target device name (an IQN for iSCSI)
 * @param portName the SCSI target port name ({@code iqn...,t,0x0001} for iSCSI)
 * @param relativePortId the RELATIVE TARGET PORT IDENTIFIER, 1..65535
 */
public record TargetPort(int protocolId, String targetName, String portName, int relativePortId) {
}
