package org.rdma.cm.internal.ib.msg;

import java.util.List;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** The LAP message (IBTA table 115): load an alternate path. Mirrors {@code struct cm_lap_msg}. */
public final class CmLapMsg extends CmMsg<CmLapMsg> {
    /** Bytes of the Private Data area. */
    public static final int PRIVATE_DATA_SIZE = 168;
    /** The field table, in IBTA byte/bit coordinates. */
    public static final List<IbField<CmLapMsg>> TABLE = List.of(
            at("cm_lap_msg:local_comm_id", 0, 0, 32, m -> u32(m.localCommId), (m, v) -> m.localCommId = (int) v),
            at("cm_lap_msg:remote_comm_id", 4, 0, 32, m -> u32(m.remoteCommId), (m, v) -> m.remoteCommId = (int) v),
            at("cm_lap_msg:remote_qpn_eecn", 12, 0, 24, m -> m.remoteQpnEecn, (m, v) -> m.remoteQpnEecn = (int) v),
            at("cm_lap_msg:remote_cm_response_timeout", 15, 0, 5, m -> m.remoteCmResponseTimeout, (m, v) -> m.remoteCmResponseTimeout = (int) v),
            at("cm_lap_msg:alternate_local_port_lid", 20, 0, 16, m -> m.alternateLocalPortLid, (m, v) -> m.alternateLocalPortLid = (int) v),
            at("cm_lap_msg:alternate_remote_port_lid", 22, 0, 16, m -> m.alternateRemotePortLid, (m, v) -> m.alternateRemotePortLid = (int) v),
            gid("cm_lap_msg:alternate_local_port_gid", 24, m -> m.alternateLocalPortGid, (m, v) -> m.alternateLocalPortGid = v),
            gid("cm_lap_msg:alternate_remote_port_gid", 40, m -> m.alternateRemotePortGid, (m, v) -> m.alternateRemotePortGid = v),
            at("cm_lap_msg:alternate_flow_label", 56, 0, 20, m -> m.alternateFlowLabel, (m, v) -> m.alternateFlowLabel = (int) v),
            at("cm_lap_msg:alternate_traffic_class", 59, 0, 8, m -> m.alternateTrafficClass, (m, v) -> m.alternateTrafficClass = (int) v),
            at("cm_lap_msg:alternate_hop_limit", 60, 0, 8, m -> m.alternateHopLimit, (m, v) -> m.alternateHopLimit = (int) v),
            at("cm_lap_msg:alternate_packet_rate", 61, 2, 6, m -> m.alternatePacketRate, (m, v) -> m.alternatePacketRate = (int) v),
            at("cm_lap_msg:alternate_sl", 62, 0, 4, m -> m.alternateSl, (m, v) -> m.alternateSl = (int) v),
            at("cm_lap_msg:alternate_subnet_local", 62, 4, 1, m -> m.alternateSubnetLocal, (m, v) -> m.alternateSubnetLocal = (int) v),
            at("cm_lap_msg:alternate_local_ack_timeout", 63, 0, 5, m -> m.alternateLocalAckTimeout, (m, v) -> m.alternateLocalAckTimeout = (int) v),
            data("cm_lap_msg:private_data", 64, PRIVATE_DATA_SIZE, m -> m.privateData, (m, v) -> m.privateData = v));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<CmLapMsg> CODEC = IbCodec.of(TABLE);

    /** Local Communication ID ({@code local_comm_id}), 32 bits unsigned. */
    public int localCommId;
    /** Remote Communication ID ({@code remote_comm_id}), 32 bits unsigned. */
    public int remoteCommId;
    /** Remote QPN/EECN ({@code remote_qpn_eecn}), 24 bits. */
    public int remoteQpnEecn;
    /** Remote CM Response Timeout ({@code remote_cm_response_timeout}), 5 bits. */
    public int remoteCmResponseTimeout;
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
    /** Alternate Traffic Class ({@code alternate_traffic_class}), 8 bits. */
    public int alternateTrafficClass;
    /** Alternate Hop Limit ({@code alternate_hop_limit}), 8 bits. */
    public int alternateHopLimit;
    /** Alternate Packet Rate ({@code alternate_packet_rate}), 6 bits. */
    public int alternatePacketRate;
    /** Alternate SL ({@code alternate_sl}), 4 bits. */
    public int alternateSl;
    /** Alternate Subnet Local ({@code alternate_subnet_local}), 1 bits. */
    public int alternateSubnetLocal;
    /** Alternate Local ACK Timeout ({@code alternate_local_ack_timeout}), 5 bits. */
    public int alternateLocalAckTimeout;
    /** Private Data ({@code private_data}): always {@link #PRIVATE_DATA_SIZE} bytes. */
    public byte[] privateData = new byte[PRIVATE_DATA_SIZE];

    @Override
    public int attrId() {
        return IbCm.LAP_ATTR_ID;
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
