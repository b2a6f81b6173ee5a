package org.rdma.fabric.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.rdma.fabric.FabricSwitch;
import org.rdma.fabric.Packet;
import org.rdma.verbs.Errno;
import org.rdma.verbs.NodeType;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;

/**
 * An InfiniBand switch (IBTA vol. 1, chapter 18; ibsim's {@code struct Switch} and
 * {@code switch_forward()}): LID-routed forwarding through the linear forwarding table,
 * multicast replication through the multicast forwarding table, SL to VL mapping per
 * (input, output) port pair, and VL15 handling for its {@link SwitchSma}.
 *
 * <h2>Forwarding rules</h2>
 * <ul>
 *   <li>VL15 (SMPs): a permissive DLID or one of the switch's own LIDs goes to the SMA on port 0;
 *       any other DLID is forwarded through the LFT on VL15, through ports in Init, Armed or
 *       Active (IBTA 7.2: management packets pass in every state but Down).</li>
 *   <li>Data packets are accepted on Armed or Active ports and leave only through Active ports;
 *       other output states count PortXmitDiscards on the output port.</li>
 *   <li>Unicast DLIDs above LinearFDBTop, with an LFT entry 0xFF, a port beyond NumPorts or the
 *       input port itself, and multicast DLIDs without an MFT entry are dropped and counted in
 *       PortRcvSwitchRelayErrors of the input port (IBTA 16.1.3.5: packets "discarded because
 *       they could not be forwarded by the switch relay" for DLID mapping, VL mapping or
 *       looping). PortXmitDiscards of the output port count what the relay could route but the
 *       port could not send (not Active, NeighborMTU).</li>
 *   <li>Multicast packets go out of every port in the MFT entry except the input port; each output
 *       gets its own copy of the packet.</li>
 *   <li>The output VL is SLtoVLMappingTable[in][out][SL] (default SL mod OperationalVLs of the
 *       output port); VL15 or a VL beyond OperationalVLs is a relay error ("VL mapping"). A
 *       payload above the output port's NeighborMTU is a PortXmitDiscard.</li>
 * </ul>
 *
 * <h2>Tables and threads</h2>
 * The datapath reads the tables without locks: LFT bytes with acquire semantics, MFT entries and
 * SLtoVL rows as immutable arrays swapped atomically. Writers (SMA, API) publish with release
 * semantics.
 */
