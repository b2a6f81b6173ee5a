package org.rdma.iscsi.pdu;

import java.nio.ByteBuffer;

/**
 * The 48-byte basic header segment (RFC 7143 11.2.1) as a flyweight over a {@link ByteBuffer} at
 * a base index: one accessor per named field of the chapter 11 figures, in network byte order
 * whatever the buffer's order, without moving the buffer's position. Like the overlays of Linux's
 * iscsi_proto.h ({@code struct iscsi_cmd}, {@code iscsi_data_rsp}, ...), the accessors of a field
 * do not check the opcode: the name says which PDUs carry it, several names share an offset.
 * Setters return this. A Bhs is re-targeted with {@link #wrap} so readers and writers reuse one.
 */
public final class Bhs {
    /** The length of the basic header segment. */
    public static final int BHS_LENGTH = 48;
    /** The reserved tag value (RFC 7143 11.2.1.8, {@code ISCSI_RESERVED_TAG}). */
    public static final int RESERVED_TAG = 0xffffffff;

    static final int I_BIT = 0x40;
    static final int F_BIT = 0x80;
    /** SCSI Command: R (11.3.2), W (11.3.3); Text and Login: C (11.10.2, 11.12.2); Data-In: A. */
    static final int BIT_6 = 0x40;
    static final int BIT_5 = 0x20;

    private ByteBuffer buf;
    private int base;

    /** A flyweight over nothing yet; {@link #wrap} it. */
    public Bhs() {
    }

    /** A flyweight over {@code buf} at {@code base}. */
    public Bhs(ByteBuffer buf, int base) {
        wrap(buf, base);
    }

    /** Re-targets this flyweight at {@code buf[base, base + 48)}. */
    public Bhs wrap(ByteBuffer buf, int base) {
        if (base < 0 || base + BHS_LENGTH > buf.limit()) {
            throw new IndexOutOfBoundsException("EINVAL: 48 header bytes at " + base + " of " + buf.limit());
        }
        this.buf = buf;
        this.base = base;
        return this;
    }

    /** The buffer this flyweight reads and writes. */
    public ByteBuffer buffer() {
        return buf;
    }

    /** Where the header starts in {@link #buffer()}. */
    public int base() {
        return base;
    }

    /** Zeroes the 48 bytes. */
    public Bhs clear() {
        for (int i = 0; i < BHS_LENGTH; i++) {
            buf.put(base + i, (byte) 0);
        }
        return this;
    }

    /** A copy of the 48 bytes (e.g. the data segment of a Reject, RFC 7143 11.17.3). */
    public byte[] toBytes() {
        byte[] b = new byte[BHS_LENGTH];
        buf.get(base, b);
        return b;
    }

    // ---------------------------------------------------------------- raw access

    int u8(int off) {
        return buf.get(base + off) & 0xff;
    }

    void u8(int off, int v) {
        buf.put(base + off, (byte) v);
    }

    int u16(int off) {
        return u8(off) << 8 | u8(off + 1);
    }

    void u16(int off, int v) {
        u8(off, v >>> 8);
        u8(off + 1, v);
    }

    int u24(int off) {
        return u8(off) << 16 | u16(off + 1);
    }

    void u24(int off, int v) {
        u8(off, v >>> 16);
        u16(off + 1, v);
    }

    int u32(int off) {
        return u16(off) << 16 | u16(off + 2);
    }

    void u32(int off, int v) {
        u16(off, v >>> 16);
        u16(off + 2, v);
    }

    long u64(int off) {
        return (long) u32(off) << 32 | u32(off + 4) & 0xffffffffL;
    }

    void u64(int off, long v) {
        u32(off, (int) (v >>> 32));
        u32(off + 4, (int) v);
    }

    private boolean bit(int off, int mask) {
        return (u8(off) & mask) != 0;
    }

    private Bhs bit(int off, int mask, boolean on) {
        u8(off, on ? u8(off) | mask : u8(off) & ~mask);
        return this;
    }

    // ---------------------------------------------------------------- every PDU (11.2.1)

