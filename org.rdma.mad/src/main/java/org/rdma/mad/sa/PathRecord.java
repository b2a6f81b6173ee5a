package org.rdma.mad.sa;

import java.util.List;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** PathRecord (IBTA 15.2.5.16): {@code struct sa_path_rec} with the kernel's {@code path_rec_table}. */
public final class PathRecord implements SaRecord {
    /** Bytes on the wire. */
    public static final int BYTES = 64;
    /** {@code IB_SA_PATH_REC_SERVICE_ID}. */
    public static final long SERVICE_ID = 3L;
    /** {@code IB_SA_PATH_REC_DGID}. */
    public static final long DGID = 1L << 2;
    /** {@code IB_SA_PATH_REC_SGID}. */
    public static final long SGID = 1L << 3;
    /** {@code IB_SA_PATH_REC_DLID}. */
    public static final long DLID = 1L << 4;
    /** {@code IB_SA_PATH_REC_SLID}. */
    public static final long SLID = 1L << 5;
    /** {@code IB_SA_PATH_REC_RAW_TRAFFIC}. */
    public static final long RAW_TRAFFIC = 1L << 6;
    /** {@code IB_SA_PATH_REC_FLOW_LABEL}. */
    public static final long FLOW_LABEL = 1L << 8;
    /** {@code IB_SA_PATH_REC_HOP_LIMIT}. */
    public static final long HOP_LIMIT = 1L << 9;
    /** {@code IB_SA_PATH_REC_TRAFFIC_CLASS}. */
    public static final long TRAFFIC_CLASS = 1L << 10;
    /** {@code IB_SA_PATH_REC_REVERSIBLE}. */
    public static final long REVERSIBLE = 1L << 11;
    /** {@code IB_SA_PATH_REC_NUMB_PATH}. */
    public static final long NUMB_PATH = 1L << 12;
    /** {@code IB_SA_PATH_REC_PKEY}. */
    public static final long PKEY = 1L << 13;
    /** {@code IB_SA_PATH_REC_QOS_CLASS}. */
    public static final long QOS_CLASS = 1L << 14;
    /** {@code IB_SA_PATH_REC_SL}. */
    public static final long SL = 1L << 15;
    /** {@code IB_SA_PATH_REC_MTU_SELECTOR}. */
    public static final long MTU_SELECTOR = 1L << 16;
    /** {@code IB_SA_PATH_REC_MTU}. */
    public static final long MTU = 1L << 17;
    /** {@code IB_SA_PATH_REC_RATE_SELECTOR}. */
    public static final long RATE_SELECTOR = 1L << 18;
    /** {@code IB_SA_PATH_REC_RATE}. */
    public static final long RATE = 1L << 19;
    /** {@code IB_SA_PATH_REC_PACKET_LIFE_TIME_SELECTOR}. */
    public static final long PACKET_LIFE_TIME_SELECTOR = 1L << 20;
    /** {@code IB_SA_PATH_REC_PACKET_LIFE_TIME}. */
    public static final long PACKET_LIFE_TIME = 1L << 21;
    /** {@code IB_SA_PATH_REC_PREFERENCE}. */
    public static final long PREFERENCE = 1L << 22;

    /** {@code service_id}. */
    public long serviceId;
    /** {@code dgid}. */
    public Gid dgid = Gid.ZERO;
    /** {@code sgid}. */
    public Gid sgid = Gid.ZERO;
    /** {@code dlid}. */
    public int dlid;
    /** {@code slid}. */
    public int slid;
    /** {@code raw_traffic}. */
    public int rawTraffic;
    /** {@code flow_label}. */
    public int flowLabel;
    /** {@code hop_limit}. */
    public int hopLimit;
    /** {@code traffic_class}. */
    public int trafficClass;
    /** {@code reversible}. */
    public int reversible;
    /** {@code numb_path}. */
    public int numbPath;
    /** {@code pkey}. */
    public int pkey;
    /** {@code qos_class}. */
    public int qosClass;
    /** {@code sl}. */
    public int sl;
    /** {@code mtu_selector}. */
    public int mtuSelector;
    /** {@code mtu} (IBTA encoding). */
    public int mtu;
    /** {@code rate_selector}. */
    public int rateSelector;
    /** {@code rate} (IBTA encoding). */
    public int rate;
    /** {@code packet_life_time_selector}. */
    public int packetLifeTimeSelector;
    /** {@code packet_life_time}. */
    public int packetLifeTime;
    /** {@code preference}. */
    public int preference;
    /** {@code rec_type}: true for a RoCE record synthesised locally ({@code SA_PATH_REC_TYPE_ROCE_V2}). */
    public boolean roce;

