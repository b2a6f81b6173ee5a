package org.rdma.fabric;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.zip.CRC32;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.wire.EthHeader;
import org.rdma.verbs.wire.Icrc;
import org.rdma.verbs.wire.Lrh;
import org.rdma.verbs.wire.UdpHeader;
import org.rdma.verbs.wire.Vcrc;

/**
 * One packet on the simulated fabric: a mutable, pooled frame, the counterpart of a NIC's
 * descriptor plus the {@code struct sk_buff}/{@code struct rxe_pkt_info} a driver builds around
 * it. Nothing is allocated per packet on the fast path.
 *
 * <h2>Layout</h2>
 * On the wire a packet is {@code header[0, headerLength)}, then the payload, then
 * {@link #padCount} zero bytes, then the trailer:
 * <ul>
 *   <li>InfiniBand links: LRH [GRH] BTH [extension headers] (IBTA vol. 1, 5.4 "Packet format"),
 *       payload, pad, ICRC (4 bytes; absent for raw packets, LNH {@code RAW}/{@code IP}) and the
 *       VCRC (2 bytes).</li>
 *   <li>Ethernet links: Ethernet [802.1Q] IPv4|IPv6 UDP(4791) BTH [extension headers] (RoCEv2,
 *       IBTA annex A17), payload, pad, ICRC; other frames (ARP, ICMPv6) have no ICRC. Frames are
 *       padded to the Ethernet minimum of 60 bytes and carry a frame check sequence that is not
 *       part of the captured bytes.</li>
 * </ul>
 * The payload travels by reference: {@link #payload} with {@link #payloadOffset} and
 * {@link #payloadLength} are absolute indexes into the sender's memory (a slice of an MR), which
 * the receiver copies once into its destination.
 *
 * <h2>The CRC engines</h2>
 * Like a NIC's, the CRCs are not computed on the fast path: a packet that was never observed is
 * known good. Whenever a packet becomes observable — captured, corrupted by a fault, or queued by
 * a delay/reorder/duplicate fault — it is {@linkplain #materialize() materialized}: all its bytes
 * are laid out in packet-owned storage ({@link #frame()}) with the ICRC and VCRC computed by
 * {@link Icrc} and {@link Vcrc}, and the payload is repointed into that storage. A materialized
 * packet tells its receiver to {@linkplain #verifyCrcs() verify} the CRCs; the receiving fabric
 * port does so and drops (and counts in {@code PortRcvErrors}) every corrupted packet, so a
 * {@link PacketSink} never sees one.
 *
 * <h2>Segment trains</h2>
 * A packet may stand for a train of {@link #segments()} packets, the way a GSO super-packet
 * ({@code skb_shinfo(skb)->gso_segs}) stands for the segments a NIC cuts from it: consecutive
 * packets of one message with the same headers except the BTH PSN, which counts up by one per
 * packet, and the BTH AckReq bit, which only the last packet may carry; a train that
 * {@linkplain #endsMessage() ends its message} has the next opcode up in its last packet (RDMA
 * WRITE LAST after RDMA WRITE MIDDLE, SEND LAST after SEND MIDDLE), and one that
 * {@linkplain #startsMessage() starts its message} is described by its first packet, the message's
 * FIRST: the packets after it carry the next opcode up and only the BTH (on InfiniBand, their
 * LRH:PktLen and GRH PayLen that much shorter). Each packet's payload is
 * {@link #payloadLength} bytes and the next one's follows it in {@link #payload}. Every length in
 * the headers (LRH:PktLen, the GRH or IP payload length) and every check a port or switch makes
 * is that of one packet; the counters count each packet. Where a packet is observed one by one
 * (a capture, a fault, a node other than a switch forwarding unicast data, a sink that does not
 * take trains) the fabric {@linkplain #splitFirst(Packet) splits} the train, so what is seen is
 * exactly the packets it stands for.
 *
 * <h2>Ownership</h2>
 * {@link FabricPort#allocPacket()} hands out a packet with one reference, owned by the caller;
 * {@link FabricPort#transmit(Packet)} passes that reference to the fabric. The fabric hands the
 * packet to the receiving port's {@link PacketSink#receive(Packet)} and {@linkplain #release()
 * releases} it when {@code receive} returns; a receiver that keeps the packet calls
 * {@link #retain()} first and {@link #release()} later. A receiver that queues a UD/UC packet
 * instead of processing it inline also calls {@link #retainPayload()}, because the sender may
 * reuse its memory once it has its completion. When the last reference is released the packet
 * returns to the pool it came from.
 *
 * <p>The field helpers ({@link #dlid()}, {@link #destQpn(int)}, ...) read the encoded headers
 * without allocating. The fields are not synchronised: a packet belongs to one thread at a time,
 * the way a descriptor belongs either to software or to the NIC.
 */