    /** Byte 0, bits 2-7: the opcode code (11.2.1.2); see {@link #opcode()}. */
    public int opcodeCode() {
        return u8(0) & 0x3f;
    }

    /** The opcode, or null for a reserved or vendor-specific code. */
    public Opcode opcode() {
        return Opcode.valueOf(opcodeCode());
    }

    /** Sets the opcode, keeping the I bit. */
    public Bhs opcode(Opcode op) {
        u8(0, u8(0) & I_BIT | op.code());
        return this;
    }

    /** Byte 0, bit 1: immediate delivery (11.2.1.1). */
    public boolean immediate() {
        return bit(0, I_BIT);
    }

    public Bhs immediate(boolean on) {
        return bit(0, I_BIT, on);
    }

    /** Byte 1 whole: the F bit and the opcode-specific flags. */
    public int flags() {
        return u8(1);
    }

    public Bhs flags(int v) {
        u8(1, v);
        return this;
    }

    /** Byte 1, bit 0: F (final PDU of a sequence), T (transit) in Login PDUs. */
    public boolean finalBit() {
        return bit(1, F_BIT);
    }

    public Bhs finalBit(boolean on) {
        return bit(1, F_BIT, on);
    }

    /** Byte 4: TotalAHSLength in 4-byte words (11.2.1.4). */
    public int totalAhsLength() {
        return u8(4);
    }

    public Bhs totalAhsLength(int words) {
        u8(4, words);
        return this;
    }

    /** Bytes 5-7: DataSegmentLength in bytes, without padding (11.2.1.5). */
    public int dataSegmentLength() {
        return u24(5);
    }

    public Bhs dataSegmentLength(int v) {
        if (v < 0 || v > 0xffffff) {
            throw new IllegalArgumentException("EINVAL: DataSegmentLength " + v + " does not fit 24 bits");
        }
        u24(5, v);
        return this;
    }

    /** Bytes 8-15: LUN (11.2.1.6), the 8 bytes of SAM-5 4.6 as one long. */
    public long lun() {
        return u64(8);
    }

    public Bhs lun(long v) {
        u64(8, v);
        return this;
    }

    /** Bytes 16-19: Initiator Task Tag (11.2.1.8). */
    public int itt() {
        return u32(16);
    }

    public Bhs itt(int v) {
        u32(16, v);
        return this;
    }

    /** Bytes 20-23: Target Transfer Tag of NOP, Data, R2T, Text and SNACK PDUs. */
    public int ttt() {
        return u32(20);
    }

    public Bhs ttt(int v) {
        u32(20, v);
        return this;
    }

    // ---------------------------------------------------------------- sequence numbers

    /** Bytes 24-27 of requests: CmdSN (11.3.5). */
    public int cmdSn() {
        return u32(24);
    }

    public Bhs cmdSn(int v) {
        u32(24, v);
        return this;
    }

    /** Bytes 28-31 of requests: ExpStatSN (11.3.6). */
    public int expStatSn() {
        return u32(28);
    }

    public Bhs expStatSn(int v) {
        u32(28, v);
        return this;
    }

    /** Bytes 24-27 of responses: StatSN (11.4.4). */
    public int statSn() {
        return u32(24);
    }

    public Bhs statSn(int v) {
        u32(24, v);
        return this;
    }

    /** Bytes 28-31 of responses: ExpCmdSN (11.4.5). */
    public int expCmdSn() {
        return u32(28);
    }

    public Bhs expCmdSn(int v) {
        u32(28, v);
        return this;
    }

    /** Bytes 32-35 of responses: MaxCmdSN (11.4.5). */
    public int maxCmdSn() {
        return u32(32);
    }

    public Bhs maxCmdSn(int v) {
        u32(32, v);
        return this;
    }

    /** Bytes 36-39: DataSN of Data-In/Data-Out (11.7.5), DataSN/R2TSN of a Reject (11.17.2). */
    public int dataSn() {
        return u32(36);
    }

    public Bhs dataSn(int v) {
        u32(36, v);
        return this;
    }

    /** Bytes 36-39 of an R2T: R2TSN (11.8.3). */
    public int r2tSn() {
        return u32(36);
    }

