package org.rdma.rvt;

import java.nio.ByteBuffer;
import org.rdma.verbs.AhAttr;

/**
 * One transport packet as the transport and a driver exchange it ({@code struct rxe_pkt_info}):
 * the BTH and extension headers in {@link #hdr}, the payload by reference, and the network-layer
 * facts the driver needs to send it or has learnt when it arrived. Reusable and never allocated on
 * the datapath.
 *
 * <h2>Transmit</h2>
 * The transport fills {@link #hdr}[0..{@link #hdrLen}), the payload reference, {@link #padCount},
 * {@link #port}, {@link #av} (the QP's primary path or the AH's attributes), {@link #vl15} for QP0
 * and calls {@link RvtDriver#transmit}. The packet object and its header bytes belong to the
 * transport again when {@code transmit} returns. The payload may be kept by reference after that
 * only when {@link #payloadStable} is set (a slice of registered memory of an RC request or
 * response, which stays unchanged until the message is acknowledged); otherwise the driver copies
 * it if it needs it later.
 *
 * <h2>Segment trains</h2>
 * A descriptor may stand for {@link #segments} packets of one message, the way a GSO super-packet
 * does ({@code gso_segs}): RC SEND or RDMA WRITE MIDDLE packets, each of {@link #payloadLength}
 * bytes following on one another in {@link #payload}, with the same headers except the PSN, which
 * counts up by one per packet, and AckReq, which only the last packet carries. When
 * {@link #endsMessage} is set the last packet is the message's LAST, whose opcode is the next one
 * up (the same length: no immediate data, no solicited event); when {@link #startsMessage} is
 * set the descriptor's headers are those of the message's FIRST, and the packets after it carry
 * the next opcode up and only the BTH. The transport
 * builds trains only for a port whose driver takes them ({@link RvtDriver#maxSegments}); a driver
 * hands a received train on whole, and the transport walks its packets one by one.
 *
 * <h2>Receive</h2>
 * The driver fills the same header and payload fields, {@link #port}, the network-layer fields
 * ({@link #slid}, {@link #dlid}, {@link #sl}, {@link #vl15}, the GRH fields, {@link #smac},
 * {@link #vlanId}, {@link #networkHdrType}) and {@link #owner}, and calls
 * {@link RvtDevice#receive}. The packet is the driver's again when {@code receive} returns, unless
 * the transport {@link #retain() retained} it to process later; then it {@link #release() releases}
 * it when done. Before it queues a packet whose payload is not {@link #payloadStable} (or any UD or
 * UC payload, whose sender may reuse its buffer at once) it calls {@link #retainPayload()} so the
 * driver can copy the payload into storage the packet owns.
 */
public final class RvtPacket {
    /** Room for the largest BTH plus extension headers. */
    public static final int MAX_HDR = 64;
    /** Bytes of the GRH (or the RoCE IP header area) placed before UD receive data. */
    public static final int GRH_BYTES = 40;

    /** How a driver's packet underneath this descriptor is kept alive. */
    public interface Owner {
        /** The transport keeps {@code pkt} beyond the {@code receive} call. */
        void retain(RvtPacket pkt);

        /** The transport is done with a retained {@code pkt}. */
        void release(RvtPacket pkt);

        /**
         * Makes the payload independent of the sender: copy it into storage the packet owns,
         * update {@link #payload}/{@link #payloadOffset} and set {@link #payloadStable}.
         */
        void retainPayload(RvtPacket pkt);
    }

    // ---------------------------------------------------------------- transport headers
    /** BTH and extension headers, BTH at index 0. */
    public final byte[] hdr = new byte[MAX_HDR];
    /** Bytes used in {@link #hdr}. */
    public int hdrLen;
    /** Pad bytes after the payload (also in the BTH). */
    public int padCount;
    /** The packets this descriptor stands for (see "Segment trains"); 1 for a single packet. */
    public int segments = 1;
    /** The train's last packet ends the message (see "Segment trains"). */
    public boolean endsMessage;
    /** The train's first packet starts the message (see "Segment trains"). */
    public boolean startsMessage;

    // ---------------------------------------------------------------- payload by reference
    /** The buffer holding the payload, read with absolute indexes; {@code null} when empty. */
    public ByteBuffer payload;
    /** Absolute index of the first payload byte. */
    public int payloadOffset;
    /** Payload bytes (without padding). */
    public int payloadLength;
    /** The payload stays unchanged after the call that handed it over (see the class comment). */
    public boolean payloadStable;

