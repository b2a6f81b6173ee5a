package org.rdma.fabric.ibsim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * One control message of the ibsim protocol, {@code struct sim_ctl} of ibsim's
 * {@code include/ibsim.h}: what a client (umad2sim's {@code sim_ctl()}) sends to the simulator's
 * control socket and what ibsim's {@code sim_ctl()} sends back, the same structure filled in.
 *
 * <h2>Layout (80 bytes)</h2>
 * <pre>
 *  0  u32 magic      SIM_MAGIC 0xdeadbeef
 *  4  u32 clientid   the client index ibsim assigned (0 before SIM_CTL_CONNECT)
 *  8  u32 type       SIM_CTL_*; the reply carries SIM_CTL_ERROR when ibsim refused
 * 12  u32 len        length of the request's payload (ibsim does not read it)
 * 16  u8  data[64]   request payload, replaced by the reply's
 * </pre>
 * The integers are in the host's own byte order, because both ends copy the C structure as it
 * lies in memory. ibsim runs on little-endian hosts (x86-64, arm64), so this class encodes
 * {@link #HOST_ORDER} little-endian; ibsim answers only messages of exactly {@link #BYTES} bytes
 * with the right magic.
 */
public final class SimCtl {
    /** The byte order of the simulator's host, in which its structures travel. */
    public static final ByteOrder HOST_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** {@code SIM_MAGIC}. */
    public static final int SIM_MAGIC = 0xdeadbeef;
    /** {@code SIM_CTL_MAX_DATA}: size of {@link #data}. */
    public static final int SIM_CTL_MAX_DATA = 64;
    /** {@code sizeof(struct sim_ctl)}. */
    public static final int BYTES = 16 + SIM_CTL_MAX_DATA;

    /** {@code SIM_CTL_ERROR}: the reply type of a refused request. */
    public static final int SIM_CTL_ERROR = 0;
    /** {@code SIM_CTL_CONNECT}: attach to a node ({@link SimClientInfo} in, the same filled in out). */
    public static final int SIM_CTL_CONNECT = 1;
    /** {@code SIM_CTL_DISCONNECT}: release the client slot. */
    public static final int SIM_CTL_DISCONNECT = 2;
    /** {@code SIM_CTL_GET_PORT}: {@code struct sim_port} (u16 LID, u8 PortState). */
    public static final int SIM_CTL_GET_PORT = 3;
    /** {@code SIM_CTL_GET_VENDOR}: {@code struct sim_vendor}. */
    public static final int SIM_CTL_GET_VENDOR = 4;
    /** {@code SIM_CTL_GET_GID}: GID prefix (wire order) and node GUID (host order). */
    public static final int SIM_CTL_GET_GID = 5;
    /** {@code SIM_CTL_GET_GUID}: the node GUID (host order). */
    public static final int SIM_CTL_GET_GUID = 6;
    /** {@code SIM_CTL_GET_NODEINFO}: the node's NodeInfo attribute (wire format). */
    public static final int SIM_CTL_GET_NODEINFO = 7;
    /** {@code SIM_CTL_GET_PORTINFO}: data[0] = port number in, the PortInfo attribute (wire format) out. */
    public static final int SIM_CTL_GET_PORTINFO = 8;
    /** {@code SIM_CTL_SET_ISSM}: an {@code int}, sets or clears PortInfo:CapabilityMask.IsSM. */
    public static final int SIM_CTL_SET_ISSM = 9;
    /** {@code SIM_CTL_GET_PKEYS}: the P_Key table (host-order u16 entries). */
    public static final int SIM_CTL_GET_PKEYS = 10;

    private static final String[] NAMES = {"SIM_CTL_ERROR", "SIM_CTL_CONNECT", "SIM_CTL_DISCONNECT",
        "SIM_CTL_GET_PORT", "SIM_CTL_GET_VENDOR", "SIM_CTL_GET_GID", "SIM_CTL_GET_GUID", "SIM_CTL_GET_NODEINFO",
        "SIM_CTL_GET_PORTINFO", "SIM_CTL_SET_ISSM", "SIM_CTL_GET_PKEYS"};

    /** {@code magic}. */
    public int magic = SIM_MAGIC;
    /** {@code clientid}. */
    public int clientId;
    /** {@code type}: one of {@code SIM_CTL_*}. */
    public int type;
    /** {@code len}. */
    public int len;
    /** {@code data[SIM_CTL_MAX_DATA]}. */
    public final byte[] data = new byte[SIM_CTL_MAX_DATA];

    /** An empty message with the magic set. */
    public SimCtl() {
    }

    /**
     * A request as umad2sim's {@code sim_ctl()} builds it: magic, client id, type, and the
     * payload copied to the start of {@link #data} with its length in {@link #len}.
     *
     * @param clientId the client index (0 before connecting)
     * @param type     {@code SIM_CTL_*}
     * @param payload  at most {@link #SIM_CTL_MAX_DATA} bytes
     * @return the message
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the payload is too long
     */
    public static SimCtl request(int clientId, int type, byte[] payload) {
        if (payload.length > SIM_CTL_MAX_DATA) {
            throw new IllegalArgumentException("EINVAL: sim_ctl data holds " + SIM_CTL_MAX_DATA + " bytes, not "
                    + payload.length);
        }
        SimCtl c = new SimCtl();
        c.clientId = clientId;
        c.type = type;
        c.len = payload.length;
        System.arraycopy(payload, 0, c.data, 0, payload.length);
        return c;
    }

    /**
     * Writes the 80-byte structure.
     *
     * @param buf destination
     * @param off first byte
     * @return {@link #BYTES}
     */
    public int pack(byte[] buf, int off) {
        Objects.checkFromIndexSize(off, BYTES, buf.length);
        ByteBuffer b = ByteBuffer.wrap(buf, off, BYTES).order(HOST_ORDER);
        b.putInt(magic).putInt(clientId).putInt(type).putInt(len).put(data);
        return BYTES;
    }

    /** @return the 80 bytes of this message */
    public byte[] pack() {
        byte[] b = new byte[BYTES];
        pack(b, 0);
        return b;
    }

    /**
     * Reads a received message, as ibsim's {@code sim_ctl()} and umad2sim's {@code sim_ctl()} do:
     * anything but exactly {@link #BYTES} bytes is refused; the magic is kept for the caller to
     * check ({@link #hasMagic()}).
     *
     * @param buf source
     * @param off first byte
     * @param len number of bytes received
     * @return the message
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if {@code len} is not {@link #BYTES}
     */
    public static SimCtl unpack(byte[] buf, int off, int len) {
        if (len != BYTES) {
            throw new IllegalArgumentException("EINVAL: a sim_ctl message is " + BYTES + " bytes, got " + len);
        }
        Objects.checkFromIndexSize(off, len, buf.length);
        ByteBuffer b = ByteBuffer.wrap(buf, off, BYTES).order(HOST_ORDER);
        SimCtl c = new SimCtl();
        c.magic = b.getInt();
        c.clientId = b.getInt();
        c.type = b.getInt();
        c.len = b.getInt();
        b.get(c.data);
        return c;
    }

    /** @return whether {@link #magic} is {@link #SIM_MAGIC} */
    public boolean hasMagic() {
        return magic == SIM_MAGIC;
    }

    /** @return {@link #data} read in the host's byte order, for the typed replies */
    public ByteBuffer dataBuffer() {
        return ByteBuffer.wrap(data).order(HOST_ORDER);
    }

    /**
     * @param type a {@code SIM_CTL_*} value
     * @return its C name, or the number for an unknown type
     */
    public static String typeName(int type) {
        return type >= 0 && type < NAMES.length ? NAMES[type] : "SIM_CTL_" + type;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimCtl c && magic == c.magic && clientId == c.clientId && type == c.type && len == c.len
                && Arrays.equals(data, c.data);
    }

    @Override
    public int hashCode() {
        return Objects.hash(magic, clientId, type, len, Arrays.hashCode(data));
    }

    @Override
    public String toString() {
        return String.format("sim_ctl{magic=0x%08x, clientid=%d, %s, len=%d}", magic, clientId, typeName(type), len);
    }
}
