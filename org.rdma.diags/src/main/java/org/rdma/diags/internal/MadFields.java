package org.rdma.diags.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rdma.verbs.wire.IbField;

/**
 * libibmad's field dump (libibmad/fields.c {@code mad_dump_field()}, libibmad/dump.c): one line
 * per attribute field, {@code Name:....value}, the name padded with dots to 32 columns, the value
 * rendered by the field's dump function. Where a field lives is taken from the codec's own
 * {@link IbField} table (org.rdma.verbs.wire), so offsets are written down once; this class only
 * adds libibmad's labels and renderings.
 */
final class MadFields {
    /** Column where the value starts: {@code name:} padded with dots to this width. */
    static final int NAME_WIDTH = 32;

    /** libibmad's dump functions ({@code mad_dump_uint}, {@code mad_dump_linkwidth} ...). */
    enum Fmt {
        /** {@code mad_dump_uint}. */
        UINT,
        /** {@code mad_dump_hex}: zero padded to the field's whole bytes. */
        HEX,
        /** {@code mad_dump_node_type}. */
        NODE_TYPE,
        /** {@code mad_dump_linkwidth}. */
        LINK_WIDTH,
        /** {@code mad_dump_linkwidthsup}. */
        LINK_WIDTH_SUP,
        /** {@code mad_dump_linkwidthen}. */
        LINK_WIDTH_EN,
        /** {@code mad_dump_linkspeed}. */
        LINK_SPEED,
        /** {@code mad_dump_linkspeedsup} / {@code mad_dump_linkspeeden}. */
        LINK_SPEED_SET,
        /** {@code mad_dump_linkspeedext}. */
        LINK_SPEED_EXT,
        /** {@code mad_dump_linkspeedextsup}. */
        LINK_SPEED_EXT_SUP,
        /** {@code mad_dump_linkspeedexten}. */
        LINK_SPEED_EXT_EN,
        /** {@code mad_dump_portstate}. */
        PORT_STATE,
        /** {@code mad_dump_physportstate}. */
        PHYS_STATE,
        /** {@code mad_dump_linkdowndefstate}. */
        LINK_DOWN_DEF,
        /** {@code mad_dump_mtu}. */
        MTU,
        /** {@code mad_dump_vlcap}. */
        VL_CAP,
        /** {@code mad_dump_opervls}. */
        OPER_VLS,
        /** {@code mad_dump_portcapmask}: the mask, then one indented line per named bit. */
        CAP_MASK,
        /** {@code mad_dump_portcapmask2}. */
        CAP_MASK2
    }

    /**
     * One dumped field.
     *
     * @param name    libibmad's label
     * @param word    32-bit word of the attribute the field starts in
     * @param bit     its first bit in that word, counted from the most significant
     * @param bits    its width
     * @param fmt     how it prints
     */
    record Field(String name, int word, int bit, int bits, Fmt fmt) {
        /** The field's value in {@code buf}, the attribute starting at {@code off}. */
        long value(byte[] buf, int off) {
            return MadFields.bits(buf, off, word, bit, bits);
        }

        /** {@code mad_dump_field()}: {@code Name:.....value}. */
        String dump(byte[] buf, int off) {
            return label(name) + render(fmt, value(buf, off), bits);
        }
    }

    private static final String[] CAP_NAMES = new String[32];
    private static final String[] CAP2_NAMES = {"IsSetNodeDescriptionSupported", "IsPortInfoExtendedSupported",
        "IsVirtualizationSupported", "IsSwitchPortStateTableSupported", "IsLinkWidth2xSupported",
        "IsLinkSpeedHDRSupported", "IsMKeyProtectBitsExtSupported", "IsEnhancedTrap128Supported",
        "IsPartitionTopSupported", "IsEnhancedQoSArbiterSupported", "IsLinkSpeedNDRSupported"};