    // ---------------------------------------------------------------- addressing
    /** The port the packet leaves or arrived on. */
    public int port;
    /** Transmit: the destination address vector (read only, not to be kept). */
    public AhAttr av;
    /** The packet travels on VL15 (QP0). */
    public boolean vl15;
    /** Receive: source LID. */
    public int slid;
    /** Receive: destination LID. */
    public int dlid;
    /** Receive: service level. */
    public int sl;
    /** Receive: a GRH (IB) or IP header (RoCE) was present. */
    public boolean hasGrh;
    /**
     * Receive: the 40 bytes UD receives place at the start of the buffer: the GRH, the IPv6
     * header, or 20 zero bytes followed by the IPv4 header (RoCEv2 over IPv4).
     */
    public final byte[] grh = new byte[GRH_BYTES];
    /** Receive: source GID, high and low 64 bits (the IPv4-mapped address on RoCE over IPv4). */
    public long sgidHi;
    /** Receive: source GID, low 64 bits. */
    public long sgidLo;
    /** Receive: destination GID, high 64 bits. */
    public long dgidHi;
    /** Receive: destination GID, low 64 bits. */
    public long dgidLo;
    /** Receive (RoCE): source MAC. */
    public final byte[] smac = new byte[6];
    /** Receive (RoCE): VLAN id, or -1 for none. */
    public int vlanId = -1;
    /** Receive: {@code wc.network_hdr_type} (0 IB, 1 RoCE v1, 2 RoCE v2 IPv4, 3 RoCE v2 IPv6). */
    public int networkHdrType;

    // ---------------------------------------------------------------- ownership
    /** Receive: the driver's hook; {@code null} when the packet needs no keeping alive. */
    public Owner owner;

    // ---------------------------------------------------------------- decoded by the transport on receive
    /** The BTH opcode (decoded). */
    public int opcode;
    /** The opcode table mask (decoded). */
    public int mask;
    /** The BTH PSN (decoded). */
    public int psn;

    /** Asks the owner to keep this packet after {@code receive} returns. */
    public void retain() {
        if (owner != null) {
            owner.retain(this);
        }
    }

    /** Gives a retained packet back. */
    public void release() {
        if (owner != null) {
            owner.release(this);
        }
    }

    /** Makes the payload independent of the sender's memory (see {@link Owner#retainPayload}). */
    public void retainPayload() {
        if (payloadLength > 0 && !payloadStable && owner != null) {
            owner.retainPayload(this);
        }
    }

    /** Clears every field for reuse. */
    public void clear() {
        hdrLen = 0;
        padCount = 0;
        segments = 1;
        endsMessage = false;
        startsMessage = false;
        payload = null;
        payloadOffset = 0;
        payloadLength = 0;
        payloadStable = false;
        port = 0;
        av = null;
        vl15 = false;
        slid = 0;
        dlid = 0;
        sl = 0;
        hasGrh = false;
        sgidHi = 0;
        sgidLo = 0;
        dgidHi = 0;
        dgidLo = 0;
        vlanId = -1;
        networkHdrType = 0;
        owner = null;
        opcode = 0;
        mask = 0;
        psn = 0;
    }

    /**
     * Copies the header bytes, payload reference and receive facts of {@code src} into this packet
     * (the owner is not copied).
     */
    public void copyFrom(RvtPacket src) {
        System.arraycopy(src.hdr, 0, hdr, 0, src.hdrLen);
        hdrLen = src.hdrLen;
        padCount = src.padCount;
        segments = src.segments;
        endsMessage = src.endsMessage;
        startsMessage = src.startsMessage;
        payload = src.payload;
        payloadOffset = src.payloadOffset;
        payloadLength = src.payloadLength;
        payloadStable = src.payloadStable;
        port = src.port;
        av = src.av;
        vl15 = src.vl15;
        slid = src.slid;
        dlid = src.dlid;
        sl = src.sl;
        hasGrh = src.hasGrh;
        System.arraycopy(src.grh, 0, grh, 0, GRH_BYTES);
        sgidHi = src.sgidHi;
        sgidLo = src.sgidLo;
        dgidHi = src.dgidHi;
        dgidLo = src.dgidLo;
        System.arraycopy(src.smac, 0, smac, 0, 6);
        vlanId = src.vlanId;
        networkHdrType = src.networkHdrType;
        opcode = src.opcode;
        mask = src.mask;
        psn = src.psn;
    }

    @Override
    public String toString() {
        int op = hdr[0] & 0xff;
        return "RvtPacket[" + org.rdma.rvt.internal.wire.Opcodes.name(op) + " qpn=0x"
                + Integer.toHexString(org.rdma.rvt.internal.wire.Hdr.bthQpn(hdr)) + " psn="
                + org.rdma.rvt.internal.wire.Hdr.bthPsn(hdr) + " len=" + payloadLength + "]";
    }
}
