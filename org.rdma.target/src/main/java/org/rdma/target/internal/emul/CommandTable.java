package org.rdma.target.internal.emul;

import static org.rdma.scsi.Opcode.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import org.rdma.scsi.Asc;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * Every operation code the target emulates, once: its CDB length, its CDB usage data (SPC-4
 * 6.35.4: a one for each bit the command uses; byte 0 the operation code and, for commands with a
 * service action, the service action in its field) and its parse step. The reserved-bit check
 * and REPORT SUPPORTED OPERATION CODES both read the usage data, so what the target reports is
 * what it enforces. LIO's {@code sbc_parse_cdb()}/{@code spc_parse_cdb()} switch and its
 * {@code target_opcode_descriptor} table in one.
 */
public final class CommandTable {
    /** The parse step: checks the CDB and sets the data direction, length and execute step. */
    @FunctionalInterface
    interface Parser {
        void parse(Cmd cmd) throws ScsiException;
    }

    /**
     * One supported command.
     *
     * @param serviceAction the service action (byte 1, bits 4:0), or -1
     * @param usage the CDB usage data; its length is the CDB length
     * @param supported whether a device supports it (UNMAP needs thin provisioning)
     */
    record Entry(int opcode, int serviceAction, byte[] usage, Predicate<ScsiDevice> supported, Parser parser) {
        int cdbLength() {
            return usage.length;
        }
    }

    private static final Predicate<ScsiDevice> ALWAYS = d -> true;
    private static final List<Entry> ENTRIES = new ArrayList<>();

    static {
        add(TEST_UNIT_READY, "00 00 00 00 00 00", Spc::testUnitReady);
        add(REQUEST_SENSE, "03 01 00 00 ff 00", Spc::requestSense);
        add(READ_6, "08 1f ff ff ff 00", Sbc::read6);
        add(WRITE_6, "0a 1f ff ff ff 00", Sbc::write6);
        add(INQUIRY, "12 01 ff ff ff 00", Inquiry::parse);
        add(MODE_SELECT_6, "15 11 00 00 ff 00", ModePages::modeSelect);
        add(MODE_SENSE_6, "1a 08 ff ff ff 00", ModePages::modeSense);
        add(START_STOP_UNIT, "1b 01 00 0f f7 00", Sbc::startStopUnit);
        add(PREVENT_ALLOW_MEDIUM_REMOVAL, "1e 00 00 00 03 00", Spc::preventAllowMediumRemoval);
        add(READ_CAPACITY_10, "25 00 ff ff ff ff 00 00 01 00", Sbc::readCapacity10);
        add(READ_10, "28 fc ff ff ff ff 1f ff ff 00", Sbc::read10);
        add(WRITE_10, "2a f8 ff ff ff ff 1f ff ff 00", Sbc::write10);
        add(WRITE_AND_VERIFY_10, "2e f6 ff ff ff ff 1f ff ff 00", Sbc::writeAndVerify10);
        add(VERIFY_10, "2f f6 ff ff ff ff 1f ff ff 00", Sbc::verify10);
        add(SYNCHRONIZE_CACHE_10, "35 02 ff ff ff ff 1f ff ff 00", Sbc::synchronizeCache10);
        add(WRITE_SAME_10, "41 fe ff ff ff ff 1f ff ff 00", Provisioning::writeSame10);
        ENTRIES.add(new Entry(UNMAP, -1, hex("42 01 00 00 00 00 1f ff ff 00"), ScsiDevice::thin, Provisioning::unmap));
        add(MODE_SELECT_10, "55 11 00 00 00 00 00 ff ff 00", ModePages::modeSelect);
        add(MODE_SENSE_10, "5a 18 ff ff 00 00 00 ff ff 00", ModePages::modeSense);
        add(READ_16, "88 fc ff ff ff ff ff ff ff ff ff ff ff ff 1f 00", Sbc::read16);
        add(COMPARE_AND_WRITE, "89 f8 ff ff ff ff ff ff ff ff 00 00 00 ff 1f 00", Sbc::compareAndWrite);
        add(WRITE_16, "8a f8 ff ff ff ff ff ff ff ff ff ff ff ff 1f 00", Sbc::write16);
        add(WRITE_AND_VERIFY_16, "8e f6 ff ff ff ff ff ff ff ff ff ff ff ff 1f 00", Sbc::writeAndVerify16);
        add(VERIFY_16, "8f f6 ff ff ff ff ff ff ff ff ff ff ff ff 1f 00", Sbc::verify16);
        add(SYNCHRONIZE_CACHE_16, "91 02 ff ff ff ff ff ff ff ff ff ff ff ff 1f 00", Sbc::synchronizeCache16);
        add(WRITE_SAME_16, "93 fe ff ff ff ff ff ff ff ff ff ff ff ff 1f 00", Provisioning::writeSame16);
        add(SERVICE_ACTION_IN_16, SAI_READ_CAPACITY_16, "9e 10 ff ff ff ff ff ff ff ff ff ff ff ff 01 00",
                Sbc::readCapacity16);
        add(SERVICE_ACTION_IN_16, SAI_GET_LBA_STATUS, "9e 12 ff ff ff ff ff ff ff ff ff ff ff ff 00 00",
                Provisioning::getLbaStatus);
        add(REPORT_LUNS, "a0 00 ff 00 00 00 ff ff ff ff 00 00", Spc::reportLuns);
        add(MAINTENANCE_IN, MI_REPORT_SUPPORTED_OPERATION_CODES, "a3 0c 87 ff ff ff ff ff ff ff 00 00",
                Rsoc::reportSupportedOperationCodes);
        add(MAINTENANCE_IN, MI_REPORT_SUPPORTED_TASK_MANAGEMENT_FUNCTIONS, "a3 0d 80 00 00 00 ff ff ff ff 00 00",
                Rsoc::reportSupportedTaskManagementFunctions);
        add(READ_12, "a8 fc ff ff ff ff ff ff ff ff 1f 00", Sbc::read12);
        add(WRITE_12, "aa f8 ff ff ff ff ff ff ff ff 1f 00", Sbc::write12);
        ENTRIES.sort(Comparator.comparingInt(Entry::opcode).thenComparingInt(Entry::serviceAction));
    }