    static {
        String[][] named = {{"1", "IsSM"}, {"2", "IsNoticeSupported"}, {"3", "IsTrapSupported"},
            {"4", "IsOptionalIPDSupported"}, {"5", "IsAutomaticMigrationSupported"}, {"6", "IsSLMappingSupported"},
            {"7", "IsMKeyNVRAM"}, {"8", "IsPKeyNVRAM"}, {"9", "IsLedInfoSupported"}, {"10", "IsSMdisabled"},
            {"11", "IsSystemImageGUIDsupported"}, {"12", "IsPkeySwitchExternalPortTrapSupported"},
            {"14", "IsExtendedSpeedsSupported"}, {"15", "IsCapabilityMask2Supported"},
            {"16", "IsCommunicatonManagementSupported"}, {"17", "IsSNMPTunnelingSupported"},
            {"18", "IsReinitSupported"}, {"19", "IsDeviceManagementSupported"}, {"20", "IsVendorClassSupported"},
            {"21", "IsDRNoticeSupported"}, {"22", "IsCapabilityMaskNoticeSupported"},
            {"23", "IsBootManagementSupported"}, {"24", "IsLinkRoundTripLatencySupported"},
            {"25", "IsClientRegistrationSupported"}, {"26", "IsOtherLocalChangesNoticeSupported"},
            {"27", "IsLinkSpeedWidthPairsTableSupported"}, {"28", "IsVendorSpecificMadsTableSupported"},
            {"29", "IsMcastPkeyTrapSuppressionSupported"}, {"30", "IsMulticastFDBTopSupported"},
            {"31", "IsHierarchyInfoSupported"}};
        for (String[] n : named) {
            CAP_NAMES[Integer.parseInt(n[0])] = n[1];
        }
    }

    private MadFields() {
    }

    /** A field located by the codec table entry named {@code wireName}. */
    static <T> Field field(String name, List<IbField<T>> table, String wireName, Fmt fmt) {
        for (IbField<T> f : table) {
            if (f.name().equals(wireName)) {
                return new Field(name, f.offsetWords(), f.offsetBits(), f.sizeBits(), fmt);
            }
        }
        throw new IllegalArgumentException("no field " + wireName);
    }

    /** {@code name:} and the dots up to {@link #NAME_WIDTH}. */
    static String label(String name) {
        return name + ":" + ".".repeat(Math.max(0, NAME_WIDTH - name.length()));
    }

    /** The dump of {@code fields} of the attribute at {@code off}; a capability mask spans several lines. */
    static List<String> dump(List<Field> fields, byte[] buf, int off) {
        List<String> out = new ArrayList<>();
        for (Field f : fields) {
            out.add(f.dump(buf, off));
        }
        return out;
    }

    /**
     * {@code bits} bits from bit {@code bit} (most significant first) of 32-bit word {@code word}
     * of the big-endian attribute at {@code off}: how {@code ib_unpack()} reads a field.
     */
    static long bits(byte[] buf, int off, int word, int bit, int bits) {
        int first = word * 32 + bit;
        int startByte = off + first / 8;
        int endByte = off + (first + bits + 7) / 8;
        long v = 0;
        for (int i = startByte; i < endByte; i++) {
            v = v << 8 | (buf[i] & 0xff);
        }
        int tail = (8 - (first + bits) % 8) % 8;
        v >>>= tail;
        return bits == 64 ? v : v & ((1L << bits) - 1);
    }

    /** A value as libibmad's dump function {@code fmt} prints it. */
    static String render(Fmt fmt, long v, int bits) {
        int i = (int) v;
        switch (fmt) {
            case UINT:
                return Long.toUnsignedString(v);
            case HEX:
                int digits = 2 * Math.max(1, (bits + 7) / 8);
                return "0x" + String.format(Locale.ROOT, "%0" + digits + "x", v);
            case NODE_TYPE:
                return switch (i) {
                    case 1 -> "Channel Adapter";
                    case 2 -> "Switch";
                    case 3 -> "Router";
                    default -> "?(" + i + ")?";
                };
            case LINK_WIDTH:
                return switch (i) {
                    case 1 -> "1X";
                    case 2 -> "4X";
                    case 4 -> "8X";
                    case 8 -> "12X";
                    case 16 -> "2X";
                    default -> "undefined (" + i + ")";
                };
            case LINK_WIDTH_EN:
                return widths(i);
            case LINK_WIDTH_SUP:
                boolean plain = switch (i) {
                    case 1, 3, 7, 11, 15, 17, 19, 23, 27, 31 -> true;
                    default -> false;
                };
                return widths(i) + (plain || i >> 5 != 0 ? "" : " (IBA extension)");
            case LINK_SPEED:
                return switch (i) {
                    case 0 -> "Extended speed";
                    case 1 -> "2.5 Gbps";
                    case 2 -> "5.0 Gbps";
                    case 4 -> "10.0 Gbps";
                    default -> "undefined (" + i + ")";
                };
            case LINK_SPEED_SET:
                return speeds(i);
            case LINK_SPEED_EXT:
                return switch (i) {
                    case 0 -> "No Extended Speed";
                    case 1 -> "14.0625 Gbps";
                    case 2 -> "25.78125 Gbps";
                    case 4 -> "53.125 Gbps";
                    case 8 -> "106.25 Gbps";
                    default -> "undefined (" + i + ")";
                };
            case LINK_SPEED_EXT_SUP:
                return extSpeeds(i);
            case LINK_SPEED_EXT_EN:
                return i == 30 ? "Extended link speeds disabled" : extSpeeds(i);
            case PORT_STATE:
                return pick(i, "NoChange", "Down", "Initialize", "Armed", "Active");
            case PHYS_STATE:
                return pick(i, "NoChange", "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
                        "LinkErrorRecovery", "PhyTest");
            case LINK_DOWN_DEF:
                return pick(i, "NoChange", "Sleep", "Polling");
            case MTU:
                return i >= 1 && i <= 5 ? Integer.toString(128 << i) : "?(" + i + ")";
            case VL_CAP:
                return i >= 1 && i <= 5 ? vls(i) : "?(" + i + ")";
            case OPER_VLS:
                return i == 0 ? "No change" : i <= 5 ? vls(i) : "?(" + i + ")";
            case CAP_MASK:
                return mask(i, CAP_NAMES);
            case CAP_MASK2:
                return mask(i, CAP2_NAMES);
            default:
                throw new IllegalStateException(fmt.name());
        }
    }