    /** {@code path_rec_table}. */
    public static final List<IbField<PathRecord>> TABLE = List.of(
            IbField.of("sa_path_rec:service_id", 0, 0, 64, r -> r.serviceId, (r, v) -> r.serviceId = v),
            IbField.gid("sa_path_rec:dgid", 2, 0, r -> r.dgid, (r, v) -> r.dgid = v),
            IbField.gid("sa_path_rec:sgid", 6, 0, r -> r.sgid, (r, v) -> r.sgid = v),
            IbField.of("sa_path_rec:dlid", 10, 0, 16, r -> r.dlid, (r, v) -> r.dlid = (int) v),
            IbField.of("sa_path_rec:slid", 10, 16, 16, r -> r.slid, (r, v) -> r.slid = (int) v),
            IbField.of("sa_path_rec:raw_traffic", 11, 0, 1, r -> r.rawTraffic, (r, v) -> r.rawTraffic = (int) v),
            IbField.reserved(11, 1, 3),
            IbField.of("sa_path_rec:flow_label", 11, 4, 20, r -> r.flowLabel, (r, v) -> r.flowLabel = (int) v),
            IbField.of("sa_path_rec:hop_limit", 11, 24, 8, r -> r.hopLimit, (r, v) -> r.hopLimit = (int) v),
            IbField.of("sa_path_rec:traffic_class", 12, 0, 8, r -> r.trafficClass, (r, v) -> r.trafficClass = (int) v),
            IbField.of("sa_path_rec:reversible", 12, 8, 1, r -> r.reversible, (r, v) -> r.reversible = (int) v),
            IbField.of("sa_path_rec:numb_path", 12, 9, 7, r -> r.numbPath, (r, v) -> r.numbPath = (int) v),
            IbField.of("sa_path_rec:pkey", 12, 16, 16, r -> r.pkey, (r, v) -> r.pkey = (int) v),
            IbField.of("sa_path_rec:qos_class", 13, 0, 12, r -> r.qosClass, (r, v) -> r.qosClass = (int) v),
            IbField.of("sa_path_rec:sl", 13, 12, 4, r -> r.sl, (r, v) -> r.sl = (int) v),
            IbField.of("sa_path_rec:mtu_selector", 13, 16, 2, r -> r.mtuSelector, (r, v) -> r.mtuSelector = (int) v),
            IbField.of("sa_path_rec:mtu", 13, 18, 6, r -> r.mtu, (r, v) -> r.mtu = (int) v),
            IbField.of("sa_path_rec:rate_selector", 13, 24, 2, r -> r.rateSelector, (r, v) -> r.rateSelector = (int) v),
            IbField.of("sa_path_rec:rate", 13, 26, 6, r -> r.rate, (r, v) -> r.rate = (int) v),
            IbField.of("sa_path_rec:packet_life_time_selector", 14, 0, 2, r -> r.packetLifeTimeSelector,
                    (r, v) -> r.packetLifeTimeSelector = (int) v),
            IbField.of("sa_path_rec:packet_life_time", 14, 2, 6, r -> r.packetLifeTime, (r, v) -> r.packetLifeTime = (int) v),
            IbField.of("sa_path_rec:preference", 14, 8, 8, r -> r.preference, (r, v) -> r.preference = (int) v),
            IbField.reserved(14, 16, 48));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<PathRecord> CODEC = IbCodec.of(TABLE);

    @Override
    public int attrId() {
        return SaMad.ATTR_PATH_REC;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        CODEC.pack(this, buf, off);
        return BYTES;
    }

    @Override
    public PathRecord unpack(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
        return this;
    }

    @Override
    public String toString() {
        return "PathRecord[dgid=" + dgid + " sgid=" + sgid + " dlid=" + dlid + " slid=" + slid + " sl=" + sl
                + " mtu=" + mtu + " rate=" + rate + " pkey=0x" + Integer.toHexString(pkey) + (roce ? " roce" : "") + "]";
    }
}
