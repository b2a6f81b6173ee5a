package org.rdma.rvt.internal.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Direct accessors for the transport headers in a packet's header bytes (BTH at offset 0), in the
 * manner of {@code rxe_hdr.h}: each field is read or written in place, big-endian, at the offset the
 * {@link Opcodes} table gives for the packet's opcode. The generic {@code IbPack} codecs of the API
 * remain the control-path tool; these never allocate.
 */
public final class Hdr {
    private Hdr() {
    }

    /**
     * Big-endian views of the header bytes: one (byte-swapping) access per field instead of one
     * per byte, with the same bounds checks.
     */
    private static final VarHandle BE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    // ---------------------------------------------------------------- raw big-endian access
    /** 32-bit big-endian read. */
    public static int get32(byte[] b, int off) {
        return (int) BE32.get(b, off);
    }

    /** 32-bit big-endian write. */
    public static void put32(byte[] b, int off, int v) {
        BE32.set(b, off, v);
    }

    /** 64-bit big-endian read. */
    public static long get64(byte[] b, int off) {
        return (long) BE64.get(b, off);
    }

    /** 64-bit big-endian write. */
    public static void put64(byte[] b, int off, long v) {
        BE64.set(b, off, v);
    }

    // ---------------------------------------------------------------- BTH
    /** BTH opcode. */
    public static int bthOpcode(byte[] h) {
        return h[0] & 0xff;
    }

    /** BTH solicited event bit. */
    public static boolean bthSe(byte[] h) {
        return (h[1] & 0x80) != 0;
    }

    /** BTH migration request bit. */
    public static boolean bthMig(byte[] h) {
        return (h[1] & 0x40) != 0;
    }

    /** BTH pad count. */
    public static int bthPad(byte[] h) {
        return (h[1] >>> 4) & 3;
    }

    /** BTH transport header version. */
    public static int bthTver(byte[] h) {
        return h[1] & 0xf;
    }

    /** BTH P_Key. */
    public static int bthPkey(byte[] h) {
        return (h[2] & 0xff) << 8 | (h[3] & 0xff);
    }

    /** BTH FECN/BECN byte. */
    public static int bthResv8a(byte[] h) {
        return h[4] & 0xff;
    }

    /** BTH destination QP. */
    public static int bthQpn(byte[] h) {
        return get32(h, 4) & 0xffffff;
    }

    /** BTH acknowledge request bit. */
    public static boolean bthAckReq(byte[] h) {
        return (h[8] & 0x80) != 0;
    }

    /** BTH PSN. */
    public static int bthPsn(byte[] h) {
        return get32(h, 8) & 0xffffff;
    }

    /** Writes the whole BTH. */
    public static void setBth(byte[] h, int opcode, boolean se, int pad, int pkey, int qpn, boolean ackReq, int psn) {
        put32(h, 0, (opcode & 0xff) << 24 | ((se ? 0x80 : 0) | (pad & 3) << 4) << 16 | (pkey & 0xffff));
        put32(h, 4, qpn & 0xffffff);
        put32(h, 8, (ackReq ? 0x8000_0000 : 0) | (psn & 0xffffff));
    }

    /** Rewrites the BTH PSN, leaving the AckReq bit. */
    public static void setBthPsn(byte[] h, int psn) {
        h[9] = (byte) (psn >>> 16);
        h[10] = (byte) (psn >>> 8);
        h[11] = (byte) psn;
    }

    /** Sets or clears the acknowledge request bit. */
    public static void setBthAckReq(byte[] h, boolean ackReq) {
        h[8] = (byte) (ackReq ? h[8] | 0x80 : h[8] & 0x7f);
    }

    // ---------------------------------------------------------------- RETH
    /** RETH virtual address. */
    public static long rethVa(byte[] h, int opcode) {
        return get64(h, Opcodes.offset(opcode, Opcodes.RETH));
    }

