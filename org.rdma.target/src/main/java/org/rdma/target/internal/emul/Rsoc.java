package org.rdma.target.internal.emul;

import java.io.ByteArrayOutputStream;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;

/**
 * REPORT SUPPORTED OPERATION CODES (SPC-4 6.35) and REPORT SUPPORTED TASK MANAGEMENT FUNCTIONS
 * (SPC-4 6.36), read from the {@link CommandTable}; LIO's {@code spc_emulate_report_supp_op_codes()}.
 */
final class Rsoc {
    /** SUPPORT values of the one-command format (SPC-4 table 222). */
    static final int NOT_SUPPORTED = 0b001, SUPPORTED = 0b011;
    private static final int TIMEOUTS_LENGTH = 12;

    private Rsoc() {
    }

    /**
     * REPORTING OPTIONS 000b lists every command (8-byte descriptors, 20 with RCTD); 001b reports
     * one operation code that has no service actions, 010b one with its service action (each
     * the other way round answers INVALID FIELD IN CDB at REPORTING OPTIONS, as do the other
     * options).
     */
    static void reportSupportedOperationCodes(Cmd c) throws ScsiException {
        boolean rctd = (c.cdb[2] & 0x80) != 0;
        int options = c.cdb[2] & 0x07;
        int opcode = c.cdb[3] & 0xFF;
        int sa = (int) c.field(4, 2);
        if (options > 2 || (options == 1 && CommandTable.hasServiceActions(opcode))
                || (options == 2 && !CommandTable.hasServiceActions(opcode) && CommandTable.lookup(c.dev, opcode, -1) != null)) {
            throw new ScsiException(Sense.invalidFieldInCdb(2, 2));
        }
        c.dataIn(c.field(6, 4), x -> x.respond(options == 0 ? all(x, rctd) : one(x, rctd, opcode, options == 2 ? sa : -1)));
    }

    private static byte[] all(Cmd c, boolean rctd) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (CommandTable.Entry e : CommandTable.supported(c.dev)) {
            byte[] d = new byte[8];
            d[0] = (byte) e.opcode();
            if (e.serviceAction() >= 0) {
                Cdb.put(d, 2, e.serviceAction(), 2);
            }
            d[5] = (byte) ((rctd ? 0x02 : 0) | (e.serviceAction() >= 0 ? 0x01 : 0));
            Cdb.put(d, 6, e.cdbLength(), 2);
            o.writeBytes(d);
            if (rctd) {
                o.writeBytes(timeouts());
            }
        }
        byte[] list = o.toByteArray();
        byte[] b = new byte[4 + list.length];
        Cdb.put(b, 0, list.length, 4);
        System.arraycopy(list, 0, b, 4, list.length);
        return b;
    }

    private static byte[] one(Cmd c, boolean rctd, int opcode, int sa) {
        CommandTable.Entry e = CommandTable.lookup(c.dev, opcode, sa);
        if (e == null || (sa >= 0 && e.serviceAction() != sa)) {
            return new byte[] {0, NOT_SUPPORTED, 0, 0};
        }
        byte[] b = new byte[4 + e.cdbLength() + (rctd ? TIMEOUTS_LENGTH : 0)];
        b[1] = (byte) ((rctd ? 0x80 : 0) | SUPPORTED);
        Cdb.put(b, 2, e.cdbLength(), 2);
        System.arraycopy(e.usage(), 0, b, 4, e.cdbLength());
        if (rctd) {
            System.arraycopy(timeouts(), 0, b, 4 + e.cdbLength(), TIMEOUTS_LENGTH);
        }
        return b;
    }

    /** The command timeouts descriptor (SPC-4 6.35.4): length 0Ah, no timeouts given. */
    private static byte[] timeouts() {
        byte[] t = new byte[TIMEOUTS_LENGTH];
        t[1] = 0x0A;
        return t;
    }

    /**
     * REPORT SUPPORTED TASK MANAGEMENT FUNCTIONS: ABORT TASK, ABORT TASK SET, CLEAR TASK SET,
     * LOGICAL UNIT RESET, QUERY TASK, TARGET RESET and I_T NEXUS RESET; REPD asks for the 16-byte
     * extended form.
     */
    static void reportSupportedTaskManagementFunctions(Cmd c) {
        boolean repd = (c.cdb[2] & 0x80) != 0;
        c.dataIn(c.field(6, 4), x -> {
            byte[] b = new byte[repd ? 16 : 4];
            b[0] = (byte) 0xDE; // ATS ATSS CTSS LURS QTS TRS
            b[1] = 0x01; // ITNRS
            if (repd) {
                b[3] = 0x0C;
            }
            x.respond(b);
        });
    }
}