public final class Packet {

    /** Capacity of {@link #header} in bytes: LRH + GRH + BTH + the largest extension headers fit. */
    public static final int HEADER_CAPACITY = 128;
    /** The largest payload a packet carries: the IB MTU 4096 ({@code IB_MTU_4096}). */
    public static final int MAX_PAYLOAD = 4096;
    /** Size of the packet-owned storage: header, payload, pad and the largest trailer. */
    public static final int FRAME_CAPACITY = HEADER_CAPACITY + MAX_PAYLOAD + 3 + Icrc.ICRC_BYTES + Vcrc.VCRC_BYTES;
    /** The minimum Ethernet frame without FCS (IEEE 802.3 {@code ETH_ZLEN}). */
    public static final int ETH_ZLEN = 60;
    /** The permissive LID ({@code IB_LID_PERMISSIVE}). */
    public static final int LID_PERMISSIVE = 0xFFFF;
    /** The first multicast LID ({@code IB_MULTICAST_LID_BASE}). */
    public static final int MULTICAST_LID_BASE = 0xC000;
    /** The management virtual lane, reserved for subnet management packets (IBTA 7.6.4). */
    public static final int VL15 = 15;

    private static final AtomicIntegerFieldUpdater<Packet> REFS =
            AtomicIntegerFieldUpdater.newUpdater(Packet.class, "refCount");

    /** The encoded headers, from the first byte on the wire (LRH or Ethernet header). */
    public final byte[] header = new byte[HEADER_CAPACITY];
    /** Number of valid bytes in {@link #header}. */
    public int headerLength;
    /** The payload's buffer (the sender's memory, or packet-owned storage), or {@code null}. */
    public ByteBuffer payload;
    /** Absolute index of the first payload byte in {@link #payload}. */
    public int payloadOffset;
    /** Number of payload bytes. */
    public int payloadLength;
    /** Zero bytes after the payload, 0..3 (BTH PadCnt, IBTA 9.2). */
    public int padCount;

    /** The most packets one train stands for. */
    public static final int MAX_SEGMENTS = 64;
    private static final int BTH_BYTES = 12;

    private final LinkLayer linkLayer;
    private final PacketRecycler recycler;
    private volatile int refCount;
    private byte[] frame;
    private ByteBuffer frameView;
    private CRC32 fcsEngine;
    private int frameLength;
    private int fcs;
    private boolean materialized;
    private int hops;
    private int segments = 1;
    private boolean endsMessage;
    private boolean startsMessage;

    /**
     * A packet that returns to {@code recycler} when its last reference is released. Fabric ports
     * create their pool's packets this way.
     *
     * @param linkLayer link layer of the port the packet belongs to
     * @param recycler  the pool, or {@code null} for a packet left to the garbage collector
     */
    public Packet(LinkLayer linkLayer, PacketRecycler recycler) {
        if (linkLayer != LinkLayer.INFINIBAND && linkLayer != LinkLayer.ETHERNET) {
            throw new IllegalArgumentException("a packet travels on an InfiniBand or Ethernet link, not " + linkLayer);
        }
        this.linkLayer = linkLayer;
        this.recycler = recycler;
        this.refCount = 1;
    }

    /**
     * An unpooled packet with one reference, for tests and for code outside a fabric.
     *
     * @param linkLayer the link layer
     */
    public Packet(LinkLayer linkLayer) {
        this(linkLayer, null);
    }

    /** @return the link layer: which trailer and which header helpers apply */
    public LinkLayer linkLayer() {
        return linkLayer;
    }

    // ------------------------------------------------------------------ ownership

    /**
     * Takes one more reference ({@code skb_get()}): the packet stays valid after
     * {@link PacketSink#receive(Packet)} returns, until the matching {@link #release()}.
     *
     * @return this packet
     * @throws IllegalStateException if the packet was already recycled
     */
    public Packet retain() {
        int r;
        do {
            r = refCount;
            if (r <= 0) {
                throw new IllegalStateException("retain() of a recycled packet");
            }
        } while (!REFS.compareAndSet(this, r, r + 1));
        return this;
    }