    public Bhs r2tSn(int v) {
        u32(36, v);
        return this;
    }

    /** Bytes 36-39: ExpDataSN of a SCSI Response (11.4.6) or a TMF Request (11.5.5). */
    public int expDataSn() {
        return u32(36);
    }

    public Bhs expDataSn(int v) {
        u32(36, v);
        return this;
    }

    // ---------------------------------------------------------------- SCSI Command (11.3)

    /** Byte 1 bit 1: R, the command reads (11.3.1). */
    public boolean read() {
        return bit(1, BIT_6);
    }

    public Bhs read(boolean on) {
        return bit(1, BIT_6, on);
    }

    /** Byte 1 bit 2: W, the command writes (11.3.1). */
    public boolean write() {
        return bit(1, BIT_5);
    }

    public Bhs write(boolean on) {
        return bit(1, BIT_5, on);
    }

    /** Byte 1 bits 5-7: ATTR, the task attribute (11.3.1, {@code ISCSI_ATTR_*}). */
    public int attr() {
        return u8(1) & 0x07;
    }

    public Bhs attr(int v) {
        u8(1, u8(1) & ~0x07 | v & 0x07);
        return this;
    }

    /** Bytes 20-23: Expected Data Transfer Length (11.3.4). */
    public int expectedDataTransferLength() {
        return u32(20);
    }

    public Bhs expectedDataTransferLength(int v) {
        u32(20, v);
        return this;
    }

    /** Copies the 16 CDB bytes at 32-47 (11.3.7) into {@code dst}. */
    public void cdb(byte[] dst, int off) {
        buf.get(base + 32, dst, off, 16);
    }

    /** Writes up to 16 CDB bytes, zero-filling the rest; a longer CDB continues in an AHS. */
    public Bhs cdb(byte[] src, int off, int len) {
        int n = Math.min(len, 16);
        buf.put(base + 32, src, off, n);
        for (int i = n; i < 16; i++) {
            u8(32 + i, 0);
        }
        return this;
    }

    // ---------------------------------------------------------------- SCSI Response (11.4), Data-In (11.7)

    /** Byte 2 of SCSI, TMF and Logout Responses: Response (11.4.2, 11.6.1, 11.15.1). */
    public int response() {
        return u8(2);
    }

    public Bhs response(int v) {
        u8(2, v);
        return this;
    }

    /** Byte 3 of a SCSI Response or a Data-In with S: the SCSI status (11.4.2). */
    public int status() {
        return u8(3);
    }

    public Bhs status(int v) {
        u8(3, v);
        return this;
    }

    /** SCSI Response byte 1: o, bidirectional read residual overflow (11.4.1). */
    public boolean bidiReadResidualOverflow() {
        return bit(1, 0x10);
    }

    public Bhs bidiReadResidualOverflow(boolean on) {
        return bit(1, 0x10, on);
    }

    /** SCSI Response byte 1: u, bidirectional read residual underflow (11.4.1). */
    public boolean bidiReadResidualUnderflow() {
        return bit(1, 0x08);
    }

    public Bhs bidiReadResidualUnderflow(boolean on) {
        return bit(1, 0x08, on);
    }

    /** SCSI Response and Data-In byte 1: O, residual overflow (11.4.1, 11.7.1). */
    public boolean residualOverflow() {
        return bit(1, 0x04);
    }

    public Bhs residualOverflow(boolean on) {
        return bit(1, 0x04, on);
    }

    /** SCSI Response and Data-In byte 1: U, residual underflow (11.4.1, 11.7.1). */
    public boolean residualUnderflow() {
        return bit(1, 0x02);
    }

    public Bhs residualUnderflow(boolean on) {
        return bit(1, 0x02, on);
    }

    /** Data-In byte 1: A, acknowledge requested (11.7.2). */
    public boolean acknowledge() {
        return bit(1, BIT_6);
    }

    public Bhs acknowledge(boolean on) {
        return bit(1, BIT_6, on);
    }

    /** Data-In byte 1: S, the PDU carries status (11.7.3). */
    public boolean statusPresent() {
        return bit(1, 0x01);
    }

