package org.rdma.cm.rdma;

import org.rdma.verbs.AhAttr;

/**
 * {@code struct rdma_ud_param}: the remote end of a UD id ({@code ESTABLISHED} after SIDR) or a
 * multicast group ({@code MULTICAST_JOIN}), and the private data of a UD {@code CONNECT_REQUEST}.
 * The address vector holds no SGID reference once the handler returned: copy it with
 * {@link AhAttr#copy} to keep it.
 */
public final class RdmaUdParam {
    /** {@code private_data}. */
    public byte[] privateData;
    /** {@code ah_attr}: the address of the peer or group, for {@code rdma_create_ah()}. */
    public final AhAttr ahAttr = new AhAttr();
    /** {@code qp_num}: the peer's QP, or {@link RdmaCm#MULTICAST_QPN}. */
    public int qpNum;
    /** {@code qkey}. */
    public int qkey;
    /**
     * The context given to {@link RdmaCmService#joinMulticast} (the kernel passes it in
     * {@code param.ud.private_data} of multicast events).
     */
    public Object context;

    @Override
    public String toString() {
        return "RdmaUdParam[qpn=0x" + Integer.toHexString(qpNum) + " qkey=0x" + Integer.toHexString(qkey) + " "
                + ahAttr + "]";
    }
}
