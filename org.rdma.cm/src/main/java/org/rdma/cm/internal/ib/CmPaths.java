package org.rdma.cm.internal.ib;

import org.rdma.cm.internal.ib.msg.CmLapMsg;
import org.rdma.cm.internal.ib.msg.CmReqMsg;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.SaService;
import org.rdma.verbs.AhAttr;
import org.rdma.verbs.AhAttrType;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PortIndex;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.Wc;
import org.rdma.verbs.WcFlags;

/**
 * Paths and address vectors: {@code cm_init_av_by_path()}, {@code cm_init_av_for_response()}
 * with {@code ib_init_ah_attr_from_wc()}, and the path records the passive side rebuilds from a
 * REQ or LAP ({@code cm_format_paths_from_req()}, {@code cm_format_path_from_lap()}).
 */
final class CmPaths {
    /** {@code IB_LID_PERMISSIVE}: the LID a REQ carries for a path leaving the subnet. */
    static final int LID_PERMISSIVE = 0xFFFF;
    /** {@code RDMA_NETWORK_IPV4}. */
    static final int NETWORK_IPV4 = 2;
    /** {@code IB_SA_EQ}: the selector of a path record value taken as is. */
    private static final int SELECTOR_EQ = 2;

    private CmPaths() {
    }

    /**
     * {@code cm_init_av_by_path()}: the port from the source GID (or {@code sgidAttr}), the P_Key
     * index, the address vector from {@code ib_init_ah_attr_from_path()} and the ACK timeout of
     * the path. {@code av} is changed only when everything succeeded.
     */
    static void initAvByPath(CmDevice dev, SaService sa, PathRecord path, GidAttr sgidAttr, CmAv av) {
        IbDevice d = dev.device;
        int portNum;
        if (sgidAttr != null) {
            if (sgidAttr.device() != d) {
                throw new RdmaException(Errno.EINVAL,
                        "the source GID entry belongs to " + sgidAttr.device().name() + ", not " + d.name());
            }
            portNum = sgidAttr.portNum();
        } else {
            portNum = findGid(d, path.sgid, path.roce ? GidType.ROCE_UDP_ENCAP : GidType.IB).port;
        }
        CmPort port = dev.port(portNum);
        if (port == null) {
            throw new RdmaException(Errno.EINVAL, d.name() + "/" + portNum + " has no CM");
        }
        int pkeyIndex = d.findPkey(portNum, path.pkey);
        AhAttr a = new AhAttr();
        sa.initAhAttrFromPath(d, portNum, path, a);
        av.port = port;
        av.pkeyIndex = pkeyIndex;
        AhAttr.move(av.ahAttr, a);
        av.timeout = Math.min(CmTime.MAX_EXPONENT, path.packetLifeTime + 1);
    }

    /** {@code cm_init_av_for_response()}: back to the sender of {@code wc}. */
    static void initAvForResponse(CmPort port, MadRecvWc wc, CmAv av) {
        av.port = port;
        av.pkeyIndex = wc.wc().pkeyIndex;
        AhAttr a = ahAttrFromWc(port, wc);
        AhAttr.move(av.ahAttr, a);
    }

    /**
     * {@code ib_init_ah_attr_from_wc()}: the reverse of the path a MAD came on. With a GRH (always
     * on RoCE) the destination is the sender's GID and the source our GID the MAD was sent to; a
     * RoCEv2 IPv4 packet's addresses are the IPv4-mapped GIDs of the IPv4 header, which sits in
     * the last 20 bytes of the 40-byte GRH area.
     */
    static AhAttr ahAttrFromWc(CmPort port, MadRecvWc recv) {
        Wc wc = recv.wc();
        AhAttr a = new AhAttr();
        a.type = port.roce ? AhAttrType.ROCE : AhAttrType.IB;
        a.portNum = port.portNum;
        a.sl = wc.sl;
        if (!port.roce) {
            a.dlid = wc.slid;
            a.srcPathBits = wc.dlidPathBits;
        }
        byte[] grh = recv.grh();
        if (grh == null || (wc.wcFlags & WcFlags.GRH) == 0 && !port.roce) {
            if (port.roce) {
                throw new RdmaException(Errno.EINVAL, port + ": a RoCE MAD without its network header");
            }
            return a;
        }
        boolean v4 = (wc.wcFlags & WcFlags.WITH_NETWORK_HDR_TYPE) != 0 && wc.networkHdrType == NETWORK_IPV4;
        Gid sgid;
        Gid dgid;
        int flow;
        int tclass;
        if (v4) {
            sgid = v4Mapped(grh, 20 + 12);
            dgid = v4Mapped(grh, 20 + 16);
            flow = 0;
            tclass = grh[21] & 0xFF;
        } else {
            sgid = Gid.of(grh, 8);
            dgid = Gid.of(grh, 24);
            flow = (grh[1] & 0x0F) << 16 | (grh[2] & 0xFF) << 8 | grh[3] & 0xFF;
            tclass = (grh[0] & 0x0F) << 4 | (grh[1] & 0xF0) >>> 4;
        }
        PortIndex ours = findGid(port.device(), dgid, null);
        a.setGrh(sgid, flow, ours.index, 0xFF, tclass, null);
        return a;
    }

