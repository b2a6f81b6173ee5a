package org.rdma.mad.umad;

import java.util.Objects;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.RdmaException;

/**
 * The address of a user MAD: {@code struct ib_user_mad_hdr}'s address part
 * (include/uapi/rdma/ib_user_mad.h; libibumad's {@code ib_mad_addr_t}). On send it says where the
 * MAD goes (the kernel builds an address handle from it); on receive where it came from.
 *
 * @param qpn          {@code qpn}: remote QP (0 for SMPs, 1 for GMPs)
 * @param qkey         {@code qkey}: remote Q_Key; 0 on send means the QP's own (QP1's well-known)
 * @param lid          {@code lid}: remote LID ({@code 0xffff} permissive for directed-route SMPs)
 * @param sl           {@code sl}
 * @param pathBits     {@code path_bits}
 * @param grhPresent   {@code grh_present}
 * @param gidIndex     {@code gid_index}: local source GID index
 * @param hopLimit     {@code hop_limit}
 * @param trafficClass {@code traffic_class}
 * @param gid          {@code gid}: remote GID
 * @param flowLabel    {@code flow_label}
 * @param pkeyIndex    {@code pkey_index}
 */
public record UmadAddr(int qpn, int qkey, int lid, int sl, int pathBits, boolean grhPresent, int gidIndex,
        int hopLimit, int trafficClass, Gid gid, int flowLabel, int pkeyIndex) {

    /** An address without a GRH on P_Key index 0 ({@code umad_set_addr()}). */
    public static UmadAddr lid(int dlid, int dqp, int sl, int qkey) {
        return new UmadAddr(dqp, qkey, dlid, sl, 0, false, 0, 0, 0, Gid.ZERO, 0, 0);
    }

    /** Checks the ranges of {@code struct ib_user_mad_hdr}; a missing GID is the zero GID. */
    public UmadAddr {
        gid = Objects.requireNonNullElse(gid, Gid.ZERO);
        if (qpn < 0 || qpn > 0xff_ffff || lid < 0 || lid > 0xffff || sl < 0 || sl > 15 || pathBits < 0
                || pathBits > 0x7f || gidIndex < 0 || gidIndex > 0xff || hopLimit < 0 || hopLimit > 0xff
                || trafficClass < 0 || trafficClass > 0xff || flowLabel < 0 || flowLabel > 0xf_ffff || pkeyIndex < 0
                || pkeyIndex > 0xffff) {
            throw new RdmaException(Errno.EINVAL, "user MAD address out of range: "
                    + "qpn=" + qpn + " lid=" + lid + " sl=" + sl + " path_bits=" + pathBits + " gid_index=" + gidIndex
                    + " hop_limit=" + hopLimit + " tclass=" + trafficClass + " flow_label=" + flowLabel
                    + " pkey_index=" + pkeyIndex);
        }
    }

    /** {@code umad_set_grh()}: this address with a GRH to {@code dgid}. */
    public UmadAddr withGrh(Gid dgid, int sgidIndex, int hops, int tclass, int flow) {
        return new UmadAddr(qpn, qkey, lid, sl, pathBits, true, sgidIndex, hops, tclass, dgid, flow, pkeyIndex);
    }

    /** {@code umad_set_pkey()}: this address on another P_Key index. */
    public UmadAddr withPkeyIndex(int index) {
        return new UmadAddr(qpn, qkey, lid, sl, pathBits, grhPresent, gidIndex, hopLimit, trafficClass, gid,
                flowLabel, index);
    }
}
