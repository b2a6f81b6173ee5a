package org.rdma.mad.internal;

import org.rdma.mad.MadRecvWc;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;

/**
 * A minimal subnet management agent for devices without one in firmware: the role of the
 * driver's {@code process_mad} and of agent.c's replies. SubnGet(NodeInfo), SubnGet(NodeDescription)
 * and SubnGet(PortInfo) are answered from the device and port attributes; anything else is left
 * to the registered agents (an SM on the same port), so it sits where the kernel calls
 * {@code process_mad}: after the SMI, before agent dispatch.
 *
 * <p>Devices with an embedded SMA (mlx4sim) consume SMP requests in "firmware", so none reach
 * this class from them.
 */
final class SmaAgent {

    /** Answers {@code req} if it is a Get this SMA knows; returns whether it did. */
    boolean process(MadPort port, MadQp q, MadRecvWc req) {
        byte[] resp = answer(port.device, port.portNum, req.mad());
        if (resp == null) {
            return false;
        }
        port.sendResponseRaw(q, req, resp);
        return true;
    }

    /**
     * The GetResp for an SMP request, or {@code null} when this SMA does not answer it.
     *
     * @param device the device answering
     * @param portNum the port it arrived on
     * @param mad the request (256 bytes, after the receive-side SMI)
     * @return the response MAD
     */
    static byte[] answer(IbDevice device, int portNum, byte[] mad) {
        Smp smp = new Smp().unpack(mad, 0);
        if (smp.method != MadHdr.IB_MGMT_METHOD_GET) {
            return null;
        }
        byte[] data;
        switch (smp.attrId) {
            case Smp.IB_SMP_ATTR_NODE_INFO: {
                DeviceAttr a = device.attrs();
                NodeInfo ni = new NodeInfo();
                ni.baseVersion = MadHdr.IB_MGMT_BASE_VERSION;
                ni.classVersion = Smp.IB_SMP_CLASS_VERSION;
                ni.nodeType = device.nodeType() == NodeType.SWITCH ? NodeInfo.NODE_TYPE_SWITCH
                        : device.nodeType() == NodeType.ROUTER ? NodeInfo.NODE_TYPE_ROUTER : NodeInfo.NODE_TYPE_CA;
                ni.numPorts = device.endPort();
                ni.sysImageGuid = a.sysImageGuid;
                ni.nodeGuid = device.nodeGuid();
                ni.portGuid = device.queryGid(portNum, 0).interfaceId();
                ni.partitionCap = a.maxPkeys;
                ni.deviceId = a.vendorPartId;
                ni.revision = a.hwVer;
                ni.localPortNum = portNum;
                ni.vendorId = a.vendorId;
                data = new byte[Smp.IB_SMP_DATA_SIZE];
                ni.pack(data, 0);
                break;
            }
            case Smp.IB_SMP_ATTR_NODE_DESC: {
                NodeDescription nd = NodeDescription.of(device.nodeDesc());
                data = new byte[Smp.IB_SMP_DATA_SIZE];
                nd.pack(data, 0);
                break;
            }
            case Smp.IB_SMP_ATTR_PORT_INFO: {
                int p = smp.attrMod == 0 ? portNum : smp.attrMod;
                if (p < device.startPort() || p > device.endPort()) {
                    return status(smp, MadHdr.IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE);
                }
                PortAttr pa = device.queryPort(p);
                PortInfo pi = new PortInfo();
                pi.gidPrefix = pa.subnetPrefix;
                pi.lid = pa.lid;
                pi.masterSmLid = pa.smLid;
                pi.capabilityMask = pa.portCapFlags;
                pi.localPortNum = portNum;
                pi.portState = pa.state.value <= 4 ? pa.state.value : PortInfo.PORT_STATE_ACTIVE;
                pi.portPhysState = pa.physState.value;
                pi.lmc = pa.lmc;
                pi.masterSmSl = pa.smSl;
                pi.mtuCap = pa.maxMtu.value;
                pi.neighborMtu = pa.activeMtu.value;
                pi.subnetTimeout = pa.subnetTimeout;
                pi.initTypeReply = pa.initTypeReply;
                pi.vlCap = pa.maxVlNum;
                pi.pkeyViolations = pa.badPkeyCntr;
                pi.qkeyViolations = pa.qkeyViolCntr;
                data = new byte[Smp.IB_SMP_DATA_SIZE];
                pi.pack(data, 0);
                break;
            }
            default:
                return null;
        }
        smp.data = data;
        return status(smp, 0);
    }

    private static byte[] status(Smp smp, int status) {
        smp.method = MadHdr.IB_MGMT_METHOD_GET_RESP;
        smp.status = status | (smp.isDirectedRoute() ? Smp.IB_SMP_DIRECTION : 0);
        byte[] out = new byte[MadLayer.MAD_SIZE];
        smp.pack(out, 0);
        return out;
    }
}