    /**
     * Drops one reference ({@code kfree_skb()}); the last one returns the packet to its pool,
     * forgetting the payload reference.
     *
     * @throws IllegalStateException if the packet holds no reference any more
     */
    public void release() {
        if (refCount == 1) {
            // A holder that sees one reference holds the only one: nobody may retain or release
            // concurrently, so the usual last release needs no atomic read-modify-write.
            REFS.lazySet(this, 0);
        } else {
            int r = REFS.decrementAndGet(this);
            if (r > 0) {
                return;
            }
            if (r < 0) {
                REFS.incrementAndGet(this);
                throw new IllegalStateException("release() of a packet that holds no reference");
            }
        }
        reset();
        if (recycler != null) {
            recycler.recycle(this);
        }
    }

    /** @return the number of references held */
    public int refCount() {
        return refCount;
    }

    /**
     * Called by a pool when it hands the packet out again: one reference, all fields cleared.
     * Only for {@link PacketRecycler} implementations.
     *
     * @return this packet
     * @throws IllegalStateException if the packet is still referenced
     */
    public Packet reuse() {
        // The pool is the only holder of a recycled packet, so no atomic update or fence is needed;
        // the pool's hand-over publishes the packet.
        if (refCount != 0) {
            throw new IllegalStateException("reuse() of a packet that is still referenced (" + refCount + ")");
        }
        REFS.lazySet(this, 1);
        return this;
    }

    private void reset() {
        headerLength = 0;
        payload = null;
        payloadOffset = 0;
        payloadLength = 0;
        padCount = 0;
        materialized = false;
        frameLength = 0;
        fcs = 0;
        hops = 0;
        segments = 1;
        endsMessage = false;
        startsMessage = false;
    }

    // ------------------------------------------------------------------ segment trains

    /** @return the packets this one stands for (see "Segment trains"); 1 for a single packet */
    public int segments() {
        return segments;
    }

    /**
     * Makes this packet stand for a train of {@code n} packets (see "Segment trains"): set by the
     * sender, once the headers describe the first packet and the payload holds all of them.
     *
     * @param n 1 .. {@link #MAX_SEGMENTS}
     * @throws IllegalArgumentException if {@code n} is out of range, or a train of {@code n} would
     *     not be a train: no BTH, a pad after payloads that must follow on one another, or its bytes
     *     already laid out or copied (which would hold one packet only)
     */
    public void setSegments(int n) {
        setSegments(n, false);
    }

    /**
     * {@link #setSegments(int)} of a train whose last packet may end the message: that packet's
     * BTH opcode is then one above the one in {@link #header} (see "Segment trains").
     *
     * @param n           1 .. {@link #MAX_SEGMENTS}
     * @param endsMessage whether the last packet is the message's last
     * @throws IllegalArgumentException as {@link #setSegments(int)} does
     */
    public void setSegments(int n, boolean endsMessage) {
        setSegments(n, false, endsMessage);
    }

    /**
     * {@link #setSegments(int, boolean)} of a train that may also start its message: its first
     * packet is then the one {@link #header} describes, and the others carry the next opcode up and
     * only the BTH (see "Segment trains").
     *
     * @param n             1 .. {@link #MAX_SEGMENTS}
     * @param startsMessage whether the first packet is the message's first
     * @param endsMessage   whether the last packet is the message's last
     * @throws IllegalArgumentException as {@link #setSegments(int)} does, and for a train starting
     *     its message off InfiniBand
     */
    public void setSegments(int n, boolean startsMessage, boolean endsMessage) {
        if (n < 1 || n > MAX_SEGMENTS) {
            throw new IllegalArgumentException("a train of " + n + " packets; 1.." + MAX_SEGMENTS);
        }
        if (n > 1 && (bthOffset() < 0 || padCount != 0 || payloadLength == 0)) {
            throw new IllegalArgumentException("only BTH packets with an unpadded payload travel in trains");
        }
        if (n > 1 && (materialized || ownsPayload())) {
            // the frame holds one packet's bytes: the rest of the train would be missing from it
            throw new IllegalArgumentException("a packet becomes a train before its bytes are laid out or copied");
        }
        if (n > 1 && startsMessage) {
            int extra = headerLength - bthOffset() - BTH_BYTES;
            if (linkLayer != LinkLayer.INFINIBAND || extra < 0 || (extra & 3) != 0) {
                throw new IllegalArgumentException("a train starts its message on InfiniBand, after a whole BTH");
            }
        }
        segments = n;
        this.endsMessage = n > 1 && endsMessage;
        this.startsMessage = n > 1 && startsMessage;
    }

    /** @return whether this train's first packet is its message's first (see "Segment trains") */
    public boolean startsMessage() {
        return startsMessage;
    }

