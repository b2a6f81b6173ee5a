package org.rdma.mad.sa;

import java.util.List;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;

/** MCMemberRecord (IBTA 15.2.5.17): {@code struct ib_sa_mcmember_rec}, {@code mcmember_rec_table}. */
public final class McMemberRecord implements SaRecord {
    /** Bytes on the wire. */
    public static final int BYTES = 52;
    /** {@code IB_SA_MCMEMBER_REC_MGID}. */
    public static final long MGID = 1L;
    /** {@code IB_SA_MCMEMBER_REC_PORT_GID}. */
    public static final long PORT_GID = 1L << 1;
    /** {@code IB_SA_MCMEMBER_REC_QKEY}. */
    public static final long QKEY = 1L << 2;
    /** {@code IB_SA_MCMEMBER_REC_MLID}. */
    public static final long MLID = 1L << 3;
    /** {@code IB_SA_MCMEMBER_REC_MTU_SELECTOR}. */
    public static final long MTU_SELECTOR = 1L << 4;
    /** {@code IB_SA_MCMEMBER_REC_MTU}. */
    public static final long MTU = 1L << 5;
    /** {@code IB_SA_MCMEMBER_REC_TRAFFIC_CLASS}. */
    public static final long TRAFFIC_CLASS = 1L << 6;
    /** {@code IB_SA_MCMEMBER_REC_PKEY}. */
    public static final long PKEY = 1L << 7;
    /** {@code IB_SA_MCMEMBER_REC_RATE_SELECTOR}. */
    public static final long RATE_SELECTOR = 1L << 8;
    /** {@code IB_SA_MCMEMBER_REC_RATE}. */
    public static final long RATE = 1L << 9;
    /** {@code IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME_SELECTOR}. */
    public static final long PACKET_LIFE_TIME_SELECTOR = 1L << 10;
    /** {@code IB_SA_MCMEMBER_REC_PACKET_LIFE_TIME}. */
    public static final long PACKET_LIFE_TIME = 1L << 11;
    /** {@code IB_SA_MCMEMBER_REC_SL}. */
    public static final long SL = 1L << 12;
    /** {@code IB_SA_MCMEMBER_REC_FLOW_LABEL}. */
    public static final long FLOW_LABEL = 1L << 13;
    /** {@code IB_SA_MCMEMBER_REC_HOP_LIMIT}. */
    public static final long HOP_LIMIT = 1L << 14;
    /** {@code IB_SA_MCMEMBER_REC_SCOPE}. */
    public static final long SCOPE = 1L << 15;
    /** {@code IB_SA_MCMEMBER_REC_JOIN_STATE}. */
    public static final long JOIN_STATE = 1L << 16;
    /** {@code IB_SA_MCMEMBER_REC_PROXY_JOIN}. */
    public static final long PROXY_JOIN = 1L << 17;
    /** JoinState bit: full member. */
    public static final int FULLMEMBER_JOIN = 1;
    /** JoinState bit: non member. */
    public static final int NONMEMBER_JOIN = 2;
    /** JoinState bit: send-only non member. */
    public static final int SENDONLY_NONMEMBER_JOIN = 4;
    /** JoinState bit: send-only full member. */
    public static final int SENDONLY_FULLMEMBER_JOIN = 8;

    /** {@code mgid}. */
    public Gid mgid = Gid.ZERO;
    /** {@code port_gid}. */
    public Gid portGid = Gid.ZERO;
    /** {@code qkey}. */
    public int qkey;
    /** {@code mlid}. */
    public int mlid;
    /** {@code mtu_selector}. */
    public int mtuSelector;
    /** {@code mtu}. */
    public int mtu;
    /** {@code traffic_class}. */
    public int trafficClass;
    /** {@code pkey}. */
    public int pkey;
    /** {@code rate_selector}. */
    public int rateSelector;
    /** {@code rate}. */
    public int rate;
    /** {@code packet_life_time_selector}. */
    public int packetLifeTimeSelector;
    /** {@code packet_life_time}. */
    public int packetLifeTime;
    /** {@code sl}. */
    public int sl;
    /** {@code flow_label}. */
    public int flowLabel;
    /** {@code hop_limit}. */
    public int hopLimit;
    /** {@code scope}. */
    public int scope;
    /** {@code join_state}. */
    public int joinState;
    /** {@code proxy_join}. */
    public int proxyJoin;

