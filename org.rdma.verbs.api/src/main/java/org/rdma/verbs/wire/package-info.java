/**
 * IBTA wire codecs: the {@code ib_pack}/{@code ib_unpack} field-table codec, the UD header
 * ({@code ib_ud_header_init}/{@code ib_ud_header_pack}/{@code ib_ud_header_unpack}), and the
 * ICRC/VCRC engines.
 *
 * <ul>
 *   <li>{@link org.rdma.verbs.wire.IbField} and {@link org.rdma.verbs.wire.IbPack} mirror
 *       {@code struct ib_field}, {@code ib_pack()} and {@code ib_unpack()}
 *       (drivers/infiniband/core/packer.c): big-endian headers described by tables of
 *       (word, bit, width) entries, bit 0 being the most significant bit of a 32-bit word.</li>
 *   <li>{@link org.rdma.verbs.wire.Lrh}, {@link org.rdma.verbs.wire.Grh} (also the RoCEv2 IPv6
 *       header), {@link org.rdma.verbs.wire.Bth}, {@link org.rdma.verbs.wire.Deth},
 *       {@link org.rdma.verbs.wire.EthHeader}, {@link org.rdma.verbs.wire.VlanHeader},
 *       {@link org.rdma.verbs.wire.Ipv4Header} and {@link org.rdma.verbs.wire.UdpHeader} carry the
 *       kernel's field tables from drivers/infiniband/core/ud_header.c.</li>
 *   <li>{@link org.rdma.verbs.wire.IbUdHeader} mirrors {@code struct ib_ud_header} and its
 *       init/pack/unpack functions, including the RoCE layouts.</li>
 *   <li>{@link org.rdma.verbs.wire.Icrc} computes the invariant CRC of native IB, RoCEv1 and RoCEv2
 *       packets like drivers/infiniband/sw/rxe/rxe_icrc.c; {@link org.rdma.verbs.wire.Vcrc} the
 *       16-bit variant CRC of native IB packets. Both are sent least significant byte first.</li>
 *   <li>{@link org.rdma.verbs.wire.MadHdr}, {@link org.rdma.verbs.wire.Smp} and the SMP attributes
 *       ({@link org.rdma.verbs.wire.NodeInfo}, {@link org.rdma.verbs.wire.PortInfo},
 *       {@link org.rdma.verbs.wire.SwitchInfo}, the forwarding, P_Key, GUID, SL-to-VL and VL
 *       arbitration tables, {@link org.rdma.verbs.wire.SmInfo}, {@link org.rdma.verbs.wire.Notice})
 *       mirror {@code include/rdma/ib_mad.h} and {@code ib_smi.h}; the PMA classes
 *       ({@link org.rdma.verbs.wire.PerfMgmtMad}, {@link org.rdma.verbs.wire.PortCounters},
 *       {@link org.rdma.verbs.wire.PortCountersExtended}, {@link org.rdma.verbs.wire.ClassPortInfo})
 *       {@code ib_pma.h}; {@link org.rdma.verbs.wire.DrSmp} the directed-route rules of
 *       {@code drivers/infiniband/core/smi.c}.</li>
 * </ul>
 *
 * <p>Header classes are plain mutable holders with public fields, like the kernel's
 * {@code struct ib_unpacked_*}; they are not thread-safe. The static codecs are.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.2.0")
package org.rdma.verbs.wire;
