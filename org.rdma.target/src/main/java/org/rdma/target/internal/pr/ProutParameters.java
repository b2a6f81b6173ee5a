package org.rdma.target.internal.pr;

import java.util.ArrayList;
import java.util.List;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;

/**
 * A PERSISTENT RESERVE OUT parameter list (SPC-4 6.16.3, table 207, and 6.16.4, table 209 for
 * REGISTER AND MOVE), checked as LIO's {@code target_scsi3_emulate_pr_out()} checks it.
 *
 * @param transportIds the SPEC_I_PT TransportIDs, or REGISTER AND MOVE's one TransportID
 */
record ProutParameters(long key, long serviceActionKey, boolean specIPt, boolean allTgPt, boolean aptpl, boolean unreg,
        int relativePortId, List<TransportId> transportIds) {
    /** Where the SPEC_I_PT TransportIDs start. */
    static final int TRANSPORT_IDS = 28;
    /** Where REGISTER AND MOVE's TransportID starts. */
    static final int MOVE_TRANSPORT_ID = 24;
    private static final int BASIC_LENGTH = 24;

    /**
     * Decodes and checks a parameter list.
     *
     * @param persistent whether APTPL can be honoured (PTPL_C)
     * @throws ScsiException ILLEGAL REQUEST: PARAMETER LIST LENGTH ERROR for a list shorter than 24
     *         bytes or, without SPEC_I_PT, other than 24 bytes (REGISTER AND MOVE aside); INVALID
     *         FIELD IN PARAMETER LIST for SPEC_I_PT on another service action, a TransportID length
     *         that does not match the list, a bad TransportID, or APTPL without PTPL_C
     */
    static ProutParameters decode(int serviceAction, byte[] p, boolean persistent) throws ScsiException {
        if (p.length < BASIC_LENGTH) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
        }
        long key = Cdb.get(p, 0, 8);
        long sark = Cdb.get(p, 8, 8);
        if (serviceAction == Opcode.PRO_REGISTER_AND_MOVE) {
            boolean aptpl = (p[17] & 0x01) != 0;
            if (aptpl && !persistent) {
                throw new ScsiException(Sense.invalidFieldInParameterList(17, 0));
            }
            long length = Cdb.get(p, 20, 4);
            if (MOVE_TRANSPORT_ID + length != p.length) {
                throw new ScsiException(Sense.invalidFieldInParameterList(20, 7));
            }
            TransportId tid = TransportId.decode(p, MOVE_TRANSPORT_ID, (int) length);
            return new ProutParameters(key, sark, false, false, aptpl, (p[17] & 0x02) != 0, (int) Cdb.get(p, 18, 2),
                    List.of(tid));
        }
        boolean specIPt = (p[20] & 0x08) != 0;
        boolean aptpl = (p[20] & 0x01) != 0;
        if (specIPt && serviceAction != Opcode.PRO_REGISTER) {
            throw new ScsiException(Sense.invalidFieldInParameterList(20, 3));
        }
        if (!specIPt && p.length != BASIC_LENGTH || specIPt && p.length < TRANSPORT_IDS) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.PARAMETER_LIST_LENGTH_ERROR);
        }
        if (aptpl && !persistent && (serviceAction == Opcode.PRO_REGISTER
                || serviceAction == Opcode.PRO_REGISTER_AND_IGNORE_EXISTING_KEY)) {
            throw new ScsiException(Sense.invalidFieldInParameterList(20, 0));
        }
        List<TransportId> tids = new ArrayList<>();
        if (specIPt) {
            if (TRANSPORT_IDS + Cdb.get(p, 24, 4) != p.length) {
                throw new ScsiException(Sense.invalidFieldInParameterList(24, 7));
            }
            for (int off = TRANSPORT_IDS; off < p.length;) {
                TransportId tid = TransportId.decode(p, off, p.length - off);
                tids.add(tid);
                off += tid.length();
            }
        }
        return new ProutParameters(key, sark, specIPt, (p[20] & 0x04) != 0, aptpl, false, 0, tids);
    }
}
