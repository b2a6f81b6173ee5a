package org.rdma.scsi;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * Operation codes (SPC-4 annex E, SBC-3 5) and the service actions of the codes that carry one;
 * Linux's {@code include/scsi/scsi_proto.h}.
 */
public final class Opcode {
    public static final int TEST_UNIT_READY = 0x00;
    public static final int REQUEST_SENSE = 0x03;
    public static final int READ_6 = 0x08;
    public static final int WRITE_6 = 0x0A;
    public static final int INQUIRY = 0x12;
    public static final int MODE_SELECT_6 = 0x15;
    public static final int RESERVE_6 = 0x16;
    public static final int RELEASE_6 = 0x17;
    public static final int MODE_SENSE_6 = 0x1A;
    public static final int START_STOP_UNIT = 0x1B;
    public static final int PREVENT_ALLOW_MEDIUM_REMOVAL = 0x1E;
    public static final int READ_CAPACITY_10 = 0x25;
    public static final int READ_10 = 0x28;
    public static final int WRITE_10 = 0x2A;
    public static final int WRITE_AND_VERIFY_10 = 0x2E;
    public static final int VERIFY_10 = 0x2F;
    public static final int SYNCHRONIZE_CACHE_10 = 0x35;
    public static final int WRITE_SAME_10 = 0x41;
    public static final int UNMAP = 0x42;
    public static final int LOG_SENSE = 0x4D;
    public static final int MODE_SELECT_10 = 0x55;
    public static final int RESERVE_10 = 0x56;
    public static final int RELEASE_10 = 0x57;
    public static final int MODE_SENSE_10 = 0x5A;
    public static final int PERSISTENT_RESERVE_IN = 0x5E;
    public static final int PERSISTENT_RESERVE_OUT = 0x5F;
    public static final int VARIABLE_LENGTH = 0x7F;
    public static final int ORWRITE_16 = 0x8B;
    public static final int READ_16 = 0x88;
    public static final int COMPARE_AND_WRITE = 0x89;
    public static final int WRITE_16 = 0x8A;
    public static final int WRITE_AND_VERIFY_16 = 0x8E;
    public static final int VERIFY_16 = 0x8F;
    public static final int SYNCHRONIZE_CACHE_16 = 0x91;
    public static final int WRITE_SAME_16 = 0x93;
    /** SERVICE ACTION IN(16): READ CAPACITY(16), GET LBA STATUS. */
    public static final int SERVICE_ACTION_IN_16 = 0x9E;
    public static final int REPORT_LUNS = 0xA0;
    /** MAINTENANCE IN: REPORT SUPPORTED OPERATION CODES, REPORT SUPPORTED TASK MANAGEMENT FUNCTIONS. */
    public static final int MAINTENANCE_IN = 0xA3;
    public static final int READ_12 = 0xA8;
    public static final int WRITE_12 = 0xAA;

    /** Service action of SERVICE ACTION IN(16) (SBC-3 5.16). */
    public static final int SAI_READ_CAPACITY_16 = 0x10;
    /** Service action of SERVICE ACTION IN(16) (SBC-3 5.8). */
    public static final int SAI_GET_LBA_STATUS = 0x12;
    /** Service action of MAINTENANCE IN (SPC-4 6.35). */
    public static final int MI_REPORT_SUPPORTED_OPERATION_CODES = 0x0C;
    /** Service action of MAINTENANCE IN (SPC-4 6.36). */
    public static final int MI_REPORT_SUPPORTED_TASK_MANAGEMENT_FUNCTIONS = 0x0D;
    /** Service actions of PERSISTENT RESERVE IN (SPC-4 6.15). */
    public static final int PRI_READ_KEYS = 0x00, PRI_READ_RESERVATION = 0x01, PRI_REPORT_CAPABILITIES = 0x02,
            PRI_READ_FULL_STATUS = 0x03;
    /** Service actions of PERSISTENT RESERVE OUT (SPC-4 6.16). */
    public static final int PRO_REGISTER = 0x00, PRO_RESERVE = 0x01, PRO_RELEASE = 0x02, PRO_CLEAR = 0x03,
            PRO_PREEMPT = 0x04, PRO_PREEMPT_AND_ABORT = 0x05, PRO_REGISTER_AND_IGNORE_EXISTING_KEY = 0x06,
            PRO_REGISTER_AND_MOVE = 0x07;

    private static final Map<Integer, String> NAMES = new HashMap<>();

    static {
        for (Field f : Opcode.class.getFields()) {
            String n = f.getName();
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class && !n.startsWith("SAI_")
                    && !n.startsWith("MI_") && !n.startsWith("PR")) {
                try {
                    NAMES.put(f.getInt(null), n.replace('_', ' ').replaceAll(" (\\d+)$", "($1)"));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private Opcode() {
    }

    /** The command's name as SPC-4 spells it, e.g. {@code "READ(10)"}, or the hex code. */
    public static String name(int opcode) {
        String n = NAMES.get(opcode & 0xFF);
        return n != null ? n : String.format("0x%02X", opcode & 0xFF);
    }

    /**
     * The CDB length of an operation code by its group code (SPC-4 4.2.5.1, table 4): 6, 10, 12 or
     * 16 bytes; 0 for the variable-length (0x7F) and reserved/vendor groups, whose length is not
     * implied by the code. Linux's {@code scsi_command_size()}.
     */
    public static int cdbLength(int opcode) {
        return switch ((opcode & 0xFF) >> 5) {
            case 0 -> 6;
            case 1, 2 -> opcode == VARIABLE_LENGTH ? 0 : 10;
            case 4 -> 16;
            case 5 -> 12;
            default -> 0;
        };
    }
}