    /**
     * The header bytes the first packet of a train carries and the others do not: its extension
     * headers when the train {@linkplain #startsMessage() starts its message}, else none.
     *
     * @return the bytes, a multiple of 4
     */
    public int firstExtra() {
        return startsMessage ? headerLength - bthOffset() - BTH_BYTES : 0;
    }

    /** @return whether this train's last packet carries the next opcode up, ending the message */
    public boolean endsMessage() {
        return endsMessage;
    }

    /**
     * What is left of a train that started its message, once its FIRST is cut off: the next opcode
     * up, the BTH without the extension headers after it, and the lengths that count them.
     */
    private void dropFirstExtra(int bth) {
        int extra = headerLength - bth - BTH_BYTES;
        int end = bth + BTH_BYTES;
        System.arraycopy(header, end + extra, header, end, headerLength - end - extra);
        headerLength -= extra;
        header[bth]++;
        int words = (u16(header, 4) & 0x7FF) - extra / 4;
        header[4] = (byte) (header[4] & 0xF8 | words >>> 8);
        header[5] = (byte) words;
        if (bth == Lrh.IB_LRH_BYTES + 40) {
            int payLen = u16(header, Lrh.IB_LRH_BYTES + 4) - extra;
            header[Lrh.IB_LRH_BYTES + 4] = (byte) (payLen >>> 8);
            header[Lrh.IB_LRH_BYTES + 5] = (byte) payLen;
        }
        startsMessage = false;
    }

    /**
     * Cuts the first packet off this train ({@code skb_gso_segment()}): {@code into} becomes that
     * packet (AckReq clear, the first payload slice), and this train starts one packet later.
     *
     * @param into a fresh packet of the same link layer, which this call fills
     * @return {@code into}
     * @throws IllegalStateException if this packet is not a train
     */
    public Packet splitFirst(Packet into) {
        if (segments < 2) {
            throw new IllegalStateException("not a train");
        }
        int n = segments;
        segments = 1;                   // so that an owned payload is copied for one packet only
        into.copyFrom(this);
        segments = n;
        into.endsMessage = false;
        into.startsMessage = false;
        int bth = bthOffset();
        into.header[bth + 8] &= 0x7F;
        int next = (psn(bth) + 1) & 0xFF_FFFF;
        header[bth + 9] = (byte) (next >>> 16);
        header[bth + 10] = (byte) (next >>> 8);
        header[bth + 11] = (byte) next;
        payloadOffset += payloadLength;
        if (startsMessage) {
            dropFirstExtra(bth);
        }
        if (--segments == 1 && endsMessage) {
            header[bth]++;
            endsMessage = false;
        }
        return into;
    }

    /**
     * Counts one more switch crossed. A switch drops a packet whose count exceeds its limit, the
     * way the Switch Lifetime Limit (SwitchInfo:LifeTimeValue, IBTA 18.2.5.4) ends a packet caught
     * in a routing loop.
     *
     * @return the number of switches crossed, this one included
     */
    public int addHop() {
        return ++hops;
    }

    /** @return the number of switches this packet has crossed */
    public int hops() {
        return hops;
    }

    /**
     * Copies a by-reference payload into packet-owned storage ({@code skb_linearize()} of a
     * receive that is queued rather than processed inline). A no-op when the payload is already
     * owned or empty.
     *
     * @return this packet
     */
    public Packet retainPayload() {
        if (payloadLength == 0 || (frameView != null && payload == frameView)) {
            return this;
        }
        int at = Math.min(headerLength, HEADER_CAPACITY);
        int total = payloadLength * segments;
        ensureFrame(at + total);
        payload.get(payloadOffset, frame, at, total);
        payload = frameView;
        payloadOffset = at;
        return this;
    }

    /** @return whether the payload lives in packet-owned storage */
    public boolean ownsPayload() {
        return payloadLength == 0 || (frameView != null && payload == frameView);
    }