    /** RETH rkey. */
    public static int rethRkey(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.RETH) + 8);
    }

    /** RETH DMA length (unsigned 32 bits, returned as a long). */
    public static long rethLen(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.RETH) + 12) & 0xffff_ffffL;
    }

    /** Writes the RETH. */
    public static void setReth(byte[] h, int opcode, long va, int rkey, long len) {
        int o = Opcodes.offset(opcode, Opcodes.RETH);
        put64(h, o, va);
        put32(h, o + 8, rkey);
        put32(h, o + 12, (int) len);
    }

    // ---------------------------------------------------------------- AtomicETH
    /** AtomicETH virtual address. */
    public static long atmethVa(byte[] h, int opcode) {
        return get64(h, Opcodes.offset(opcode, Opcodes.ATMETH));
    }

    /** AtomicETH rkey. */
    public static int atmethRkey(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.ATMETH) + 8);
    }

    /** AtomicETH swap (or add) data. */
    public static long atmethSwapAdd(byte[] h, int opcode) {
        return get64(h, Opcodes.offset(opcode, Opcodes.ATMETH) + 12);
    }

    /** AtomicETH compare data. */
    public static long atmethCompare(byte[] h, int opcode) {
        return get64(h, Opcodes.offset(opcode, Opcodes.ATMETH) + 20);
    }

    /** Writes the AtomicETH. */
    public static void setAtmeth(byte[] h, int opcode, long va, int rkey, long swapAdd, long compare) {
        int o = Opcodes.offset(opcode, Opcodes.ATMETH);
        put64(h, o, va);
        put32(h, o + 8, rkey);
        put64(h, o + 12, swapAdd);
        put64(h, o + 20, compare);
    }

    // ---------------------------------------------------------------- AETH, AtomicAckETH
    /** AETH syndrome (top 8 bits). */
    public static int aethSyndrome(byte[] h, int opcode) {
        return h[Opcodes.offset(opcode, Opcodes.AETH)] & 0xff;
    }

    /** AETH MSN (24 bits). */
    public static int aethMsn(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.AETH)) & 0xffffff;
    }

    /** The whole AETH word. */
    public static int aeth(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.AETH));
    }

    /** Writes the AETH word (syndrome in the top byte, MSN below). */
    public static void setAeth(byte[] h, int opcode, int aeth) {
        put32(h, Opcodes.offset(opcode, Opcodes.AETH), aeth);
    }

    /** AtomicAckETH original remote data. */
    public static long atmackOrig(byte[] h, int opcode) {
        return get64(h, Opcodes.offset(opcode, Opcodes.ATMACK));
    }

    /** Writes the AtomicAckETH. */
    public static void setAtmack(byte[] h, int opcode, long orig) {
        put64(h, Opcodes.offset(opcode, Opcodes.ATMACK), orig);
    }

    // ---------------------------------------------------------------- ImmDt, IETH
    /** Immediate data. */
    public static int immdt(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.IMMDT));
    }

    /** Writes the immediate data. */
    public static void setImmdt(byte[] h, int opcode, int imm) {
        put32(h, Opcodes.offset(opcode, Opcodes.IMMDT), imm);
    }

    /** IETH rkey to invalidate. */
    public static int iethRkey(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.IETH));
    }

    /** Writes the IETH. */
    public static void setIeth(byte[] h, int opcode, int rkey) {
        put32(h, Opcodes.offset(opcode, Opcodes.IETH), rkey);
    }

    // ---------------------------------------------------------------- DETH
    /** DETH Q_Key. */
    public static int dethQkey(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.DETH));
    }

    /** DETH source QP. */
    public static int dethSqp(byte[] h, int opcode) {
        return get32(h, Opcodes.offset(opcode, Opcodes.DETH) + 4) & 0xffffff;
    }

    /** Writes the DETH. */
    public static void setDeth(byte[] h, int opcode, int qkey, int srcQpn) {
        int o = Opcodes.offset(opcode, Opcodes.DETH);
        put32(h, o, qkey);
        put32(h, o + 4, srcQpn & 0xffffff);
    }
}