    /** {@code mcmember_rec_table}. */
    public static final List<IbField<McMemberRecord>> TABLE = List.of(
            IbField.gid("sa_mcmember_rec:mgid", 0, 0, r -> r.mgid, (r, v) -> r.mgid = v),
            IbField.gid("sa_mcmember_rec:port_gid", 4, 0, r -> r.portGid, (r, v) -> r.portGid = v),
            IbField.of("sa_mcmember_rec:qkey", 8, 0, 32, r -> r.qkey & 0xffff_ffffL, (r, v) -> r.qkey = (int) v),
            IbField.of("sa_mcmember_rec:mlid", 9, 0, 16, r -> r.mlid, (r, v) -> r.mlid = (int) v),
            IbField.of("sa_mcmember_rec:mtu_selector", 9, 16, 2, r -> r.mtuSelector, (r, v) -> r.mtuSelector = (int) v),
            IbField.of("sa_mcmember_rec:mtu", 9, 18, 6, r -> r.mtu, (r, v) -> r.mtu = (int) v),
            IbField.of("sa_mcmember_rec:traffic_class", 9, 24, 8, r -> r.trafficClass, (r, v) -> r.trafficClass = (int) v),
            IbField.of("sa_mcmember_rec:pkey", 10, 0, 16, r -> r.pkey, (r, v) -> r.pkey = (int) v),
            IbField.of("sa_mcmember_rec:rate_selector", 10, 16, 2, r -> r.rateSelector, (r, v) -> r.rateSelector = (int) v),
            IbField.of("sa_mcmember_rec:rate", 10, 18, 6, r -> r.rate, (r, v) -> r.rate = (int) v),
            IbField.of("sa_mcmember_rec:packet_life_time_selector", 10, 24, 2, r -> r.packetLifeTimeSelector,
                    (r, v) -> r.packetLifeTimeSelector = (int) v),
            IbField.of("sa_mcmember_rec:packet_life_time", 10, 26, 6, r -> r.packetLifeTime,
                    (r, v) -> r.packetLifeTime = (int) v),
            IbField.of("sa_mcmember_rec:sl", 11, 0, 4, r -> r.sl, (r, v) -> r.sl = (int) v),
            IbField.of("sa_mcmember_rec:flow_label", 11, 4, 20, r -> r.flowLabel, (r, v) -> r.flowLabel = (int) v),
            IbField.of("sa_mcmember_rec:hop_limit", 11, 24, 8, r -> r.hopLimit, (r, v) -> r.hopLimit = (int) v),
            IbField.of("sa_mcmember_rec:scope", 12, 0, 4, r -> r.scope, (r, v) -> r.scope = (int) v),
            IbField.of("sa_mcmember_rec:join_state", 12, 4, 4, r -> r.joinState, (r, v) -> r.joinState = (int) v),
            IbField.of("sa_mcmember_rec:proxy_join", 12, 8, 1, r -> r.proxyJoin, (r, v) -> r.proxyJoin = (int) v),
            IbField.reserved(12, 9, 23));

    /** {@link #TABLE}, compiled. */
    private static final IbCodec<McMemberRecord> CODEC = IbCodec.of(TABLE);

    @Override
    public int attrId() {
        return SaMad.ATTR_MC_MEMBER_REC;
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
    public McMemberRecord unpack(byte[] buf, int off) {
        CODEC.unpack(buf, off, this);
        return this;
    }

    /** A copy. */
    public McMemberRecord copy() {
        byte[] b = new byte[BYTES];
        pack(b, 0);
        return new McMemberRecord().unpack(b, 0);
    }
}
