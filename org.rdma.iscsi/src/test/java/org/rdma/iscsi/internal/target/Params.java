package org.rdma.iscsi.internal.target;

import org.rdma.iscsi.text.OperationalParameters;

/** Negotiated parameters for engine tests, starting from the RFC's defaults (mutable, then {@link #build}). */
final class Params {
    boolean headerDigest;
    boolean dataDigest;
    int maxConnections = 1;
    boolean initialR2T = true;
    boolean immediateData = true;
    int maxRecvDataSegmentLength = 8192;
    int maxXmitDataSegmentLength = 8192;
    int maxBurstLength = 262144;
    int firstBurstLength = 65536;
    int defaultTime2Wait = 2;
    int defaultTime2Retain = 20;
    int maxOutstandingR2T = 1;
    boolean dataPduInOrder = true;
    boolean dataSequenceInOrder = true;
    boolean discovery;
    String initiatorName = Harness.INI;
    String targetName = Harness.IQN;

    OperationalParameters build() {
        return new OperationalParameters(headerDigest, dataDigest, maxConnections, initialR2T, immediateData,
                maxRecvDataSegmentLength, maxXmitDataSegmentLength, maxBurstLength, firstBurstLength, defaultTime2Wait,
                defaultTime2Retain, maxOutstandingR2T, dataPduInOrder, dataSequenceInOrder, 0, discovery, "RFC3720", 1,
                initiatorName, null, discovery ? null : targetName, "None");
    }
}