    /**
     * Makes this packet a copy of {@code src}: the headers, the payload reference (or a copy of
     * the payload if {@code src} owns it), the pad and, if {@code src} is materialized, the frame
     * bytes exactly as they are (corruption included). Used for duplicates and multicast
     * replication ({@code skb_clone()}/{@code skb_copy()}).
     *
     * @param src the packet to copy
     * @return this packet
     * @throws IllegalArgumentException if the link layers differ
     */
    public Packet copyFrom(Packet src) {
        if (src.linkLayer != linkLayer) {
            throw new IllegalArgumentException("cannot copy a " + src.linkLayer + " packet into a " + linkLayer + " one");
        }
        System.arraycopy(src.header, 0, header, 0, src.headerLength);
        headerLength = src.headerLength;
        padCount = src.padCount;
        hops = src.hops;
        payloadLength = src.payloadLength;
        segments = src.segments;
        endsMessage = src.endsMessage;
        startsMessage = src.startsMessage;
        if (src.materialized) {
            ensureFrame();
            System.arraycopy(src.frame, 0, frame, 0, src.frameLength);
            frameLength = src.frameLength;
            fcs = src.fcs;
            materialized = true;
        } else {
            materialized = false;
            frameLength = 0;
        }
        if (src.payloadLength > 0 && src.frameView != null && src.payload == src.frameView) {
            if (src.materialized) {
                payloadOffset = src.payloadOffset;
            } else {
                // Where retainPayload() puts it: a train's later payload may lie beyond one packet's frame.
                int at = Math.min(headerLength, HEADER_CAPACITY);
                int total = src.payloadLength * src.segments;
                ensureFrame(at + total);
                System.arraycopy(src.frame, src.payloadOffset, frame, at, total);
                payloadOffset = at;
            }
            payload = frameView;
        } else {
            payload = src.payload;
            payloadOffset = src.payloadOffset;
        }
        return this;
    }

    private void ensureFrame() {
        ensureFrame(FRAME_CAPACITY);
    }

    /** Packet-owned storage of at least {@code capacity} bytes (more than one packet's for a train's payload). */
    private void ensureFrame(int capacity) {
        if (frame == null || frame.length < capacity) {
            frame = new byte[Math.max(capacity, FRAME_CAPACITY)];
            frameView = ByteBuffer.wrap(frame);
        }
    }

    // ------------------------------------------------------------------ the CRC engines

    /** @return whether the ICRC is present: IBA transport packets (LNH local/global) and RoCE */
    public boolean hasIcrc() {
        if (linkLayer == LinkLayer.INFINIBAND) {
            return headerLength >= 2 && (header[1] & 2) != 0;
        }
        return roceKind() != 0;
    }

    /**
     * The packet's length on the wire: header, payload, pad, ICRC and VCRC; for Ethernet
     * without the FCS and before padding to {@link #ETH_ZLEN}.
     *
     * @return the length in bytes
     */
    public int wireLength() {
        int n = headerLength + payloadLength + padCount + (hasIcrc() ? Icrc.ICRC_BYTES : 0);
        return linkLayer == LinkLayer.INFINIBAND ? n + Vcrc.VCRC_BYTES : n;
    }

    /**
     * Lays every byte out in packet-owned storage and computes the trailer, as a NIC's CRC engines
     * do on transmit: ICRC ({@link Icrc}) for IBA and RoCE packets, VCRC ({@link Vcrc}) on
     * InfiniBand, the Ethernet padding and FCS on Ethernet. The payload is repointed into that
     * storage, so the sender's memory may change afterwards. Idempotent until the packet is
     * modified and {@link #clearMaterialized()} is called.
     *
     * @return the frame length in bytes ({@link #frameLength()})
     * @throws IllegalArgumentException if the headers are too short for the CRC rules
     *                                  (a malformed packet)
     * @throws IndexOutOfBoundsException if header, payload and pad exceed the frame capacity
     */
    public int materialize() {
        if (materialized) {
            return frameLength;
        }
        if (segments > 1) {
            throw new IllegalStateException("a train of " + segments + " packets is split before it is laid out");
        }
        int hl = headerLength;
        if (hl < 0 || hl > HEADER_CAPACITY || payloadLength < 0 || payloadLength > MAX_PAYLOAD || padCount < 0 || padCount > 3) {
            throw new IndexOutOfBoundsException("header " + hl + ", payload " + payloadLength + ", pad " + padCount
                    + " do not fit a packet");
        }
        ensureFrame();
        if (payloadLength > 0) {
            if (payload == frameView) {
                if (payloadOffset != hl) {
                    System.arraycopy(frame, payloadOffset, frame, hl, payloadLength);
                }
            } else {
                Objects.requireNonNull(payload, "payload").get(payloadOffset, frame, hl, payloadLength);
            }
            payload = frameView;
            payloadOffset = hl;
        }
        System.arraycopy(header, 0, frame, 0, hl);
        int pos = hl + payloadLength;
        Arrays.fill(frame, pos, pos + padCount, (byte) 0);
        pos += padCount;
        if (linkLayer == LinkLayer.INFINIBAND) {
            if (hasIcrc()) {
                pos = Icrc.appendIb(frame, 0, pos);
            }
            pos = Vcrc.append(frame, 0, pos);
        } else {
            int kind = roceKind();
            int l3 = l3Offset();
            if (kind == 2) {
                pos = l3 + Icrc.appendRoceV2(frame, l3, pos - l3);
            } else if (kind == 1) {
                pos = l3 + Icrc.appendRoceV1(frame, l3, pos - l3);
            }
            if (pos < ETH_ZLEN) {
                Arrays.fill(frame, pos, ETH_ZLEN, (byte) 0);
                pos = ETH_ZLEN;
            }
            fcs = computeFcs(pos);
        }
        frameLength = pos;
        materialized = true;
        return pos;
    }