    private static String pick(int i, String... names) {
        return i >= 0 && i < names.length ? names[i] : "?(" + i + ")";
    }

    private static String vls(int i) {
        return switch (i) {
            case 1 -> "VL0";
            case 2 -> "VL0-1";
            case 3 -> "VL0-3";
            case 4 -> "VL0-7";
            default -> "VL0-14";
        };
    }

    /** {@code dump_linkwidth()}: {@code 1X or 4X ...}, or {@code undefined (n)} for 0 or unknown bits. */
    private static String widths(int w) {
        StringBuilder b = new StringBuilder();
        String[] names = {"1X", "4X", "8X", "12X", "2X"};
        for (int k = 0; k < names.length; k++) {
            if ((w & 1 << k) != 0) {
                b.append(names[k]).append(" or ");
            }
        }
        if (w == 0 || w >> 5 != 0) {
            return b.append("undefined (").append(w).append(')').toString();
        }
        return b.substring(0, b.length() - 4);
    }

    /** {@code dump_linkspeed()}, with libibmad's {@code (IBA extension)} for masks beyond SDR/DDR/QDR pairs. */
    private static String speeds(int s) {
        StringBuilder b = new StringBuilder();
        String[] names = {"2.5 Gbps", "5.0 Gbps", "10.0 Gbps"};
        for (int k = 0; k < names.length; k++) {
            if ((s & 1 << k) != 0) {
                b.append(names[k]).append(" or ");
            }
        }
        String text;
        if (s == 0 || s >> 3 != 0) {
            text = b.append("undefined (").append(s).append(')').toString();
        } else {
            text = b.substring(0, b.length() - 4);
        }
        boolean plain = s == 1 || s == 3 || s == 5 || s == 7;
        return plain || s >> 3 != 0 ? text : text + " (IBA extension)";
    }

    /** {@code dump_linkspeedext()}: {@code 0} for none. */
    private static String extSpeeds(int s) {
        if (s == 0) {
            return "0";
        }
        StringBuilder b = new StringBuilder();
        String[] names = {"14.0625 Gbps", "25.78125 Gbps", "53.125 Gbps", "106.25 Gbps"};
        for (int k = 0; k < names.length; k++) {
            if ((s & 1 << k) != 0) {
                b.append(names[k]).append(" or ");
            }
        }
        if (s >> 4 != 0) {
            return b.append("undefined (").append(s).append(')').toString();
        }
        return b.substring(0, b.length() - 4);
    }

    /** {@code mad_dump_portcapmask()}: {@code 0x..} and a line {@code \t\t\t\tName} per named bit. */
    private static String mask(int m, String[] names) {
        StringBuilder b = new StringBuilder("0x").append(Integer.toHexString(m));
        for (int k = 0; k < names.length; k++) {
            if ((m & 1 << k) != 0 && names[k] != null) {
                b.append("\n\t\t\t\t").append(names[k]);
            }
        }
        return b.toString();
    }
}
