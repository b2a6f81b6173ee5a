package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.fabric.Packet;
import org.rdma.fabric.ibsim.SimClientInfo;
import org.rdma.fabric.ibsim.SimCtl;
import org.rdma.fabric.ibsim.SimRequest;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.fuzz.FuzzSeeds;
import org.rdma.verbs.wire.IbUdHeader;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.PortInfo;

/**
 * Fuzzing of what the ibsim attachment takes from outside: {@code sim_request} frames from the
 * simulator's data socket (unpacked, then laid out as the UD packet the gateway puts on the
 * cable), {@code sim_ctl} replies from its control socket (with the client info, NodeInfo and
 * PortInfo they carry), and UD packets the HCA sends towards ibsim (cut down to a frame). Bad
 * input may only be refused with the documented {@code IllegalArgumentException} ("EINVAL: "),
 * or, for a packet, the {@code IndexOutOfBoundsException} the gateway counts as well; what is
 * accepted must survive the way back unchanged.
 *
 * <p>Input: {@code [kind][bytes]}, kind 0 a frame from ibsim, 1 a control reply, 2 the header
 * length and then header and payload of a packet from the HCA.
 */
class FrameFuzzTest {
    @FuzzTest
    void frame(byte[] input) {
        if (input.length == 0) {
            return;
        }
        byte[] in = Arrays.copyOfRange(input, 1, input.length);
        switch (input[0] % 3) {
            case 0 -> fromIbsim(in);
            case 1 -> controlReply(in);
            default -> fromHca(in);
        }
    }

    /** The receive thread's path: unpack, then the packet {@code Gateway.deliver()} transmits. */
    private static void fromIbsim(byte[] in) {
        SimRequest r;
        try {
            r = SimRequest.unpack(in, 0, in.length);
        } catch (IllegalArgumentException e) {
            assertEinval(e);
            assertTrue(in.length != SimRequest.BYTES);
            return;
        }
        byte[] meaningful = in.clone();
        for (int pad : new int[] {2, 3, 6, 7, 20, 21, 22, 23}) {
            meaningful[pad] = 0; // struct sim_request's padding after the LIDs and the status
        }
        assertArrayEquals(meaningful, r.pack(), "a frame packs back to its bytes");
        Packet p = new Packet(LinkLayer.INFINIBAND);
        try {
            MadFrame.toPacket(r, p);
        } catch (IllegalArgumentException e) {
            assertEinval(e); // the gateway counts and drops it
            assertTrue(((r.dqp | r.sqp) & ~0xFFFFFF) != 0);
            return;
        }
        IbUdHeader h = new IbUdHeader();
        assertEquals(p.headerLength, h.unpack(p.header, 0), "the gateway's packet parses as a UD packet");
        assertEquals(h.bth.destQpn == 0, h.lrh.vl == Packet.VL15, "QP0 travels on VL15, and only QP0");
        assertTrue(p.materialize() > 0, "its CRCs can be computed");
        SimRequest back = MadFrame.toFrame(p);
        assertEquals(r.dlid & 0xFFFF, back.dlid);
        assertEquals(r.slid & 0xFFFF, back.slid);
        assertEquals(r.dqp, back.dqp);
        assertEquals(r.sqp, back.sqp);
        assertArrayEquals(r.mad, back.mad);
    }

    /** What {@code IbsimClient} does with a control reply. */
    private static void controlReply(byte[] in) {
        SimCtl c;
        try {
            c = SimCtl.unpack(in, 0, in.length);
        } catch (IllegalArgumentException e) {
            assertEinval(e);
            return;
        }
        try {
            SimClientInfo.unpack(c.data);
        } catch (IllegalArgumentException e) {
            assertEinval(e); // a node id that is not UTF-8
        }
        new NodeInfo().unpack(c.data, 0);
        new PortInfo().unpack(c.data, 0);
        c.dataBuffer().getInt(0);
    }

    /** What {@code Gateway.receive()} does with a packet the HCA sends towards ibsim. */
    private static void fromHca(byte[] in) {
        if (in.length == 0) {
            return;
        }
        Packet p = new Packet(LinkLayer.INFINIBAND);
        int hl = Math.min(in[0] & 0xFF, Math.min(Packet.HEADER_CAPACITY, in.length - 1));
        System.arraycopy(in, 1, p.header, 0, hl);
        p.headerLength = hl;
        p.payload = ByteBuffer.wrap(in, 1 + hl, in.length - 1 - hl).slice();
        p.payloadLength = in.length - 1 - hl;
        SimRequest r;
        try {
            r = MadFrame.toFrame(p);
        } catch (IllegalArgumentException e) {
            assertEinval(e);
            return;
        }
        assertEquals(MadHdr.IB_MGMT_MAD_SIZE, r.length);
        assertEquals(r, SimRequest.unpack(r.pack(), 0, SimRequest.BYTES));
    }

    private static void assertEinval(IllegalArgumentException e) {
        assertTrue(e.getMessage() != null && e.getMessage().startsWith("EINVAL: "), () -> "undocumented: " + e);
    }

    // ---------------------------------------------------------------- the corpus

    /** Frames and replies as ibsim sends them, and the HCA's MAD packets, made by the encoders. */
    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        s.put("sim-request-smp-dr", kind(0, SimRequest.of(0xFFFF, 0xFFFF, 0, 0, MadFrameTest.mad(0x81)).pack()));
        s.put("sim-request-gsi", kind(0, SimRequest.of(3, 1, 1, 1, MadFrameTest.mad(3)).pack()));
        SimCtl reply = new SimCtl();
        reply.magic = SimCtl.SIM_MAGIC;
        reply.type = SimCtl.SIM_CTL_GET_NODEINFO;
        reply.len = 64;
        NodeInfo ni = new NodeInfo();
        ni.nodeGuid = 0x0002c90300a10000L;
        ni.numPorts = 1;
        ni.pack(reply.data, 0);
        byte[] ctl = new byte[SimCtl.BYTES];
        reply.pack(ctl, 0);
        s.put("sim-ctl-nodeinfo", kind(1, ctl));
        Packet p = new Packet(LinkLayer.INFINIBAND);
        MadFrame.build(p, 0, 1, 5, 1, MadHdr.IB_QP1_QKEY, 1, MadFrameTest.mad(3));
        byte[] pkt = new byte[1 + p.headerLength + p.payloadLength];
        pkt[0] = (byte) p.headerLength;
        System.arraycopy(p.header, 0, pkt, 1, p.headerLength);
        p.payload.get(p.payloadOffset, pkt, 1 + p.headerLength, p.payloadLength);
        s.put("hca-gsi-packet", kind(2, pkt));
        return s;
    }

    private static byte[] kind(int kind, byte[] b) {
        byte[] out = new byte[1 + b.length];
        out[0] = (byte) kind;
        System.arraycopy(b, 0, out, 1, b.length);
        return out;
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(FrameFuzzTest.class, "frame", seeds());
    }
}