    /** @return whether the frame bytes are laid out and the receiver must verify the CRCs */
    public boolean isMaterialized() {
        return materialized;
    }

    /**
     * Forgets the laid-out frame: after a receiving port has verified it, or after header fields
     * were rewritten (a switch changing the VL). The next observation lays it out again. The
     * payload stays where it is.
     */
    public void clearMaterialized() {
        materialized = false;
    }

    /** @return the packet-owned frame bytes; meaningful up to {@link #frameLength()} when materialized */
    public byte[] frame() {
        ensureFrame();
        return frame;
    }

    /** @return the materialized frame length, 0 when not materialized */
    public int frameLength() {
        return materialized ? frameLength : 0;
    }

    /** @return the Ethernet frame check sequence of the materialized frame (not part of {@link #frame()}) */
    public int fcs() {
        return fcs;
    }

    /**
     * Flips one bit of the materialized frame, the way a noisy link does: bit {@code bit} counted
     * from the most significant bit of the first frame byte; on Ethernet the 32 bits after the
     * frame are the FCS. Materializes the packet first.
     *
     * @param bit 0 .. {@link #corruptibleBits()} - 1
     */
    public void flipBit(int bit) {
        materialize();
        int frameBits = frameLength * 8;
        if (bit < 0 || bit >= corruptibleBits()) {
            throw new IndexOutOfBoundsException("bit " + bit + " of " + corruptibleBits());
        }
        if (bit < frameBits) {
            frame[bit >>> 3] ^= (byte) (0x80 >>> (bit & 7));
        } else {
            fcs ^= 1 << (bit - frameBits);
        }
    }

    /** @return the number of bits {@link #flipBit(int)} can hit (frame bits, plus the FCS on Ethernet) */
    public int corruptibleBits() {
        materialize();
        return frameLength * 8 + (linkLayer == LinkLayer.ETHERNET ? 32 : 0);
    }