    public Bhs statusPresent(boolean on) {
        return bit(1, 0x01, on);
    }

    /** Bytes 20-23: SNACK Tag of a SCSI Response (11.4.8) or a SNACK Request (11.16.4). */
    public int snackTag() {
        return u32(20);
    }

    public Bhs snackTag(int v) {
        u32(20, v);
        return this;
    }

    /** Bytes 40-43 of a SCSI Response: Bidirectional Read Residual Count (11.4.7). */
    public int bidiReadResidualCount() {
        return u32(40);
    }

    public Bhs bidiReadResidualCount(int v) {
        u32(40, v);
        return this;
    }

    /** Bytes 44-47 of a SCSI Response or Data-In: Residual Count (11.4.7, 11.7.4). */
    public int residualCount() {
        return u32(44);
    }

    public Bhs residualCount(int v) {
        u32(44, v);
        return this;
    }

    /** Bytes 40-43 of Data-In, Data-Out and R2T: Buffer Offset (11.7.6, 11.8.4). */
    public int bufferOffset() {
        return u32(40);
    }

    public Bhs bufferOffset(int v) {
        u32(40, v);
        return this;
    }

    // ---------------------------------------------------------------- Task management (11.5, 11.6)

    /** TMF Request byte 1 bits 1-7: Function (11.5.1). */
    public int function() {
        return u8(1) & 0x7f;
    }

    public Bhs function(int v) {
        u8(1, u8(1) & F_BIT | v & 0x7f);
        return this;
    }

    /** TMF Request bytes 20-23: Referenced Task Tag (11.5.2). */
    public int referencedTaskTag() {
        return u32(20);
    }

    public Bhs referencedTaskTag(int v) {
        u32(20, v);
        return this;
    }

    /** TMF Request bytes 32-35: RefCmdSN (11.5.3). */
    public int refCmdSn() {
        return u32(32);
    }

    public Bhs refCmdSn(int v) {
        u32(32, v);
        return this;
    }

    // ---------------------------------------------------------------- R2T (11.8)

    /** R2T bytes 44-47: Desired Data Transfer Length (11.8.5). */
    public int desiredDataTransferLength() {
        return u32(44);
    }

    public Bhs desiredDataTransferLength(int v) {
        u32(44, v);
        return this;
    }

    // ---------------------------------------------------------------- Asynchronous Message (11.9)

    /** Byte 36: AsyncEvent (11.9.1). */
    public int asyncEvent() {
        return u8(36);
    }

    public Bhs asyncEvent(int v) {
        u8(36, v);
        return this;
    }

    /** Byte 37: AsyncVCode (11.9.2). */
    public int asyncVCode() {
        return u8(37);
    }

    public Bhs asyncVCode(int v) {
        u8(37, v);
        return this;
    }

    /** Bytes 38-39, 40-41, 42-43: Parameter1..3 (11.9.1); {@code n} is 1, 2 or 3. */
    public int parameter(int n) {
        return u16(parameterOffset(n));
    }

    public Bhs parameter(int n, int v) {
        u16(parameterOffset(n), v);
        return this;
    }

    private static int parameterOffset(int n) {
        if (n < 1 || n > 3) {
            throw new IllegalArgumentException("EINVAL: Parameter" + n);
        }
        return 36 + 2 * n;
    }

    // ---------------------------------------------------------------- Text and Login (11.10-11.13)

    /** Text and Login byte 1 bit 1: C, continue (11.10.2, 11.12.2). */
    public boolean continueBit() {
        return bit(1, BIT_6);
    }

    public Bhs continueBit(boolean on) {
        return bit(1, BIT_6, on);
    }

    /** Login byte 1 bit 0: T, transit (11.12.1); the F bit's place. */
    public boolean transit() {
        return finalBit();
    }

    public Bhs transit(boolean on) {
        return finalBit(on);
    }

    /** Login byte 1 bits 4-5: CSG, the current stage (11.12.3). */
    public int csg() {
        return u8(1) >>> 2 & 3;
    }

    public Bhs csg(int stage) {
        u8(1, u8(1) & ~0x0c | (stage & 3) << 2);
        return this;
    }

