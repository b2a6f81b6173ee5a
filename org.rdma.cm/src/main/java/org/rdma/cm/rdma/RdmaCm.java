package org.rdma.cm.rdma;

import org.rdma.cm.ib.IbCm;

/**
 * Constants of include/rdma/rdma_cm.h, rdma_cm_ib.h and ib.h: the IB port-space service ID
 * prefixes ({@code RDMA_IB_IP_PS_*}), the UD Q_Key, the IP CM private-data header of IBTA annex
 * A11 and how much private data a consumer may pass with each message once it is in front.
 */
public final class RdmaCm {
    /** {@code RDMA_UDP_QKEY}: the Q_Key of UDP and IB port-space UD ids. */
    public static final int UDP_QKEY = 0x0123_4567;
    /** {@code RDMA_IB_IP_PS_MASK}: the service-ID bits naming a port space. */
    public static final long IB_IP_PS_MASK = 0xFFFF_FFFF_FFFF_0000L;
    /** {@code RDMA_IB_IP_PS_TCP}. */
    public static final long IB_IP_PS_TCP = 0x0000_0000_0106_0000L;
    /** {@code RDMA_IB_IP_PS_UDP}. */
    public static final long IB_IP_PS_UDP = 0x0000_0000_0111_0000L;
    /** {@code RDMA_IB_IP_PS_IB}. */
    public static final long IB_IP_PS_IB = 0x0000_0000_013F_0000L;

    /** Size of {@code struct cma_hdr} (annex A11 IP CM private-data format): version, IP version, port, two addresses. */
    public static final int CMA_HDR_SIZE = 36;
    /** {@code CMA_VERSION}: the header's CM version byte. */
    public static final int CMA_VERSION = 0x00;

    /** REQ private data left to an IP consumer ({@code IB_CM_REQ_PRIVATE_DATA_SIZE} less the header). */
    public static final int REQ_PRIVATE_DATA_SIZE = IbCm.REQ_PRIVATE_DATA_SIZE - CMA_HDR_SIZE;
    /** SIDR_REQ private data left to an IP consumer. */
    public static final int SIDR_REQ_PRIVATE_DATA_SIZE = IbCm.SIDR_REQ_PRIVATE_DATA_SIZE - CMA_HDR_SIZE;

    /** {@code RDMA_MAX_PRIVATE_DATA}: the most private data any RDMA CM message carries. */
    public static final int MAX_PRIVATE_DATA = 256;

    /** {@code CMA_CM_RESPONSE_TIMEOUT}: the CM response timeout exponent the RDMA CM asks for. */
    public static final int CM_RESPONSE_TIMEOUT = 20;
    /** {@code CMA_MAX_CM_RETRIES}. */
    public static final int MAX_CM_RETRIES = 15;
    /** {@code CMA_IBOE_PACKET_LIFETIME}: the packet life time of a RoCE path. */
    public static final int IBOE_PACKET_LIFETIME = 16;

    /** The QPN of a multicast group in {@code param.ud.qp_num} of a join event. */
    public static final int MULTICAST_QPN = 0xFF_FFFF;

    private RdmaCm() {
    }
}