    private CommandTable() {
    }

    private static void add(int opcode, String usage, Parser p) {
        ENTRIES.add(new Entry(opcode, -1, hex(usage), ALWAYS, p));
    }

    private static void add(int opcode, int sa, String usage, Parser p) {
        ENTRIES.add(new Entry(opcode, sa, hex(usage), ALWAYS, p));
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    /** The commands a device supports, by operation code and service action. */
    static List<Entry> supported(ScsiDevice dev) {
        return ENTRIES.stream().filter(e -> dev == null || e.supported().test(dev)).toList();
    }

    /** Whether an operation code is one that carries a service action. */
    static boolean hasServiceActions(int opcode) {
        return ENTRIES.stream().anyMatch(e -> e.opcode() == opcode && e.serviceAction() >= 0);
    }

    /** The entry of an operation code (and service action), or null. */
    static Entry lookup(ScsiDevice dev, int opcode, int serviceAction) {
        for (Entry e : supported(dev)) {
            if (e.opcode() == opcode && (e.serviceAction() < 0 || e.serviceAction() == serviceAction)) {
                return e;
            }
        }
        return null;
    }

    /**
     * The parse step of a command (LIO's {@code target_cmd_init_cdb()} up to the data transfer):
     * unsupported operation codes answer INVALID COMMAND OPERATION CODE, an unsupported service
     * action INVALID FIELD IN CDB at the SERVICE ACTION field, a CDB shorter than its command
     * INVALID FIELD IN COMMAND INFORMATION UNIT, a bit set outside the usage data (reserved bits,
     * NACA and LINK in the control byte) INVALID FIELD IN CDB at that bit; then the command's own
     * checks.
     */
    public static void parse(Cmd cmd) throws ScsiException {
        byte[] cdb = cmd.cdb;
        int opcode = cdb.length > 0 ? cdb[0] & 0xFF : -1;
        int sa = cdb.length > 1 ? cdb[1] & 0x1F : -1;
        Entry e = lookup(cmd.dev, opcode, sa);
        if (e == null) {
            if (hasServiceActions(opcode)) {
                throw new ScsiException(Sense.invalidFieldInCdb(1, 4));
            }
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_COMMAND_OPERATION_CODE);
        }
        if (cdb.length < e.cdbLength()) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_FIELD_IN_COMMAND_INFORMATION_UNIT);
        }
        for (int i = 1; i < e.cdbLength(); i++) {
            int bad = cdb[i] & ~e.usage()[i] & 0xFF;
            if (bad != 0) {
                throw new ScsiException(Sense.invalidFieldInCdb(i, 31 - Integer.numberOfLeadingZeros(bad)));
            }
        }
        e.parser().parse(cmd);
    }
}