    /** Login byte 1 bits 6-7: NSG, the next stage (11.12.3). */
    public int nsg() {
        return u8(1) & 3;
    }

    public Bhs nsg(int stage) {
        u8(1, u8(1) & ~0x03 | stage & 3);
        return this;
    }

    /** Login byte 2: Version-max (11.12.4, 11.13.1). */
    public int versionMax() {
        return u8(2);
    }

    public Bhs versionMax(int v) {
        u8(2, v);
        return this;
    }

    /** Login Request byte 3: Version-min (11.12.5). */
    public int versionMin() {
        return u8(3);
    }

    public Bhs versionMin(int v) {
        u8(3, v);
        return this;
    }

    /** Login Response byte 3: Version-active (11.13.2). */
    public int versionActive() {
        return u8(3);
    }

    public Bhs versionActive(int v) {
        u8(3, v);
        return this;
    }

    /** Login bytes 8-13: ISID (11.12.6), the 48 bits as a long. */
    public long isid() {
        return (long) u16(8) << 32 | u32(10) & 0xffffffffL;
    }

    public Bhs isid(long v) {
        u16(8, (int) (v >>> 32));
        u32(10, (int) v);
        return this;
    }

    /** Login bytes 14-15: TSIH (11.12.7). */
    public int tsih() {
        return u16(14);
    }

    public Bhs tsih(int v) {
        u16(14, v);
        return this;
    }

    /** Login and Logout Request bytes 20-21: CID (11.12.8, 11.14.2). */
    public int cid() {
        return u16(20);
    }

    public Bhs cid(int v) {
        u16(20, v);
        return this;
    }

    /** Login Response byte 36: Status-Class (11.13.5). */
    public int statusClass() {
        return u8(36);
    }

    public Bhs statusClass(int v) {
        u8(36, v);
        return this;
    }

    /** Login Response byte 37: Status-Detail (11.13.5). */
    public int statusDetail() {
        return u8(37);
    }

    public Bhs statusDetail(int v) {
        u8(37, v);
        return this;
    }

    // ---------------------------------------------------------------- Logout (11.14, 11.15)

    /** Logout Request byte 1 bits 1-7: Reason Code (11.14.1). */
    public int reasonCode() {
        return u8(1) & 0x7f;
    }

    public Bhs reasonCode(int v) {
        u8(1, u8(1) & F_BIT | v & 0x7f);
        return this;
    }

    /** Logout Response bytes 40-41: Time2Wait in seconds (11.15.2). */
    public int time2Wait() {
        return u16(40);
    }

    public Bhs time2Wait(int v) {
        u16(40, v);
        return this;
    }

    /** Logout Response bytes 42-43: Time2Retain in seconds (11.15.3). */
    public int time2Retain() {
        return u16(42);
    }

    public Bhs time2Retain(int v) {
        u16(42, v);
        return this;
    }

    // ---------------------------------------------------------------- SNACK (11.16), Reject (11.17)

    /** SNACK byte 1 bits 4-7: Type (11.16.1). */
    public int snackType() {
        return u8(1) & 0x0f;
    }

    public Bhs snackType(int v) {
        u8(1, u8(1) & ~0x0f | v & 0x0f);
        return this;
    }

    /** SNACK bytes 40-43: BegRun (11.16.6). */
    public int begRun() {
        return u32(40);
    }

    public Bhs begRun(int v) {
        u32(40, v);
        return this;
    }

    /** SNACK bytes 44-47: RunLength (11.16.7). */
    public int runLength() {
        return u32(44);
    }

    public Bhs runLength(int v) {
        u32(44, v);
        return this;
    }

    /** Reject byte 2: Reason (11.17.1). */
    public int reason() {
        return u8(2);
    }

    public Bhs reason(int v) {
        u8(2, v);
        return this;
    }

    @Override
    public String toString() {
        Opcode op = opcode();
        return String.format("%s itt 0x%08x flags 0x%02x ahs %d dlen %d",
                op == null ? String.format("opcode 0x%02x", opcodeCode()) : op, itt(), flags(),
                totalAhsLength() * 4, dataSegmentLength());
    }
}
