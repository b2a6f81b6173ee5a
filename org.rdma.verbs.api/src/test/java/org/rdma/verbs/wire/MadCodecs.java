package org.rdma.verbs.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** Test helper: a uniform view of the MAD codecs, driven by their field tables. */
final class MadCodecs {

    private MadCodecs() {
    }

    interface Packer<T> {
        int pack(T obj, byte[] buf, int off);
    }

    interface Unpacker<T> {
        T unpack(T obj, byte[] buf, int off);
    }

    /** One codec: how to make, pack, unpack and copy it, and its table and size. */
    record Codec<T>(String name, Supplier<T> make, List<IbField<T>> table, int bytes, Packer<T> pack,
                    Unpacker<T> unpack, UnaryOperator<T> copy) {
    }

    static List<Codec<?>> all() {
        return List.of(
                new Codec<>("MadHdr", MadHdr::new, MadHdr.TABLE, MadHdr.IB_MGMT_MAD_HDR,
                        MadHdr::pack, MadHdr::unpack, MadHdr::copy),
                new Codec<>("Smp", Smp::new, Smp.TABLE, Smp.IB_SMP_BYTES, Smp::pack, Smp::unpack, Smp::copy),
                new Codec<>("NodeInfo", NodeInfo::new, NodeInfo.TABLE, NodeInfo.BYTES,
                        NodeInfo::pack, NodeInfo::unpack, NodeInfo::copy),
                new Codec<>("NodeDescription", NodeDescription::new, NodeDescription.TABLE, NodeDescription.BYTES,
                        NodeDescription::pack, NodeDescription::unpack, NodeDescription::copy),
                new Codec<>("PortInfo", PortInfo::new, PortInfo.TABLE, PortInfo.BYTES,
                        PortInfo::pack, PortInfo::unpack, PortInfo::copy),
                new Codec<>("SwitchInfo", SwitchInfo::new, SwitchInfo.TABLE, SwitchInfo.BYTES,
                        SwitchInfo::pack, SwitchInfo::unpack, SwitchInfo::copy),
                new Codec<>("LinearForwardingTable", LinearForwardingTable::new, LinearForwardingTable.TABLE,
                        LinearForwardingTable.BYTES, LinearForwardingTable::pack, LinearForwardingTable::unpack,
                        LinearForwardingTable::copy),
                new Codec<>("MulticastForwardingTable", MulticastForwardingTable::new, MulticastForwardingTable.TABLE,
                        MulticastForwardingTable.BYTES, MulticastForwardingTable::pack,
                        MulticastForwardingTable::unpack, MulticastForwardingTable::copy),
                new Codec<>("PKeyTable", PKeyTable::new, PKeyTable.TABLE, PKeyTable.BYTES,
                        PKeyTable::pack, PKeyTable::unpack, PKeyTable::copy),
                new Codec<>("GuidInfo", GuidInfo::new, GuidInfo.TABLE, GuidInfo.BYTES,
                        GuidInfo::pack, GuidInfo::unpack, GuidInfo::copy),
                new Codec<>("SlToVlTable", SlToVlTable::new, SlToVlTable.TABLE, SlToVlTable.BYTES,
                        SlToVlTable::pack, SlToVlTable::unpack, SlToVlTable::copy),
                new Codec<>("VlArbitrationTable", VlArbitrationTable::new, VlArbitrationTable.TABLE,
                        VlArbitrationTable.BYTES, VlArbitrationTable::pack, VlArbitrationTable::unpack,
                        VlArbitrationTable::copy),
                new Codec<>("SmInfo", SmInfo::new, SmInfo.TABLE, SmInfo.BYTES, SmInfo::pack, SmInfo::unpack,
                        SmInfo::copy),
                new Codec<>("Notice", Notice::new, Notice.TABLE, Notice.BYTES, Notice::pack, Notice::unpack,
                        Notice::copy),
                new Codec<>("Notice(SMP)", Notice::new, Notice.SMP_TABLE, Notice.SMP_BYTES, Notice::packSmp,
                        Notice::unpackSmp, Notice::copy),
                new Codec<>("PerfMgmtMad", PerfMgmtMad::new, PerfMgmtMad.TABLE, PerfMgmtMad.IB_PMA_MAD_BYTES,
                        PerfMgmtMad::pack, PerfMgmtMad::unpack, PerfMgmtMad::copy),
                new Codec<>("PortCounters", PortCounters::new, PortCounters.TABLE, PortCounters.BYTES,
                        PortCounters::pack, PortCounters::unpack, PortCounters::copy),
                new Codec<>("PortCountersExtended", PortCountersExtended::new, PortCountersExtended.TABLE,
                        PortCountersExtended.BYTES, PortCountersExtended::pack, PortCountersExtended::unpack,
                        PortCountersExtended::copy),
                new Codec<>("ClassPortInfo", ClassPortInfo::new, ClassPortInfo.TABLE, ClassPortInfo.BYTES,
                        ClassPortInfo::pack, ClassPortInfo::unpack, ClassPortInfo::copy));
    }

    static long mask(int size) {
        return size == 64 ? -1L : (1L << size) - 1;
    }

    /** Sets every non-reserved field of {@code obj} to a random value of the field's width. */
    static <T> T randomize(Codec<T> c, T obj, Random r) {
        for (IbField<T> f : c.table()) {
            switch (f.kind()) {
                case VALUE:
                    f.set(obj, r.nextLong() & mask(f.sizeBits()));
                    break;
                case BYTES:
                    byte[] b = new byte[f.sizeBits() / 8];
                    r.nextBytes(b);
                    f.setBytes(obj, b);
                    break;
                default:
                    break;
            }
        }
        return obj;
    }

    /** For each value and byte field: a copy with that one field changed differs from the original. */
    static <T> void assertEveryFieldCountsForEquality(Codec<T> c, T original) {
        for (IbField<T> f : c.table()) {
            T changed = c.copy().apply(original);
            assertEquals(original, changed, c.name() + ": copy");
            assertEquals(original.hashCode(), changed.hashCode(), c.name() + ": hashCode of copy");
            switch (f.kind()) {
                case VALUE:
                    f.set(changed, (f.get(changed) ^ 1) & mask(f.sizeBits()));
                    break;
                case BYTES:
                    byte[] b = f.getBytes(changed);
                    b[b.length - 1] ^= 1;
                    break;
                default:
                    continue;
            }
            assertNotEquals(original, changed, c.name() + ": " + f.name() + " ignored by equals or shared by copy");
        }
    }

    /** Every bit of {@code bytes} is covered by exactly one table entry. */
    static <T> void assertCoversOnce(String name, List<IbField<T>> table, int bytes) {
        int[] count = new int[bytes * 8];
        for (IbField<T> f : table) {
            for (int b = 0; b < f.sizeBits(); b++) {
                count[f.bitOffset() + b]++;
            }
        }
        for (int i = 0; i < count.length; i++) {
            assertEquals(1, count[i], name + ": bit " + i + " (byte " + i / 8 + ")");
        }
        assertEquals(bytes, IbPack.byteLength(table), name + ": span");
    }
}