final class SwitchNode extends NodeImpl implements FabricSwitch {
    /** SwitchInfo:LinearFDBCap: every unicast LID. */
    static final int LINEAR_FDB_CAP = 0xC000;
    /** SwitchInfo:MulticastFDBCap. */
    static final int MCAST_FDB_CAP = 1024;
    /** NodeInfo:PartitionCap and SwitchInfo:PartitionEnforcementCap. */
    static final int PKEY_CAP = 32;
    /** Switches a packet may cross before a switch drops it (its lifetime limit in a routing loop). */
    static final int MAX_HOPS = 64;

    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);

    private final byte[] lft = new byte[LINEAR_FDB_CAP];
    private final AtomicReferenceArray<long[]> mft = new AtomicReferenceArray<>(MCAST_FDB_CAP);
    private final AtomicReferenceArray<byte[]> sl2vl;
    /** Whether any SLtoVLMappingTable row was written: until then every row is the default. */
    private volatile boolean sl2vlWritten;
    private final int stride;
    private final boolean enhancedPort0;
    /**
     * Port 0's LID and LMC packed into one word ({@link #packLids}), so the datapath reads a
     * consistent pair with one load instead of walking to port 0 for two fields.
     */
    private volatile int ownLids;
    volatile int linearFdbTop;
    final SwitchSma sma;

    SwitchNode(FabricImpl fabric, String name, long nodeGuid, long systemImageGuid, int vendorId, int deviceId,
               String description, int numPorts, boolean enhancedPort0) {
        super(fabric, name, NodeType.SWITCH, nodeGuid, systemImageGuid, vendorId, deviceId, description);
        Arrays.fill(lft, (byte) LFT_DROP);
        this.enhancedPort0 = enhancedPort0;
        this.sma = new SwitchSma(this);
        this.stride = numPorts + 1;
        this.sl2vl = new AtomicReferenceArray<>(stride * stride);
    }

    // ------------------------------------------------------------------ datapath

    @Override
    void receive(PortImpl in, Packet p, int bytes, boolean mc) {
        if (p.segments() > 1) {
            receiveTrain(in, p, bytes, mc);
            return;
        }
        int dlid = p.dlid();
        int vl = p.vl();
        int sl = p.sl();
        if (vl == Packet.VL15) {
            if (dlid == Packet.LID_PERMISSIVE || isOwnLid(dlid)) {
                sma.receive(in, p);
                return;
            }
            int out = route(dlid);
            if (!validOutput(out, in)) {
                relayError(in, p);
            } else if (out == 0) {
                sma.receive(in, p);
            } else {
                sendCounted(portImplUnchecked(out), p, bytes, mc);
            }
            return;
        }
        if (dlid >= Packet.MULTICAST_LID_BASE && dlid != Packet.LID_PERMISSIVE) {
            multicast(in, p, dlid, bytes, vl, sl);
            return;
        }
        if (dlid == 0 || isOwnLid(dlid)) {
            toManagementPort(in, p);
            return;
        }
        int out = route(dlid);
        if (!validOutput(out, in)) {
            relayError(in, p);
            return;
        }
        if (out == 0) {
            toManagementPort(in, p);
            return;
        }
        forwardData(in, portImplUnchecked(out), p, bytes, mc, vl, sl);
    }

    /**
     * A train crosses as one when it is unicast data routed to another port; anything else (SMPs,
     * the switch's own LIDs, a routing error) is handled packet by packet.
     */
    private void receiveTrain(PortImpl in, Packet p, int bytes, boolean mc) {
        int dlid = p.dlid();
        int vl = p.vl();
        int out = dlid == 0 || dlid >= Packet.MULTICAST_LID_BASE || vl == Packet.VL15 || isOwnLid(dlid)
                ? 0 : route(dlid);
        if (out != 0 && validOutput(out, in)) {
            forwardData(in, portImplUnchecked(out), p, bytes, mc, vl, p.sl());
            return;
        }
        while (p.segments() > 1) {
            receive(in, p.splitFirst(in.pool.alloc()), bytes, mc);
        }
        receive(in, p, bytes, mc);
    }

    /**
     * Sends a data packet on. Its data bytes, multicast kind, VL and SL come decoded: the headers
     * are read once per switch, and the switch rewrites only the VL.
     */
    private void forwardData(PortImpl in, PortImpl out, Packet p, int bytes, boolean mc, int inVl, int sl) {
        int vls = out.operationalVls;
        int vl = slToVlOrDefault(in.portNum, out.portNum, vls, sl);
        if (vl == Packet.VL15 || vl >= vls) {
            relayError(in, p);                       // "VL mapping"
            return;
        }
        if (p.payloadLength > out.neighborMtu) {
            out.counters.add(Counters.XMIT_DISCARDS, p.segments()); // "packet length exceeded NeighborMTU"
            p.release();
            return;
        }
        if (vl != inVl) {
            p.setVl(vl);
        }
        sendCounted(out, p, bytes, mc);
    }

    /** The output stage: drops a packet past {@link #MAX_HOPS} switches (PortXmitDiscards: lifetime limit). */
    private static void sendCounted(PortImpl out, Packet p, int bytes, boolean mc) {
        if (p.addHop() > MAX_HOPS) {
            out.counters.add(Counters.XMIT_DISCARDS, p.segments());
            p.release();
            return;
        }
        out.send(p, bytes, mc);
    }

    private void multicast(PortImpl in, Packet p, int mlid, int bytes, int vl, int sl) {
        int index = mlid - Packet.MULTICAST_LID_BASE;
        long[] mask = index < MCAST_FDB_CAP ? mft.get(index) : null;
        if (mask == null) {
            relayError(in, p);
            return;
        }
        PortImpl[] ps = ports;
        int last = -1;
        for (int w = mask.length - 1; w >= 0 && last < 0; w--) {
            long m = mask[w] & ~(w == (in.portNum >>> 6) ? 1L << (in.portNum & 63) : 0L);
            if (w == 0) {
                m &= ~1L;
            }
            if (m != 0) {
                last = w * 64 + 63 - Long.numberOfLeadingZeros(m);
            }
        }
        if (last < 0 || last >= ps.length) {
            p.release();
            return;
        }
        for (int w = 0; w < mask.length; w++) {
            long m = mask[w];
            while (m != 0) {
                int port = w * 64 + Long.numberOfTrailingZeros(m);
                m &= m - 1;
                if (port == 0 || port == in.portNum || port >= last) {
                    continue;
                }
                PortImpl out = ps[port];
                forwardData(in, out, out.pool.alloc().copyFrom(p), bytes, true, vl, sl);
            }
        }
        forwardData(in, ps[last], p, bytes, true, vl, sl);
    }

    /** Data packets for the switch itself (port 0): its GSI agents, reached through the SMA class dispatch. */
    private void toManagementPort(PortImpl in, Packet p) {
        PortImpl p0 = ports[0];
        if (p0.portState != PortState.ACTIVE) {
            p0.counters.inc(Counters.RCV_STATE_DISCARDS);
            p.release();
            return;
        }
        sma.receiveGmp(in, p);
    }

    private boolean validOutput(int out, PortImpl in) {
        return out != LFT_DROP && out < ports.length && out != in.portNum;
    }

    private static void relayError(PortImpl in, Packet p) {
        in.counters.add(Counters.RCV_SWITCH_RELAY_ERRORS, p.segments());
        p.release();
    }

    /** LinearForwardingTable lookup: the output port, or 0xFF above LinearFDBTop. */
    int route(int dlid) {
        if (dlid > linearFdbTop || dlid >= LINEAR_FDB_CAP) {
            return LFT_DROP;
        }
        return (byte) BYTES.getAcquire(lft, dlid) & 0xFF;
    }

    boolean isOwnLid(int dlid) {
        int own = ownLids;
        int lid = own & 0xFFFF;
        return lid != 0 && dlid >= lid && dlid < lid + (1 << (own >>> 16));
    }

    private static int packLids(int lid, int lmc) {
        return lmc << 16 | lid;
    }

    @Override
    void lidChanged(PortImpl port) {
        if (port.portNum == 0) {
            ownLids = packLids(port.lid, port.lmc);
        }
    }

    PortImpl portImplUnchecked(int portNum) {
        return ports[portNum];
    }

    /** SLtoVLMappingTable[in][out][sl], or the default for an output port with {@code vls} data VLs. */
    private int slToVlOrDefault(int in, int out, int vls, int sl) {
        byte[] row = sl2vlWritten ? sl2vl.get(in * stride + out) : null;
        if (row == null) {
            return sl < vls ? sl : sl % vls;     // no division for the SLs that map to themselves
        }
        return row[sl];
    }

    @Override
    void portStateChanged(PortImpl port) {
        sma.portStateChanged();
    }

    // ------------------------------------------------------------------ FabricSwitch

    @Override
    public int linearFdbCap() {
        return LINEAR_FDB_CAP;
    }

    @Override
    public int linearFdbTop() {
        return linearFdbTop;
    }

    @Override
    public void setLinearFdbTop(int top) {
        if (top < 0 || top >= LINEAR_FDB_CAP) {
            throw new RdmaException(Errno.EINVAL, "LinearFDBTop " + top + " is beyond LinearFDBCap " + LINEAR_FDB_CAP);
        }
        linearFdbTop = top;
    }

    @Override
    public int lft(int lid) {
        checkUnicast(lid);
        return (byte) BYTES.getAcquire(lft, lid) & 0xFF;
    }

    @Override
    public void setLft(int lid, int port) {
        checkUnicast(lid);
        if (port != LFT_DROP && (port < 0 || port > numPorts())) {
            throw new RdmaException(Errno.EINVAL, "\"" + name + "\" has no port " + port);
        }
        BYTES.setRelease(lft, lid, (byte) port);
        synchronized (this) {
            if (lid > linearFdbTop) {
                linearFdbTop = lid;
            }
        }
    }

    /** Writes one LFT entry without touching LinearFDBTop (SubnSet(LinearForwardingTable)). */
    void setLftEntry(int lid, int port) {
        BYTES.setRelease(lft, lid, (byte) port);
    }

    private static void checkUnicast(int lid) {
        if (lid < 0 || lid >= LINEAR_FDB_CAP) {
            throw new RdmaException(Errno.EINVAL, String.format("LID 0x%x is not a unicast LID", lid));
        }
    }

    @Override
    public int multicastFdbCap() {
        return MCAST_FDB_CAP;
    }

    @Override
    public BitSet mft(int mlid) {
        long[] m = mft.get(mcastIndex(mlid));
        return m == null ? new BitSet() : BitSet.valueOf(m);
    }

    @Override
    public void setMft(int mlid, BitSet ports) {
        int index = mcastIndex(mlid);
        if (ports.length() > numPorts() + 1) {
            throw new RdmaException(Errno.EINVAL, "\"" + name + "\" has no port " + (ports.length() - 1));
        }
        mft.set(index, ports.isEmpty() ? null : Arrays.copyOf(ports.toLongArray(), 4));
    }

    /** The 16-port slice {@code position} of MulticastForwardingTable[mlid] (SubnGet/Set(MFT)). */
    int mftMask16(int index, int position) {
        long[] m = mft.get(index);
        if (m == null) {
            return 0;
        }
        int bit = position * 16;
        return (int) (m[bit >>> 6] >>> (bit & 63)) & 0xFFFF;
    }

    synchronized void setMftMask16(int index, int position, int mask16) {
        long[] old = mft.get(index);
        long[] m = old == null ? new long[4] : old.clone();
        int bit = position * 16;
        m[bit >>> 6] = m[bit >>> 6] & ~(0xFFFFL << (bit & 63)) | ((long) (mask16 & 0xFFFF) << (bit & 63));
        boolean empty = m[0] == 0 && m[1] == 0 && m[2] == 0 && m[3] == 0;
        mft.set(index, empty ? null : m);
    }

    private static int mcastIndex(int mlid) {
        int index = mlid - Packet.MULTICAST_LID_BASE;
        if (index < 0 || index >= MCAST_FDB_CAP) {
            throw new RdmaException(Errno.EINVAL, String.format("MLID 0x%x is outside 0xC000..0x%X", mlid,
                    Packet.MULTICAST_LID_BASE + MCAST_FDB_CAP - 1));
        }
        return index;
    }

    @Override
    public int slToVl(int inPort, int outPort, int sl) {
        checkPorts(inPort, outPort);
        byte[] row = sl2vl.get(inPort * stride + outPort);
        return row == null ? sl % portImpl(outPort).operationalVls : row[sl & 15];
    }

    @Override
    public void setSlToVl(int inPort, int outPort, int sl, int vl) {
        checkPorts(inPort, outPort);
        if (sl < 0 || sl > 15 || vl < 0 || vl > 15) {
            throw new RdmaException(Errno.EINVAL, "SL and VL are 0..15, got SL " + sl + " VL " + vl);
        }
        synchronized (this) {
            byte[] row = slToVlRow(inPort, outPort);
            row[sl] = (byte) vl;
            sl2vl.set(inPort * stride + outPort, row);
            sl2vlWritten = true;
        }
    }

    /** A copy of the row SLtoVLMappingTable[in][out] (defaults filled in). */
    byte[] slToVlRow(int inPort, int outPort) {
        byte[] row = sl2vl.get(inPort * stride + outPort);
        if (row != null) {
            return row.clone();
        }
        byte[] d = new byte[16];
        int vls = portImpl(outPort).operationalVls;
        for (int sl = 0; sl < 16; sl++) {
            d[sl] = (byte) (sl % vls);
        }
        return d;
    }

    void setSlToVlRow(int inPort, int outPort, byte[] row) {
        sl2vl.set(inPort * stride + outPort, row.clone());
        sl2vlWritten = true;
    }

    private void checkPorts(int inPort, int outPort) {
        portImpl(inPort);
        portImpl(outPort);
    }

    @Override
    public boolean enhancedPort0() {
        return enhancedPort0;
    }
}
