package org.rdma.mad.sa;

import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;

/** NodeRecord (IBTA 15.2.5.2): LID, reserved, NodeInfo (40 bytes), NodeDescription (64 bytes). */
public final class NodeRecord implements SaRecord {
    /** Bytes on the wire. */
    public static final int BYTES = 108;
    /** Component mask bit of the LID. */
    public static final long LID = 1L;

    /** {@code lid}. */
    public int lid;
    /** {@code node_info}. */
    public NodeInfo nodeInfo = new NodeInfo();
    /** {@code node_desc}. */
    public NodeDescription nodeDesc = new NodeDescription();

    @Override
    public int attrId() {
        return SaMad.ATTR_NODE_REC;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        buf[off] = (byte) (lid >>> 8);
        buf[off + 1] = (byte) lid;
        buf[off + 2] = 0;
        buf[off + 3] = 0;
        nodeInfo.pack(buf, off + 4);
        nodeDesc.pack(buf, off + 44);
        return BYTES;
    }

    @Override
    public NodeRecord unpack(byte[] buf, int off) {
        lid = (buf[off] & 0xff) << 8 | (buf[off + 1] & 0xff);
        nodeInfo = new NodeInfo().unpack(buf, off + 4);
        nodeDesc = new NodeDescription().unpack(buf, off + 44);
        return this;
    }
}
