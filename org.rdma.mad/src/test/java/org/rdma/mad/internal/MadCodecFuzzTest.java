package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.rdma.mad.sa.GuidInfoRecord;
import org.rdma.mad.sa.McMemberRecord;
import org.rdma.mad.sa.NodeRecord;
import org.rdma.mad.sa.PathRecord;
import org.rdma.mad.sa.PortInfoRecord;
import org.rdma.mad.sa.ServiceRecord;
import org.rdma.verbs.wire.ClassPortInfo;
import org.rdma.verbs.wire.DrSmp;
import org.rdma.verbs.wire.GuidInfo;
import org.rdma.verbs.wire.IbField;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.MulticastForwardingTable;
import org.rdma.verbs.wire.NodeDescription;
import org.rdma.verbs.wire.NodeInfo;
import org.rdma.verbs.wire.Notice;
import org.rdma.verbs.wire.PKeyTable;
import org.rdma.verbs.wire.PerfMgmtMad;
import org.rdma.verbs.wire.PortCounters;
import org.rdma.verbs.wire.PortCountersExtended;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.SlToVlTable;
import org.rdma.verbs.wire.SmInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;
import org.rdma.verbs.wire.VlArbitrationTable;

/**
 * The {@code ib_pack()}/{@code ib_unpack()} field tables of the MAD header, the SMP, every SM,
 * PMA and SA attribute: any bytes unpack without an exception, and packing what was unpacked
 * gives the same bytes back with the reserved bits cleared, so no field is lost, widened or
 * moved by a round trip through the holder.
 */
class MadCodecFuzzTest {

    /** One codec: its wire length, its field table (null: no single table) and its two directions. */
    record Codec<T>(String name, int length, List<IbField<T>> table, Supplier<T> make,
            BiFunction<T, byte[], T> unpack, BiFunction<T, byte[], Integer> pack) {

        byte[] roundTrip(byte[] in) {
            T holder = unpack.apply(make.get(), in);
            byte[] out = new byte[length];
            pack.apply(holder, out);
            return out;
        }

        /** The bits of the layout no field carries (all zero when there is no table). */
        byte[] reservedMask() {
            byte[] mask = new byte[length];
            if (table != null) {
                for (IbField<T> f : table) {
                    if (f.isReserved()) {
                        for (int bit = f.bitOffset(); bit < f.bitOffset() + f.sizeBits(); bit++) {
                            mask[bit >>> 3] |= (byte) (0x80 >>> (bit & 7));
                        }
                    }
                }
            }
            return mask;
        }
    }

    private static <T> Codec<T> codec(String name, int length, List<IbField<T>> table, Supplier<T> make,
            BiFunction<T, byte[], T> unpack, BiFunction<T, byte[], Integer> pack) {
        return new Codec<>(name, length, table, make, unpack, pack);
    }

