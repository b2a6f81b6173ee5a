package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The REQ message (IBTA table 106): a connection request from the active side. Mirrors {@code struct cm_req_msg}. */
public final class CmReqMsg extends CmMsg<CmReqMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 92;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmReqMsg>> TABLE = List.of(
            at("cm_req_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_req_msg:service_id", 8, 0, 64, m -> m.serviceId, (m, v) -> m.serviceId = v),
            at("cm_req_msg:local_ca_guid", 16, 0, 64, m -> m.localCaGuid, (m, v) -> m.localCaGuid = v),
            at("cm_req_msg:local_q_key", 28, 0, 32, m -> u32(m.localQkey), (m, v) -> m.localQkey = (int) v),
            at("cm_req_msg:local_qpn", 32, 0, 24, m -> m.localQpn, (m, v) -> m.localQpn = (int) v),
            at("cm_req_msg:responder_resources", 35, 0, 8, m -> m.responderResources, (m, v) -> m.responderResources = (int) v),
            at("cm_req_msg:local_eecn", 36, 0, 24, m -> m.localEecn, (m, v) -> m.localEecn = (int) v),
            at("cm_req_msg:initiator_depth", 39, 0, 8, m -> m.initiatorDepth, (m, v) -> m.initiatorDepth = (int) v),
            at("cm_req_msg:remote_eecn", 40, 0, 24, m -> m.remoteEecn, (m, v) -> m.remoteEecn = (int) v),
            at("cm_req_msg:remote_cm_response_timeout", 43, 0, 5, m -> m.remoteCmResponseTimeout, (m, v) -> m.remoteCmResponseTimeout = (int) v),
            at("cm_req_msg:transport_service_type", 43, 5, 2, m -> m.transportServiceType, (m, v) -> m.transportServiceType = (int) v),
            at("cm_req_msg:end_to_end_flow_control", 43, 7, 1, m -> m.endToEndFlowControl, (m, v) -> m.endToEndFlowControl = (int) v),
            at("cm_req_msg:starting_psn", 44, 0, 24, m -> m.startingPsn, (m, v) -> m.startingPsn = (int) v),
            at("cm_req_msg:local_cm_response_timeout", 47, 0, 5, m -> m.localCmResponseTimeout, (m, v) -> m.localCmResponseTimeout = (int) v),
            at("cm_req_msg:retry_count", 47, 5, 3, m -> m.retryCount, (m, v) -> m.retryCount = (int) v),
            at("cm_req_msg:partition_key", 48, 0, 16, m -> m.partitionKey, (m, v) -> m.partitionKey = (int) v),
            at("cm_req_msg:path_packet_payload_mtu", 50, 0, 4, m -> m.pathPacketPayloadMtu, (m, v) -> m.pathPacketPayloadMtu = (int) v),
            at("cm_req_msg:rdc_exists", 50, 4, 1, m -> m.rdcExists, (m, v) -> m.rdcExists = (int) v),
            at("cm_req_msg:rnr_retry_count", 50, 5, 3, m -> m.rnrRetryCount, (m, v) -> m.rnrRetryCount = (int) v),
            at("cm_req_msg:max_cm_retries", 51, 0, 4, m -> m.maxCmRetries, (m, v) -> m.maxCmRetries = (int) v),
            at("cm_req_msg:srq", 51, 4, 1, m -> m.srq, (m, v) -> m.srq = (int) v),
            at("cm_req_msg:extended_transport_type", 51, 5, 3, m -> m.extendedTransportType, (m, v) -> m.extendedTransportType = (int) v),
            at("cm_req_msg:primary_local_port_lid", 52, 0, 16, m -> m.primaryLocalPortLid, (m, v) -> m.primaryLocalPortLid = (int) v),
            at("cm_req_msg:primary_remote_port_lid", 54, 0, 16, m -> m.primaryRemotePortLid, (m, v) -> m.primaryRemotePortLid = (int) v),
            gid("cm_req_msg:primary_local_port_gid", 56, m -> m.primaryLocalPortGid, (m, v) -> m.primaryLocalPortGid = v),
            gid("cm_req_msg:primary_remote_port_gid", 72, m -> m.primaryRemotePortGid, (m, v) -> m.primaryRemotePortGid = v),
            at("cm_req_msg:primary_flow_label", 88, 0, 20, m -> m.primaryFlowLabel, (m, v) -> m.primaryFlowLabel = (int) v),
            at("cm_req_msg:primary_packet_rate", 91, 2, 6, m -> m.primaryPacketRate, (m, v) -> m.primaryPacketRate = (int) v),
            at("cm_req_msg:primary_traffic_class", 92, 0, 8, m -> m.primaryTrafficClass, (m, v) -> m.primaryTrafficClass = (int) v),
            at("cm_req_msg:primary_hop_limit", 93, 0, 8, m -> m.primaryHopLimit, (m, v) -> m.primaryHopLimit = (int) v),
            at("cm_req_msg:primary_sl", 94, 0, 4, m -> m.primarySl, (m, v) -> m.primarySl = (int) v),
            at("cm_req_msg:primary_subnet_local", 94, 4, 1, m -> m.primarySubnetLocal, (m, v) -> m.primarySubnetLocal = (int) v),
            at("cm_req_msg:primary_local_ack_timeout", 95, 0, 5, m -> m.primaryLocalAckTimeout, (m, v) -> m.primaryLocalAckTimeout = (int) v),
            at("cm_req_msg:alternate_local_port_lid", 96, 0, 16, m -> m.alternateLocalPortLid, (m, v) -> m.alternateLocalPortLid = (int) v),
            at("cm_req_msg:alternate_remote_port_lid", 98, 0, 16, m -> m.alternateRemotePortLid, (m, v) -> m.alternateRemotePortLid = (int) v),
            gid("cm_req_msg:alternate_local_port_gid", 100, m -> m.alternateLocalPortGid, (m, v) -> m.alternateLocalPortGid = v),
            gid("cm_req_msg:alternate_remote_port_gid", 116, m -> m.alternateRemotePortGid, (m, v) -> m.alternateRemotePortGid = v),
            at("cm_req_msg:alternate_flow_label", 132, 0, 20, m -> m.alternateFlowLabel, (m, v) -> m.alternateFlowLabel = (int) v),
            at("cm_req_msg:alternate_packet_rate", 135, 2, 6, m -> m.alternatePacketRate, (m, v) -> m.alternatePacketRate = (int) v),
            at("cm_req_msg:alternate_traffic_class", 136, 0, 8, m -> m.alternateTrafficClass, (m, v) -> m.alternateTrafficClass = (int) v),
            at("cm_req_msg:alternate_hop_limit", 137, 0, 8, m -> m.alternateHopLimit, (m, v) -> m.alternateHopLimit = (int) v),
            at("cm_req_msg:alternate_sl", 138, 0, 4, m -> m.alternateSl, (m, v) -> m.alternateSl = (int) v),
            at("cm_req_msg:alternate_subnet_local", 138, 4, 1, m -> m.alternateSubnetLocal, (m, v) -> m.alternateSubnetLocal = (int) v),
            at("cm_req_msg:alternate_local_ack_timeout", 139, 0, 5, m -> m.alternateLocalAckTimeout, (m, v) -> m.alternateLocalAckTimeout = (int) v),
            at("cm_req_msg:sap_supported", 139, 5, 1, m -> m.sapSupported, (m, v) -> m.sapSupported = (int) v),
            data("cm_req_msg:private_data", 140, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmReqMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** ServiceID ({@code service_id}). */
    public long serviceId;
    /** Local CA GUID ({@code local_ca_guid}). */
    public long localCaGuid;
    /** Local Q_Key ({@code local_q_key}), 32 bits unsigned. */
    public int localQkey;
    /** Local QPN ({@code local_qpn}), 24 bits. */
    public int localQpn;
    /** Responder Resources ({@code responder_resources}), 8 bits. */
    public int responderResources;
    /** Local EECN ({@code local_eecn}), 24 bits. */
    public int localEecn;
    /** Initiator Depth ({@code initiator_depth}), 8 bits. */
    public int initiatorDepth;
    /** Remote EECN ({@code remote_eecn}), 24 bits. */
    public int remoteEecn;
    /** Remote CM Response Timeout ({@code remote_cm_response_timeout}), 5 bits. */
    public int remoteCmResponseTimeout;
    /** Transport Service Type: 0 RC, 1 UC, 2 RD, 3 see extended type ({@code transport_service_type}), 2 bits. */
    public int transportServiceType;
    /** End-to-End Flow Control ({@code end_to_end_flow_control}), 1 bits. */
    public int endToEndFlowControl;
    /** Starting PSN ({@code starting_psn}), 24 bits. */
    public int startingPsn;
    /** Local CM Response Timeout ({@code local_cm_response_timeout}), 5 bits. */
    public int localCmResponseTimeout;
    /** Retry Count ({@code retry_count}), 3 bits. */
    public int retryCount;
    /** Partition Key ({@code partition_key}), 16 bits. */
    public int partitionKey;
    /** Path Packet Payload MTU ({@code path_packet_payload_mtu}), 4 bits. */
    public int pathPacketPayloadMtu;
    /** RDC Exists ({@code rdc_exists}), 1 bits. */
    public int rdcExists;
    /** RNR Retry Count ({@code rnr_retry_count}), 3 bits. */
    public int rnrRetryCount;
    /** Max CM Retries ({@code max_cm_retries}), 4 bits. */
    public int maxCmRetries;
    /** SRQ ({@code srq}), 1 bits. */
    public int srq;
    /** Extended Transport Type: 1 XRC ({@code extended_transport_type}), 3 bits. */
    public int extendedTransportType;
    /** Primary Local Port LID ({@code primary_local_port_lid}), 16 bits. */
    public int primaryLocalPortLid;
    /** Primary Remote Port LID ({@code primary_remote_port_lid}), 16 bits. */
    public int primaryRemotePortLid;
    /** Primary Local Port GID ({@code primary_local_port_gid}). */
    public Gid primaryLocalPortGid = Gid.ZERO;
    /** Primary Remote Port GID ({@code primary_remote_port_gid}). */
    public Gid primaryRemotePortGid = Gid.ZERO;
    /** Primary Flow Label ({@code primary_flow_label}), 20 bits. */
    public int primaryFlowLabel;
    /** Primary Packet Rate ({@code primary_packet_rate}), 6 bits. */
    public int primaryPacketRate;
    /** Primary Traffic Class ({@code primary_traffic_class}), 8 bits. */
    public int primaryTrafficClass;
    /** Primary Hop Limit ({@code primary_hop_limit}), 8 bits. */
    public int primaryHopLimit;
    /** Primary SL ({@code primary_sl}), 4 bits. */
    public int primarySl;
    /** Primary Subnet Local ({@code primary_subnet_local}), 1 bits. */
    public int primarySubnetLocal;
    /** Primary Local ACK Timeout ({@code primary_local_ack_timeout}), 5 bits. */
    public int primaryLocalAckTimeout;
    /** Alternate Local Port LID ({@code alternate_local_port_lid}), 16 bits. */
    public int alternateLocalPortLid;
    /** Alternate Remote Port LID ({@code alternate_remote_port_lid}), 16 bits. */
    public int alternateRemotePortLid;
    /** Alternate Local Port GID ({@code alternate_local_port_gid}). */
    public Gid alternateLocalPortGid = Gid.ZERO;
    /** Alternate Remote Port GID ({@code alternate_remote_port_gid}). */
    public Gid alternateRemotePortGid = Gid.ZERO;
    /** Alternate Flow Label ({@code alternate_flow_label}), 20 bits. */
    public int alternateFlowLabel;
    /** Alternate Packet Rate ({@code alternate_packet_rate}), 6 bits. */
    public int alternatePacketRate;
    /** Alternate Traffic Class ({@code alternate_traffic_class}), 8 bits. */
    public int alternateTrafficClass;
    /** Alternate Hop Limit ({@code alternate_hop_limit}), 8 bits. */
    public int alternateHopLimit;
    /** Alternate SL ({@code alternate_sl}), 4 bits. */
    public int alternateSl;
    /** Alternate Subnet Local ({@code alternate_subnet_local}), 1 bits. */
    public int alternateSubnetLocal;
    /** Alternate Local ACK Timeout ({@code alternate_local_ack_timeout}), 5 bits. */
    public int alternateLocalAckTimeout;
    /** SAP Supported ({@code sap_supported}), 1 bits. */
    public int sapSupported;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.REQ_ATTR_ID;
    }

    @Override
    protected void packFields(byte[] buf, int off) {
        CODEC.pack(this, buf, off);
    }

    @Override
    protected void unpackFields(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
    }
}
