package org.rdma.verbs.wire;

import java.util.List;
import java.util.Objects;

/**
 * The InfiniBand Base Transport Header (IBTA vol. 1, 9.2), 12 bytes; also the first header of the
 * UDP payload in RoCEv2.
 *
 * <p>Mirrors {@code struct ib_unpacked_bth} (include/rdma/ib_pack.h) and {@code bth_table}
 * (drivers/infiniband/core/ud_header.c). Unlike the kernel table, which declares the first byte of
 * word 1 {@code RESERVED}, this table carries it as {@link #resv8a}: IBTA 1.3 and the RoCE annexes
 * assign its two top bits to FECN and BECN. It stays 0 unless set, so packing is identical to the
 * kernel's for a zero value. The byte is variant: it is excluded from the ICRC.
 *
 * <pre>
 *  word 0:  OpCode(8) | SE(1) | M(1) | PadCnt(2) | TVer(4) | P_Key(16)
 *  word 1:  resv8a(8) = FECN(1) | BECN(1) | rsv(6)   | DestQP(24)
 *  word 2:  A(1) | rsv(7) | PSN(24)
 * </pre>
 */
public final class Bth {

    /** Size of the BTH on the wire ({@code IB_BTH_BYTES}). */
    public static final int IB_BTH_BYTES = 12;

    /** Transport type bits of an opcode: Reliable Connection ({@code IB_OPCODE_RC}). */
    public static final int OPCODE_RC = 0x00;
    /** Transport type bits of an opcode: Unreliable Connection ({@code IB_OPCODE_UC}). */
    public static final int OPCODE_UC = 0x20;
    /** Transport type bits of an opcode: Reliable Datagram ({@code IB_OPCODE_RD}). */
    public static final int OPCODE_RD = 0x40;
    /** Transport type bits of an opcode: Unreliable Datagram ({@code IB_OPCODE_UD}). */
    public static final int OPCODE_UD = 0x60;
    /** Transport type bits of an opcode: congestion notification ({@code IB_OPCODE_CNP}). */
    public static final int OPCODE_CNP = 0x80;
    /** {@code IB_OPCODE_UD_SEND_ONLY}. */
    public static final int OPCODE_UD_SEND_ONLY = 0x64;
    /** {@code IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE}. */
    public static final int OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE = 0x65;
    /** The RoCEv2 congestion notification packet opcode (IBTA annex A17.9.3). */
    public static final int OPCODE_ROCE_CNP = 0x81;

    /** Bit of {@link #resv8a} carrying FECN. */
    public static final int RESV8A_FECN = 0x80;
    /** Bit of {@link #resv8a} carrying BECN. */
    public static final int RESV8A_BECN = 0x40;

    /** Opcode, 8 bits. */
    public int opcode;
    /** Solicited event, 1 bit. */
    public boolean solicitedEvent;
    /** Migration request, 1 bit. */
    public boolean migReq;
    /** Pad count: bytes appended to the payload to reach a 4-byte multiple, 2 bits. */
    public int padCount;
    /** Transport header version, 4 bits; must be 0. */
    public int tver;
    /** Partition key, 16 bits. */
    public int pkey;
    /** First byte of word 1: FECN, BECN and six reserved bits (variant for the ICRC). */
    public int resv8a;
    /** Destination queue pair number, 24 bits. */
    public int destQpn;
    /** Acknowledge request, 1 bit. */
    public boolean ackReq;
    /** Packet sequence number, 24 bits. */
    public int psn;

    /** The field table, equivalent to the kernel's {@code bth_table} (with resv8a carried). */
    public static final List<IbField<Bth>> TABLE = List.of(
            IbField.of("bth:opcode", 0, 0, 8, h -> h.opcode, (h, v) -> h.opcode = (int) v),
            IbField.of("bth:solicited_event", 0, 8, 1, h -> h.solicitedEvent ? 1 : 0, (h, v) -> h.solicitedEvent = v != 0),
            IbField.of("bth:mig_req", 0, 9, 1, h -> h.migReq ? 1 : 0, (h, v) -> h.migReq = v != 0),
            IbField.of("bth:pad_count", 0, 10, 2, h -> h.padCount, (h, v) -> h.padCount = (int) v),
            IbField.of("bth:transport_header_version", 0, 12, 4, h -> h.tver, (h, v) -> h.tver = (int) v),
            IbField.of("bth:pkey", 0, 16, 16, h -> h.pkey, (h, v) -> h.pkey = (int) v),
            IbField.of("bth:resv8a", 1, 0, 8, h -> h.resv8a, (h, v) -> h.resv8a = (int) v),
            IbField.of("bth:destination_qpn", 1, 8, 24, h -> h.destQpn, (h, v) -> h.destQpn = (int) v),
            IbField.of("bth:ack_req", 2, 0, 1, h -> h.ackReq ? 1 : 0, (h, v) -> h.ackReq = v != 0),
            IbField.reserved(2, 1, 7),
            IbField.of("bth:psn", 2, 8, 24, h -> h.psn, (h, v) -> h.psn = (int) v));

    /** Creates an all-zero header. */
    public Bth() {
    }

    /** @return whether the FECN bit of {@link #resv8a} is set */
    public boolean fecn() {
        return (resv8a & RESV8A_FECN) != 0;
    }

    /** @return whether the BECN bit of {@link #resv8a} is set */
    public boolean becn() {
        return (resv8a & RESV8A_BECN) != 0;
    }

    /**
     * Packs this header with {@link IbPack#pack(List, Object, byte[], int)}.
     *
     * @param buf destination
     * @param off offset of the first BTH byte
     * @return {@link #IB_BTH_BYTES}
     */
    public int pack(byte[] buf, int off) {
        IbPack.pack(TABLE, this, buf, off);
        return IB_BTH_BYTES;
    }

    /**
     * Unpacks this header with {@link IbPack#unpack(List, byte[], int, Object)}.
     *
     * @param buf source
     * @param off offset of the first BTH byte
     * @return this header
     */
    public Bth unpack(byte[] buf, int off) {
        IbPack.unpack(TABLE, buf, off, this);
        return this;
    }

    /** @return a copy of this header */
    public Bth copy() {
        Bth c = new Bth();
        c.opcode = opcode;
        c.solicitedEvent = solicitedEvent;
        c.migReq = migReq;
        c.padCount = padCount;
        c.tver = tver;
        c.pkey = pkey;
        c.resv8a = resv8a;
        c.destQpn = destQpn;
        c.ackReq = ackReq;
        c.psn = psn;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Bth)) {
            return false;
        }
        Bth h = (Bth) o;
        return opcode == h.opcode && solicitedEvent == h.solicitedEvent && migReq == h.migReq
                && padCount == h.padCount && tver == h.tver && pkey == h.pkey && resv8a == h.resv8a
                && destQpn == h.destQpn && ackReq == h.ackReq && psn == h.psn;
    }

    @Override
    public int hashCode() {
        return Objects.hash(opcode, solicitedEvent, migReq, padCount, tver, pkey, resv8a, destQpn, ackReq, psn);
    }

    @Override
    public String toString() {
        return String.format("Bth{opcode=0x%02x, se=%b, m=%b, padCount=%d, tver=%d, pkey=0x%04x, resv8a=0x%02x, "
                        + "destQpn=0x%06x, ackReq=%b, psn=0x%06x}",
                opcode, solicitedEvent, migReq, padCount, tver, pkey, resv8a, destQpn, ackReq, psn);
    }
}