    static final List<Codec<?>> CODECS = List.of(
            codec("MadHdr", MadHdr.IB_MGMT_MAD_HDR, MadHdr.TABLE, MadHdr::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("Smp", Smp.IB_SMP_BYTES, Smp.TABLE, Smp::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("PerfMgmtMad", PerfMgmtMad.IB_PMA_MAD_BYTES, PerfMgmtMad.TABLE, PerfMgmtMad::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("ClassPortInfo", ClassPortInfo.BYTES, ClassPortInfo.TABLE, ClassPortInfo::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("Notice", Notice.BYTES, Notice.TABLE, Notice::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("NoticeSmp", Notice.SMP_BYTES, Notice.SMP_TABLE, Notice::new, (h, b) -> h.unpackSmp(b, 0),
                    (h, b) -> h.packSmp(b, 0)),
            codec("NodeDescription", NodeDescription.BYTES, NodeDescription.TABLE, NodeDescription::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("NodeInfo", NodeInfo.BYTES, NodeInfo.TABLE, NodeInfo::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("SwitchInfo", SwitchInfo.BYTES, SwitchInfo.TABLE, SwitchInfo::new, (h, b) -> h.unpack(b, 0),
                    (h, b) -> h.pack(b, 0)),
            codec("GuidInfo", GuidInfo.BYTES, GuidInfo.TABLE, GuidInfo::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("PortInfo", PortInfo.BYTES, PortInfo.TABLE, PortInfo::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("PKeyTable", PKeyTable.BYTES, PKeyTable.TABLE, PKeyTable::new, (h, b) -> h.unpack(b, 0),
                    (h, b) -> h.pack(b, 0)),
            codec("SlToVlTable", SlToVlTable.BYTES, SlToVlTable.TABLE, SlToVlTable::new, (h, b) -> h.unpack(b, 0),
                    (h, b) -> h.pack(b, 0)),
            codec("VlArbitrationTable", VlArbitrationTable.BYTES, VlArbitrationTable.TABLE, VlArbitrationTable::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("LinearForwardingTable", LinearForwardingTable.BYTES, LinearForwardingTable.TABLE,
                    LinearForwardingTable::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("MulticastForwardingTable", MulticastForwardingTable.BYTES, MulticastForwardingTable.TABLE,
                    MulticastForwardingTable::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("SmInfo", SmInfo.BYTES, SmInfo.TABLE, SmInfo::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("PortCounters", PortCounters.BYTES, PortCounters.TABLE, PortCounters::new, (h, b) -> h.unpack(b, 0),
                    (h, b) -> h.pack(b, 0)),
            codec("PortCountersExtended", PortCountersExtended.BYTES, PortCountersExtended.TABLE,
                    PortCountersExtended::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("PathRecord", PathRecord.BYTES, PathRecord.TABLE, PathRecord::new, (h, b) -> h.unpack(b, 0),
                    (h, b) -> h.pack(b, 0)),
            codec("McMemberRecord", McMemberRecord.BYTES, McMemberRecord.TABLE, McMemberRecord::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("ServiceRecord", ServiceRecord.BYTES, ServiceRecord.TABLE, ServiceRecord::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("GuidInfoRecord", GuidInfoRecord.BYTES, GuidInfoRecord.TABLE, GuidInfoRecord::new,
                    (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("NodeRecord", NodeRecord.BYTES, null, NodeRecord::new, (h, b) -> h.unpack(b, 0), (h, b) -> h.pack(b, 0)),
            codec("PortInfoRecord", PortInfoRecord.BYTES, null, PortInfoRecord::new, (h, b) -> h.unpack(b, 0),
                    (h, b) -> h.pack(b, 0)));

    /** First byte: the codec (modulo their number); the rest: its bytes, zero-padded or cut to its length. */
    @FuzzTest
    void unpackThenPackKeepsEveryField(byte[] input) {
        if (input.length == 0) {
            return;
        }
        Codec<?> c = CODECS.get((input[0] & 0xff) % CODECS.size());
        byte[] in = Arrays.copyOfRange(input, 1, 1 + c.length());
        byte[] out = c.roundTrip(in);
        byte[] expected = in.clone();
        if (c.table() != null) {
            byte[] mask = c.reservedMask();
            for (int i = 0; i < expected.length; i++) {
                expected[i] &= (byte) ~mask[i];
            }
        } else {
            // composed records (no single table): a second round trip changes nothing
            expected = c.roundTrip(out);
        }
        assertArrayEquals(expected, out, c.name() + " round trip of " + HexFormat.of().formatHex(in));
    }

    /**
     * The SMI of {@code smi.c} on a received directed-route SMP, at a switch or a channel adapter
     * ({@link DrSmp#receive}) and on the way out ({@link DrSmp#send}). Bytes 0-2: whether the node
     * is a switch, its port count and the port the SMP uses; then the SMP. Nothing but the hop
     * pointer and the return path may change, the hop pointer stays on the path, and a switch
     * forwards only out of one of its ports.
     */
    @FuzzTest
    void directedRouteSmi(byte[] input) {
        if (input.length < 3) {
            return;
        }
        boolean isSwitch = (input[0] & 1) != 0;
        int physPortCnt = input[1] & 0xff;
        int portNum = input[2] & 0xff;
        Smp smp = new Smp().unpack(Arrays.copyOfRange(input, 3, 3 + Smp.IB_SMP_BYTES), 0);
        Smp before = smp.copy();
        DrSmp.Decision in = DrSmp.receive(smp, isSwitch, portNum, physPortCnt);
        assertOnlyTheRouteMoved(before, smp);
        if (smp.isDirectedRoute() && in.verdict() != DrSmp.Verdict.DISCARD) {
            assertTrue(smp.hopPtr <= smp.hopCnt + 1, "hop pointer off the path: " + smp);
        }
        if (in.verdict() == DrSmp.Verdict.FORWARD) {
            assertTrue(isSwitch && in.port() <= physPortCnt, "forwarded out of port " + in.port() + " of "
                    + physPortCnt + (isSwitch ? " at a switch" : " at a CA"));
        }
        Smp out = before.copy();
        DrSmp.Decision sent = DrSmp.send(out, isSwitch, portNum);
        assertOnlyTheRouteMoved(before, out);
        assertTrue(sent.verdict() != DrSmp.Verdict.FORWARD || sent.port() == portNum,
                "an SMP leaves through the port it was sent on");
    }

    private static void assertOnlyTheRouteMoved(Smp before, Smp after) {
        Smp same = after.copy();
        same.hopPtr = before.hopPtr;
        same.returnPath = before.returnPath;
        assertEquals(before, same, "the SMI changed more than the hop pointer and the return path");
    }
}
