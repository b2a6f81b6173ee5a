package org.rdma.iscsi.text;

import java.util.List;

/**
 * The keys of RFC 7143 chapter 13 (and 12 for AuthMethod and CHAP), one row each: the wire name,
 * the result function, the numerical range or the values a list key knows, the default, who may
 * send it, when it may be sent (LO, IO, ALL, FFPO) and whether it is Irrelevant in a discovery
 * session. The table plays the part of Linux's {@code iscsi_set_keys_to_negotiate()} and the
 * {@code PHASE_*}/{@code SENDER_*}/{@code TYPERANGE_*} flags of its iscsi_param list.
 */
public enum Key {
    HEADER_DIGEST("HeaderDigest", ResultFunction.LIST, 0, 0, "None", Sender.BOTH, Use.LOGIN, false, "CRC32C", "None"),
    DATA_DIGEST("DataDigest", ResultFunction.LIST, 0, 0, "None", Sender.BOTH, Use.LOGIN, false, "CRC32C", "None"),
    MAX_CONNECTIONS("MaxConnections", ResultFunction.MIN, 1, 65535, "1", Sender.BOTH, Use.LEADING, true),
    SEND_TARGETS("SendTargets", ResultFunction.DECLARATIVE, 0, 0, null, Sender.INITIATOR, Use.FULL_FEATURE, false),
    TARGET_NAME("TargetName", ResultFunction.DECLARATIVE, 0, 0, null, Sender.BOTH, Use.ALL, false),
    INITIATOR_NAME("InitiatorName", ResultFunction.DECLARATIVE, 0, 0, null, Sender.INITIATOR, Use.LOGIN, false),
    TARGET_ALIAS("TargetAlias", ResultFunction.DECLARATIVE, 0, 0, null, Sender.TARGET, Use.ALL, false),
    INITIATOR_ALIAS("InitiatorAlias", ResultFunction.DECLARATIVE, 0, 0, null, Sender.INITIATOR, Use.ALL, false),
    TARGET_ADDRESS("TargetAddress", ResultFunction.DECLARATIVE, 0, 0, null, Sender.TARGET, Use.ALL, false),
    TARGET_PORTAL_GROUP_TAG("TargetPortalGroupTag", ResultFunction.DECLARATIVE, 0, 65535, null, Sender.TARGET,
            Use.LOGIN, false),
    INITIAL_R2T("InitialR2T", ResultFunction.OR, 0, 0, "Yes", Sender.BOTH, Use.LEADING, true),
    IMMEDIATE_DATA("ImmediateData", ResultFunction.AND, 0, 0, "Yes", Sender.BOTH, Use.LEADING, true),
    MAX_RECV_DATA_SEGMENT_LENGTH("MaxRecvDataSegmentLength", ResultFunction.DECLARATIVE, 512, 16777215, "8192",
            Sender.BOTH, Use.ALL, false),
    MAX_BURST_LENGTH("MaxBurstLength", ResultFunction.MIN, 512, 16777215, "262144", Sender.BOTH, Use.LEADING, true),
    FIRST_BURST_LENGTH("FirstBurstLength", ResultFunction.MIN, 512, 16777215, "65536", Sender.BOTH, Use.LEADING, true),
    DEFAULT_TIME2WAIT("DefaultTime2Wait", ResultFunction.MAX, 0, 3600, "2", Sender.BOTH, Use.LEADING, false),
    DEFAULT_TIME2RETAIN("DefaultTime2Retain", ResultFunction.MIN, 0, 3600, "20", Sender.BOTH, Use.LEADING, false),
    MAX_OUTSTANDING_R2T("MaxOutstandingR2T", ResultFunction.MIN, 1, 65535, "1", Sender.BOTH, Use.LEADING, true),
    DATA_PDU_IN_ORDER("DataPDUInOrder", ResultFunction.OR, 0, 0, "Yes", Sender.BOTH, Use.LEADING, true),
    DATA_SEQUENCE_IN_ORDER("DataSequenceInOrder", ResultFunction.OR, 0, 0, "Yes", Sender.BOTH, Use.LEADING, true),
    ERROR_RECOVERY_LEVEL("ErrorRecoveryLevel", ResultFunction.MIN, 0, 2, "0", Sender.BOTH, Use.LEADING, false),
    SESSION_TYPE("SessionType", ResultFunction.DECLARATIVE, 0, 0, "Normal", Sender.INITIATOR, Use.LOGIN, false,
            "Discovery", "Normal"),
    TASK_REPORTING("TaskReporting", ResultFunction.LIST, 0, 0, "RFC3720", Sender.BOTH, Use.LEADING, true,
            "RFC3720", "ResponseFence", "FastAbort"),
    ISCSI_PROTOCOL_LEVEL("iSCSIProtocolLevel", ResultFunction.MIN, 0, 31, "1", Sender.BOTH, Use.LEADING, true),
    NODE_ARCHITECTURE("X#NodeArchitecture", ResultFunction.DECLARATIVE, 0, 0, null, Sender.BOTH, Use.LEADING, false),
    AUTH_METHOD("AuthMethod", ResultFunction.LIST, 0, 0, "None", Sender.BOTH, Use.LOGIN, false,
            "CHAP", "None", "KRB5", "SRP", "SPKM1", "SPKM2"),
    CHAP_A("CHAP_A", ResultFunction.AUTHENTICATION, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    CHAP_I("CHAP_I", ResultFunction.AUTHENTICATION, 0, 255, null, Sender.BOTH, Use.LOGIN, false),
    CHAP_C("CHAP_C", ResultFunction.AUTHENTICATION, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    CHAP_N("CHAP_N", ResultFunction.AUTHENTICATION, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    CHAP_R("CHAP_R", ResultFunction.AUTHENTICATION, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    IF_MARKER("IFMarker", ResultFunction.OBSOLETE, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    OF_MARKER("OFMarker", ResultFunction.OBSOLETE, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    IF_MARK_INT("IFMarkInt", ResultFunction.OBSOLETE, 0, 0, null, Sender.BOTH, Use.LOGIN, false),
    OF_MARK_INT("OFMarkInt", ResultFunction.OBSOLETE, 0, 0, null, Sender.BOTH, Use.LOGIN, false);

    /** Who may send a key (13, "Senders"). */
    public enum Sender { INITIATOR, TARGET, BOTH }

    /** When a key may be sent (13, "Use"). */
    public enum Use {
        /** LO: only in the login of a session's leading connection. */
        LEADING,
        /** IO: in the login of any connection, never in the full feature phase. */
        LOGIN,
        /** ALL: in logins and in Text Requests of the full feature phase. */
        ALL,
        /** FFPO: only in the full feature phase (SendTargets). */
        FULL_FEATURE
    }

    private final String wireName;
    private final ResultFunction function;
    private final long min;
    private final long max;
    private final String defaultValue;
    private final Sender sender;
    private final Use use;
    private final boolean irrelevantInDiscovery;
    private final List<String> values;

    Key(String wireName, ResultFunction function, long min, long max, String defaultValue, Sender sender,
            Use use, boolean irrelevantInDiscovery, String... values) {
        this.wireName = wireName;
        this.function = function;
        this.min = min;
        this.max = max;
        this.defaultValue = defaultValue;
        this.sender = sender;
        this.use = use;
        this.irrelevantInDiscovery = irrelevantInDiscovery;
        this.values = List.of(values);
    }

    /** The key as it appears on the wire. */
    public String wireName() {
        return wireName;
    }

    public ResultFunction function() {
        return function;
    }

    /** The smallest valid numerical value (numerical keys). */
    public long min() {
        return min;
    }

    /** The largest valid numerical value (numerical keys). */
    public long max() {
        return max;
    }

    /** The value in force when the key is not negotiated, or null. */
    public String defaultValue() {
        return defaultValue;
    }

    public Sender sender() {
        return sender;
    }

    /** When the key may be sent. */
    public Use use() {
        return use;
    }

    /** "Irrelevant when: SessionType=Discovery". */
    public boolean irrelevantInDiscovery() {
        return irrelevantInDiscovery;
    }

    /** The values a list key, or an enumerated declaration, knows. */
    public List<String> knownValues() {
        return values;
    }

    /** Whether the key's value is numerical and range-checked. */
    public boolean numerical() {
        return max > 0;
    }

    /** The key named {@code wireName}, or null: an unknown key, answered NotUnderstood. */
    public static Key of(String wireName) {
        for (Key k : values()) {
            if (k.wireName.equals(wireName)) {
                return k;
            }
        }
        return null;
    }
}
