package org.rdma.iscsi.text;

import java.util.Map;

/**
 * The operational parameters of a session and one of its connections once login negotiation is
 * over (Linux's {@code iscsi_sess_ops} and {@code iscsi_conn_ops}): every key of RFC 7143
 * chapter 13 at its negotiated or default value. The data segment limit is per direction:
 * {@link #maxRecvDataSegmentLength} is what this side declared (the reader's limit),
 * {@link #maxXmitDataSegmentLength} what the peer declared (the writer's limit).
 */
public record OperationalParameters(
        boolean headerDigest,
        boolean dataDigest,
        int maxConnections,
        boolean initialR2T,
        boolean immediateData,
        int maxRecvDataSegmentLength,
        int maxXmitDataSegmentLength,
        int maxBurstLength,
        int firstBurstLength,
        int defaultTime2Wait,
        int defaultTime2Retain,
        int maxOutstandingR2T,
        boolean dataPduInOrder,
        boolean dataSequenceInOrder,
        int errorRecoveryLevel,
        boolean discovery,
        String taskReporting,
        int iscsiProtocolLevel,
        String initiatorName,
        String initiatorAlias,
        String targetName,
        String authMethod) {

    /**
     * This session's parameters with the connection-scoped keys (HeaderDigest, DataDigest and
     * MaxRecvDataSegmentLength both ways, RFC 7143 13) of a connection added to it: its login
     * negotiates only those, the leading-only keys stay what the session's first login settled.
     */
    public OperationalParameters forConnection(OperationalParameters connection) {
        return new OperationalParameters(connection.headerDigest, connection.dataDigest, maxConnections,
                initialR2T, immediateData, connection.maxRecvDataSegmentLength,
                connection.maxXmitDataSegmentLength, maxBurstLength, firstBurstLength, defaultTime2Wait,
                defaultTime2Retain, maxOutstandingR2T, dataPduInOrder, dataSequenceInOrder, errorRecoveryLevel,
                discovery, taskReporting, iscsiProtocolLevel, initiatorName, initiatorAlias, targetName, authMethod);
    }

    /** The RFC's defaults (no negotiation at all). */
    public static OperationalParameters defaults() {
        return of(Map.of(), Map.of());
    }

    /**
     * The parameters from the results of a negotiation and this side's own MaxRecvDataSegmentLength;
     * a key without a result has its default.
     *
     * @param results negotiated values and the peer's declarations, by key
     * @param own this side's values; only its MaxRecvDataSegmentLength declaration is read here
     */
    static OperationalParameters of(Map<Key, String> results, Map<Key, String> own) {
        java.util.function.Function<Key, String> v = k -> results.getOrDefault(k, k.defaultValue());
        java.util.function.ToIntFunction<Key> n = k -> (int) Values.parseNumber(v.apply(k));
        java.util.function.Predicate<Key> b = k -> Values.YES.equals(v.apply(k));
        Key mrdsl = Key.MAX_RECV_DATA_SEGMENT_LENGTH;
        return new OperationalParameters(
                "CRC32C".equals(v.apply(Key.HEADER_DIGEST)),
                "CRC32C".equals(v.apply(Key.DATA_DIGEST)),
                n.applyAsInt(Key.MAX_CONNECTIONS),
                b.test(Key.INITIAL_R2T),
                b.test(Key.IMMEDIATE_DATA),
                (int) Values.parseNumber(own.getOrDefault(mrdsl, mrdsl.defaultValue())),
                n.applyAsInt(mrdsl),
                n.applyAsInt(Key.MAX_BURST_LENGTH),
                n.applyAsInt(Key.FIRST_BURST_LENGTH),
                n.applyAsInt(Key.DEFAULT_TIME2WAIT),
                n.applyAsInt(Key.DEFAULT_TIME2RETAIN),
                n.applyAsInt(Key.MAX_OUTSTANDING_R2T),
                b.test(Key.DATA_PDU_IN_ORDER),
                b.test(Key.DATA_SEQUENCE_IN_ORDER),
                n.applyAsInt(Key.ERROR_RECOVERY_LEVEL),
                "Discovery".equals(v.apply(Key.SESSION_TYPE)),
                v.apply(Key.TASK_REPORTING),
                n.applyAsInt(Key.ISCSI_PROTOCOL_LEVEL),
                results.get(Key.INITIATOR_NAME),
                results.get(Key.INITIATOR_ALIAS),
                results.get(Key.TARGET_NAME),
                v.apply(Key.AUTH_METHOD));
    }
}
