package org.rdma.target.internal.pr;

import java.util.Locale;

/**
 * An I_T nexus as reservations name it (SAM-5 4.7): the initiator port, by the initiator's SCSI
 * device name and, where the transport has one, its initiator session identifier (iSCSI's ISID,
 * LIO's {@code pr_reg_isid}), and the target port by name. A registration made from a
 * TransportID without an ISID has a null {@link #isid} and stands for every initiator port of
 * that device (LIO's {@code isid_present_at_reg} clear).
 *
 * @param initiatorName the initiator's SCSI device name (an iSCSI name)
 * @param isid the ISID as 12 lower-case hex digits, or null
 * @param targetPortName the SCSI target port name ({@code iqn...,t,0x0001} for iSCSI)
 */
public record ItNexus(String initiatorName, String isid, String targetPortName) {
    /** The separator between the iSCSI name and the ISID of an initiator port name (SPC-4 7.6.4.6). */
    public static final String ISID_SEPARATOR = ",i,0x";

    /**
     * The nexus of a session: the ISID is taken from an iSCSI initiator port name
     * ({@code NAME,i,0xISID}); other port names carry none.
     */
    public static ItNexus of(String initiatorName, String initiatorPortName, String targetPortName) {
        String prefix = initiatorName + ISID_SEPARATOR;
        String isid = initiatorPortName.startsWith(prefix)
                ? initiatorPortName.substring(prefix.length()).toLowerCase(Locale.ROOT) : null;
        return new ItNexus(initiatorName, isid, targetPortName);
    }

    /** This nexus through another target port (ALL_TG_PT registrations, REGISTER AND MOVE). */
    public ItNexus atPort(String port) {
        return new ItNexus(initiatorName, isid, port);
    }

    @Override
    public String toString() {
        return initiatorName + (isid == null ? "" : ISID_SEPARATOR + isid) + " -> " + targetPortName;
    }
}