    /**
     * Checks the trailer of a materialized packet as a receiving port does (IBTA 7.8: VCRC and
     * ICRC; Ethernet: FCS, then the RoCE ICRC). A packet that was never materialized is known good.
     *
     * @return whether every CRC matches
     */
    public boolean verifyCrcs() {
        if (!materialized) {
            return true;
        }
        int len = frameLength;
        if (linkLayer == LinkLayer.INFINIBAND) {
            if (len < Lrh.IB_LRH_BYTES + Vcrc.VCRC_BYTES || !Vcrc.verify(frame, 0, len)) {
                return false;
            }
            int lnh = frame[1] & 3;
            if ((lnh & 2) != 0) {
                try {
                    return Icrc.verifyIb(frame, 0, len - Vcrc.VCRC_BYTES);
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    return false;
                }
            }
            return true;
        }
        if (computeFcs(len) != fcs) {
            return false;
        }
        int kind = roceKindOf(frame, len);
        if (kind == 0) {
            return true;
        }
        int l3 = l3OffsetOf(frame);
        int l3Len;
        if (kind == 1) {
            l3Len = 40 + u16(frame, l3 + 4);
        } else if ((frame[l3] & 0xF0) == 0x40) {
            l3Len = u16(frame, l3 + 2);
        } else {
            l3Len = 40 + u16(frame, l3 + 4);
        }
        if (l3 + l3Len > len) {
            return false;
        }
        try {
            return kind == 1 ? Icrc.verifyRoceV1(frame, l3, l3Len) : Icrc.verifyRoceV2(frame, l3, l3Len);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    private int computeFcs(int len) {
        if (fcsEngine == null) {
            fcsEngine = new CRC32();
        }
        fcsEngine.reset();
        fcsEngine.update(frame, 0, len);
        return (int) fcsEngine.getValue();
    }

    // ------------------------------------------------------------------ reading the packet

    /**
     * Copies bytes of the packet as it appears on the wire (header, payload, pad; not the
     * trailer) without allocating.
     *
     * @param from   offset from the first header byte
     * @param dst    destination
     * @param dstOff first destination byte
     * @param len    number of bytes
     * @throws IndexOutOfBoundsException if the range is outside header + payload + pad
     */
    public void readBytes(int from, byte[] dst, int dstOff, int len) {
        int total = headerLength + payloadLength + padCount;
        Objects.checkFromIndexSize(from, len, total);
        Objects.checkFromIndexSize(dstOff, len, dst.length);
        int i = from;
        int end = from + len;
        int d = dstOff;
        if (i < headerLength) {
            int n = Math.min(end, headerLength) - i;
            System.arraycopy(header, i, dst, d, n);
            i += n;
            d += n;
        }
        int payEnd = headerLength + payloadLength;
        if (i < end && i < payEnd) {
            int n = Math.min(end, payEnd) - i;
            payload.get(payloadOffset + (i - headerLength), dst, d, n);
            i += n;
            d += n;
        }
        if (i < end) {
            Arrays.fill(dst, d, d + (end - i), (byte) 0);
        }
    }

    /**
     * One byte of the packet as it appears on the wire (header, payload or pad).
     *
     * @param at offset from the first header byte
     * @return the byte, 0..255
     */
    public int byteAt(int at) {
        if (at < headerLength) {
            return header[at] & 0xFF;
        }
        int p = at - headerLength;
        if (p < payloadLength) {
            return payload.get(payloadOffset + p) & 0xFF;
        }
        Objects.checkIndex(p - payloadLength, padCount);
        return 0;
    }

    // ------------------------------------------------------------------ LRH (InfiniBand)

    /** @return LRH:LNH, the link next header ({@code Lrh.LNH_*}) */
    public int lnh() {
        return header[1] & 3;
    }

    /** @return LRH:VL, the virtual lane */
    public int vl() {
        return (header[0] >>> 4) & 0xF;
    }

    /**
     * Rewrites LRH:VL, as a switch does after its SLtoVL lookup; VL is a variant field, so the
     * ICRC is unaffected (the VCRC is recomputed per link).
     *
     * @param vl 0..15
     */
    public void setVl(int vl) {
        header[0] = (byte) ((vl & 0xF) << 4 | (header[0] & 0x0F));
    }

    /** @return LRH:LVer, the link version */
    public int lver() {
        return header[0] & 0xF;
    }

    /** @return LRH:SL, the service level */
    public int sl() {
        return (header[1] >>> 4) & 0xF;
    }

    /** @return LRH:DLID */
    public int dlid() {
        return u16(header, 2);
    }

    /** @return LRH:SLID */
    public int slid() {
        return u16(header, 6);
    }

    /** @return LRH:PktLen, in 4-byte words from the first LRH byte through the ICRC */
    public int lrhPacketLength() {
        return (header[4] & 7) << 8 | header[5] & 0xFF;
    }

    // ------------------------------------------------------------------ Ethernet

    /** @return the destination MAC address as a 48-bit value */
    public long destMac() {
        return mac(header, 0);
    }

    /** @return the source MAC address as a 48-bit value */
    public long srcMac() {
        return mac(header, 6);
    }

    /** @return whether an 802.1Q tag follows the MAC addresses */
    public boolean hasVlan() {
        return u16(header, 12) == EthHeader.ETH_P_8021Q;
    }

    /** @return the 802.1Q tag control information, or -1 without a tag */
    public int vlanTci() {
        return hasVlan() ? u16(header, 14) : -1;
    }

    /** @return the EtherType of the payload (after an 802.1Q tag, if any) */
    public int etherType() {
        return hasVlan() ? u16(header, 16) : u16(header, 12);
    }

    /** @return offset of the network header: 14, or 18 with an 802.1Q tag */
    public int l3Offset() {
        return l3OffsetOf(header);
    }

    /** @return whether this Ethernet frame is RoCE (v1: EtherType 0x8915; v2: UDP port 4791) */
    public boolean isRoce() {
        return roceKind() != 0;
    }

    /** @return 1 for RoCEv1, 2 for RoCEv2, 0 otherwise (or on InfiniBand) */
    private int roceKind() {
        if (linkLayer != LinkLayer.ETHERNET) {
            return 0;
        }
        return roceKindOf(header, headerLength);
    }

    private static int roceKindOf(byte[] b, int len) {
        if (len < 14) {
            return 0;
        }
        int l3 = l3OffsetOf(b);
        int type = u16(b, l3 - 2);
        if (type == EthHeader.ETH_P_IBOE) {
            return 1;
        }
        if (type == EthHeader.ETH_P_IP && len >= l3 + 20) {
            int ihl = (b[l3] & 0xF) * 4;
            if ((b[l3 + 9] & 0xFF) == 17 && len >= l3 + ihl + 8 && u16(b, l3 + ihl + 2) == UdpHeader.ROCE_V2_UDP_DPORT) {
                return 2;
            }
        } else if (type == EthHeader.ETH_P_IPV6 && len >= l3 + 48) {
            if ((b[l3 + 6] & 0xFF) == 17 && u16(b, l3 + 42) == UdpHeader.ROCE_V2_UDP_DPORT) {
                return 2;
            }
        }
        return 0;
    }

    private static int l3OffsetOf(byte[] b) {
        return u16(b, 12) == EthHeader.ETH_P_8021Q ? 18 : 14;
    }

    // ------------------------------------------------------------------ BTH

    /**
     * Offset of the Base Transport Header: after the LRH (and GRH) on InfiniBand, after
     * UDP (or the RoCEv1 GRH) on Ethernet.
     *
     * @return the offset, or -1 if the packet carries no BTH (raw IB, ARP, ...)
     */
    public int bthOffset() {
        if (linkLayer == LinkLayer.INFINIBAND) {
            switch (lnh()) {
                case Lrh.LNH_IBA_LOCAL:
                    return 8;
                case Lrh.LNH_IBA_GLOBAL:
                    return 48;
                default:
                    return -1;
            }
        }
        int kind = roceKind();
        if (kind == 0) {
            return -1;
        }
        int l3 = l3Offset();
        if (kind == 1) {
            return l3 + 40;
        }
        return (header[l3] & 0xF0) == 0x40 ? l3 + (header[l3] & 0xF) * 4 + 8 : l3 + 48;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:OpCode
     */
    public int opcode(int bth) {
        return header[bth] & 0xFF;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:SE, solicited event
     */
    public boolean solicitedEvent(int bth) {
        return (header[bth + 1] & 0x80) != 0;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:M, migration request
     */
    public boolean migReq(int bth) {
        return (header[bth + 1] & 0x40) != 0;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:PadCnt
     */
    public int bthPadCount(int bth) {
        return (header[bth + 1] >>> 4) & 3;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:TVer
     */
    public int tver(int bth) {
        return header[bth + 1] & 0xF;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:P_Key
     */
    public int pkey(int bth) {
        return u16(header, bth + 2);
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH FECN bit (first byte of word 1)
     */
    public boolean fecn(int bth) {
        return (header[bth + 4] & 0x80) != 0;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH BECN bit
     */
    public boolean becn(int bth) {
        return (header[bth + 4] & 0x40) != 0;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:DestQP
     */
    public int destQpn(int bth) {
        return (header[bth + 5] & 0xFF) << 16 | (header[bth + 6] & 0xFF) << 8 | header[bth + 7] & 0xFF;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:A, acknowledge request
     */
    public boolean ackReq(int bth) {
        return (header[bth + 8] & 0x80) != 0;
    }

    /**
     * @param bth {@link #bthOffset()}
     * @return BTH:PSN
     */
    public int psn(int bth) {
        return (header[bth + 9] & 0xFF) << 16 | (header[bth + 10] & 0xFF) << 8 | header[bth + 11] & 0xFF;
    }

    /**
     * A 32-bit big-endian value of the header, for extension headers (DETH Q_Key, RETH, AETH...).
     *
     * @param at offset of the first byte
     * @return the value
     */
    public int u32(int at) {
        return (header[at] & 0xFF) << 24 | (header[at + 1] & 0xFF) << 16 | (header[at + 2] & 0xFF) << 8 | header[at + 3] & 0xFF;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    private static long mac(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 6; i++) {
            v = v << 8 | (b[at + i] & 0xFF);
        }
        return v;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Packet{").append(linkLayer == LinkLayer.INFINIBAND ? "IB" : "ETH");
        if (linkLayer == LinkLayer.INFINIBAND && headerLength >= 8) {
            sb.append(String.format(" vl=%d sl=%d lnh=%d dlid=0x%04x slid=0x%04x", vl(), sl(), lnh(), dlid(), slid()));
        } else if (headerLength >= 14) {
            sb.append(String.format(" dmac=%012x smac=%012x type=0x%04x", destMac(), srcMac(), etherType()));
        }
        int bth = headerLength >= 8 ? bthOffset() : -1;
        if (bth >= 0 && bth + 12 <= headerLength) {
            sb.append(String.format(" op=0x%02x qp=0x%06x psn=%d", opcode(bth), destQpn(bth), psn(bth)));
        }
        return sb.append(" hdr=").append(headerLength).append(" pay=").append(payloadLength).append(" pad=").append(padCount)
                .append(materialized ? " materialized" : "").append('}').toString();
    }
}
