package org.rdma.mad.sa;

import org.rdma.verbs.wire.PortInfo;

/** PortInfoRecord (IBTA 15.2.5.3): EndportLID, PortNum, reserved, PortInfo (64 bytes). */
public final class PortInfoRecord implements SaRecord {
    /** Bytes on the wire. */
    public static final int BYTES = 68;
    /** Component mask bit of the LID. */
    public static final long LID = 1L;
    /** Component mask bit of the port number. */
    public static final long PORT_NUM = 1L << 1;
    /**
     * Component mask bit of PortInfo:CapabilityMask ({@code IB_PIR_COMPMASK_CAPMASK}): an exact
     * match, or with bit 31 of the AttributeModifier set every bit of the query's mask
     * (IBTA 1.2 erratum, {@link #ENHANCED_COMP_MASK}).
     */
    public static final long CAPABILITY_MASK = 1L << 7;
    /** AttributeModifier bit asking for the bitwise CapabilityMask comparison. */
    public static final int ENHANCED_COMP_MASK = 1 << 31;

    /** {@code endport_lid}. */
    public int lid;
    /** {@code port_num}. */
    public int portNum;
    /** {@code port_info}. */
    public PortInfo portInfo = new PortInfo();

    @Override
    public int attrId() {
        return SaMad.ATTR_PORT_INFO_REC;
    }

    @Override
    public int byteLength() {
        return BYTES;
    }

    @Override
    public int pack(byte[] buf, int off) {
        buf[off] = (byte) (lid >>> 8);
        buf[off + 1] = (byte) lid;
        buf[off + 2] = (byte) portNum;
        buf[off + 3] = 0;
        portInfo.pack(buf, off + 4);
        return BYTES;
    }

    @Override
    public PortInfoRecord unpack(byte[] buf, int off) {
        lid = (buf[off] & 0xff) << 8 | (buf[off + 1] & 0xff);
        portNum = buf[off + 2] & 0xff;
        portInfo = new PortInfo().unpack(buf, off + 4);
        return this;
    }
}
