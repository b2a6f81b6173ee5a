package org.rdma.fabric.ibsim;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The payload of {@link SimCtl#SIM_CTL_CONNECT}, {@code struct sim_client_info} of ibsim's
 * {@code include/ibsim.h}, in the host's byte order ({@link SimCtl#HOST_ORDER}):
 * <pre>
 *  0  u32 id         request: where ibsim sends the client's MADs (remote mode: the client's UDP
 *                    port; local mode: its pid); reply: the client index ibsim assigned
 *  4  u32 qp         a QP number above 1 the client serves (0: only QP0/QP1)
 *  8  u32 issm       non-zero: the client receives requests for QP0 and QP1 of its port
 * 12  char nodeid[32] the node to attach to (node id or NodeDescription; empty: ibsim's default
 *                    node); the reply names the node actually attached
 * </pre>
 *
 * @param id     {@code id}
 * @param qp     {@code qp}
 * @param issm   {@code issm}
 * @param nodeId {@code nodeid}, at most 31 bytes of UTF-8
 */
public record SimClientInfo(int id, int qp, boolean issm, String nodeId) {
    /** {@code sizeof(struct sim_client_info)}. */
    public static final int BYTES = 12 + 32;
    /** Size of {@code nodeid}, terminating NUL included. */
    public static final int NODEID_BYTES = 32;

    /**
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) for a node id that does not fit
     */
    public SimClientInfo {
        checkNodeId(nodeId);
    }

    /**
     * @param nodeId a node id for {@code nodeid}
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if it does not fit with its NUL
     */
    public static void checkNodeId(String nodeId) {
        Objects.requireNonNull(nodeId, "nodeId");
        if (nodeId.getBytes(StandardCharsets.UTF_8).length >= NODEID_BYTES) {
            throw new IllegalArgumentException("EINVAL: ibsim node ids are at most " + (NODEID_BYTES - 1)
                    + " bytes, \"" + nodeId + "\" is longer");
        }
    }

    /** @return the 44 bytes, the way umad2sim's {@code sim_connect()} fills them */
    public byte[] pack() {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(SimCtl.HOST_ORDER);
        b.putInt(id).putInt(qp).putInt(issm ? 1 : 0);
        b.put(nodeId.getBytes(StandardCharsets.UTF_8));
        return b.array();
    }

    /**
     * Reads the structure from the start of a {@link SimCtl#data} (ibsim's reply to CONNECT).
     *
     * @param data the control message's data
     * @return the client info
     * @throws IllegalArgumentException ({@code "EINVAL: ..."}) if the node id is not UTF-8: decoded
     *                                  with replacement characters it would no longer fit
     */
    public static SimClientInfo unpack(byte[] data) {
        Objects.checkFromIndexSize(0, BYTES, data.length);
        ByteBuffer b = ByteBuffer.wrap(data, 0, BYTES).order(SimCtl.HOST_ORDER);
        int id = b.getInt();
        int qp = b.getInt();
        boolean issm = b.getInt() != 0;
        int n = 0;
        while (n < NODEID_BYTES - 1 && data[12 + n] != 0) {
            n++;
        }
        String nodeId;
        try {
            nodeId = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(data, 12, n)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("EINVAL: the node id in a sim_client_info is not UTF-8", e);
        }
        return new SimClientInfo(id, qp, issm, nodeId);
    }
}