    /** {@code rdma_find_gid()} on any port (InfiniBand or RoCE), as a port and table index; ENOENT. */
    static PortIndex findGid(IbDevice d, Gid gid, GidType type) {
        GidAttr attr = d.findGidAttr(gid, type, null);
        try {
            return new PortIndex(attr.portNum(), attr.index());
        } finally {
            attr.put();
        }
    }

    private static Gid v4Mapped(byte[] b, int off) {
        long ip = (b[off] & 0xFFL) << 24 | (b[off + 1] & 0xFFL) << 16 | (b[off + 2] & 0xFFL) << 8 | b[off + 3] & 0xFFL;
        return Gid.of(0, 0xFFFF_0000_0000L | ip);
    }

    /** {@code cm_req_has_alt_path()}. */
    static boolean reqHasAltPath(CmReqMsg req) {
        return req.alternateLocalPortLid != 0 || !req.alternateLocalPortGid.isZero();
    }

    /**
     * {@code cm_format_paths_from_req()} and {@code cm_process_routed_req()}: the primary (and
     * alternate) path of a REQ seen from the passive side, so its source is this node.
     */
    static PathRecord[] pathsFromReq(CmReqMsg req, Wc wc, boolean roce, int hopLimit) {
        routedReq(req, wc);
        PathRecord p = new PathRecord();
        p.dgid = req.primaryLocalPortGid;
        p.sgid = req.primaryRemotePortGid;
        p.dlid = req.primaryLocalPortLid;
        p.slid = req.primaryRemotePortLid;
        p.flowLabel = req.primaryFlowLabel;
        p.hopLimit = hopLimit;
        p.trafficClass = req.primaryTrafficClass;
        p.sl = req.primarySl;
        p.rate = req.primaryPacketRate;
        p.packetLifeTime = lifeTimeFromAckTimeout(req.primaryLocalAckTimeout);
        common(p, req, roce);
        PathRecord alt = null;
        if (reqHasAltPath(req)) {
            alt = new PathRecord();
            alt.dgid = req.alternateLocalPortGid;
            alt.sgid = req.alternateRemotePortGid;
            alt.dlid = req.alternateLocalPortLid;
            alt.slid = req.alternateRemotePortLid;
            alt.flowLabel = req.alternateFlowLabel;
            alt.hopLimit = req.alternateHopLimit;
            alt.trafficClass = req.alternateTrafficClass;
            alt.sl = req.alternateSl;
            alt.rate = req.alternatePacketRate;
            alt.packetLifeTime = lifeTimeFromAckTimeout(req.alternateLocalAckTimeout);
            common(alt, req, roce);
        }
        return new PathRecord[] {p, alt};
    }

    private static void common(PathRecord p, CmReqMsg req, boolean roce) {
        p.reversible = 1;
        p.pkey = req.partitionKey;
        p.mtuSelector = SELECTOR_EQ;
        p.mtu = req.pathPacketPayloadMtu;
        p.rateSelector = SELECTOR_EQ;
        p.packetLifeTimeSelector = SELECTOR_EQ;
        p.serviceId = req.serviceId;
        p.roce = roce;
    }

    /** The REQ's ACK timeout includes one doubling for the round trip; the path's life time does not. */
    private static int lifeTimeFromAckTimeout(int ackTimeout) {
        return ackTimeout > 0 ? ackTimeout - 1 : 0;
    }

    /** {@code cm_process_routed_req()}: permissive LIDs of a routed path replaced by the MAD's own. */
    private static void routedReq(CmReqMsg req, Wc wc) {
        if (req.primarySubnetLocal == 0) {
            if (req.primaryLocalPortLid == LID_PERMISSIVE) {
                req.primaryLocalPortLid = wc.slid;
                req.primarySl = wc.sl;
            }
            if (req.primaryRemotePortLid == LID_PERMISSIVE) {
                req.primaryRemotePortLid = wc.dlidPathBits;
            }
        }
        if (req.alternateSubnetLocal == 0) {
            if (req.alternateLocalPortLid == LID_PERMISSIVE) {
                req.alternateLocalPortLid = wc.slid;
                req.alternateSl = wc.sl;
            }
            if (req.alternateRemotePortLid == LID_PERMISSIVE) {
                req.alternateRemotePortLid = wc.dlidPathBits;
            }
        }
    }

    /** {@code cm_format_path_from_lap()}: the alternate path a LAP proposes, seen from this node. */
    static PathRecord pathFromLap(CmLapMsg lap, int pkey, int mtu) {
        PathRecord p = new PathRecord();
        p.dgid = lap.alternateLocalPortGid;
        p.sgid = lap.alternateRemotePortGid;
        p.dlid = lap.alternateLocalPortLid;
        p.slid = lap.alternateRemotePortLid;
        p.flowLabel = lap.alternateFlowLabel;
        p.hopLimit = lap.alternateHopLimit;
        p.trafficClass = lap.alternateTrafficClass;
        p.reversible = 1;
        p.pkey = pkey;
        p.sl = lap.alternateSl;
        p.mtuSelector = SELECTOR_EQ;
        p.mtu = mtu;
        p.rateSelector = SELECTOR_EQ;
        p.rate = lap.alternatePacketRate;
        p.packetLifeTimeSelector = SELECTOR_EQ;
        p.packetLifeTime = lifeTimeFromAckTimeout(lap.alternateLocalAckTimeout);
        return p;
    }
}
