package org.rdma.cm.internal.ib.msg;

import java.util.Arrays;
import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;
import org.rdma.cm.ib.IbCm;
import org.rdma.verbs.Gid;
import org.rdma.verbs.wire.IbCodec;
import org.rdma.verbs.wire.IbField;
import org.rdma.verbs.wire.MadAttribute;
import org.rdma.verbs.wire.MadHdr;

/**
 * A communication management message (IBTA vol. 1, 12.6): the 232-byte data area of a CM MAD,
 * after the common MAD header. Each subclass is a plain holder with a field table in the
 * byte/bit coordinates of the IBTA message tables, packed with its {@link IbCodec}; bits no
 * field covers are reserved and packed as zeros.
 *
 * @param <T> the message type
 */
public abstract class CmMsg<T extends CmMsg<T>> implements MadAttribute {
    /** Offset of the message in the MAD ({@code IB_MGMT_MAD_HDR}). */
    public static final int OFFSET = MadHdr.IB_MGMT_MAD_HDR;
    /** Length of every CM message ({@code IB_MGMT_MAD_DATA}). */
    public static final int BYTES = MadHdr.IB_MGMT_MAD_DATA;
    /** {@code CM_MSG_RESPONSE_REQ}: MessageRejected/MessageMRAed names a REQ. */
    public static final int MSG_RESPONSE_REQ = 0;
    /** {@code CM_MSG_RESPONSE_REP}: ... a REP. */
    public static final int MSG_RESPONSE_REP = 1;
    /** {@code CM_MSG_RESPONSE_OTHER}: ... another message (a LAP for MRA). */
    public static final int MSG_RESPONSE_OTHER = 2;

    /**
     * Packs the fields with the message's codec ({@code CODEC.pack(this, buf, off)}). In each
     * message class, not here: there its {@code static final} codec is a constant the JIT
     * compiles into the method.
     */
    protected abstract void packFields(byte[] buf, int off);

    /** Unpacks the fields with the message's codec ({@code CODEC.unpack(buf, off, this)}). */
    protected abstract void unpackFields(byte[] buf, int off);

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    @Override
    public final int byteLength() {
        return BYTES;
    }

    @Override
    public final int pack(byte[] buf, int off) {
        Arrays.fill(buf, off, off + BYTES, (byte) 0);
        packFields(buf, off);
        return BYTES;
    }

    /** Reads the message from {@code buf} at {@code off}. */
    public final T unpack(byte[] buf, int off) {
        unpackFields(buf, off);
        return self();
    }

    /** Reads the message from a whole MAD. */
    public final T fromMad(byte[] mad) {
        return unpack(mad, OFFSET);
    }

    /**
     * Writes a whole CM MAD: the common header ({@code cm_format_mad_hdr()}: base version 1,
     * class CM, class version 2, method Send) and this message.
     */
    public final void toMad(byte[] mad, long tid) {
        Arrays.fill(mad, 0, OFFSET, (byte) 0);
        MadHdr.of(MadHdr.IB_MGMT_CLASS_CM, IbCm.CLASS_VERSION, MadHdr.IB_MGMT_METHOD_SEND, attrId(), 0, tid)
                .pack(mad, 0);
        pack(mad, OFFSET);
    }

    /** A value field at byte {@code byteOff}, bit {@code bitOff} (0 = most significant) of the message. */
    protected static <T> IbField<T> at(String name, int byteOff, int bitOff, int bits, ToLongFunction<? super T> get,
            ObjLongConsumer<? super T> set) {
        int abs = byteOff * 8 + bitOff;
        return IbField.of(name, abs / 32, abs % 32, bits, get, set);
    }

    /** A 128-bit GID field at byte {@code byteOff}. */
    protected static <T> IbField<T> gid(String name, int byteOff, java.util.function.Function<? super T, Gid> get,
            java.util.function.BiConsumer<? super T, Gid> set) {
        return IbField.gid(name, byteOff / 4, (byteOff % 4) * 8, get, set);
    }

    /** A byte-string field of {@code len} bytes at byte {@code byteOff}. */
    protected static <T> IbField<T> data(String name, int byteOff, int len,
            java.util.function.Function<? super T, byte[]> get, java.util.function.BiConsumer<? super T, byte[]> set) {
        return IbField.bytes(name, byteOff / 4, (byteOff % 4) * 8, len * 8, get, set);
    }

    /** {@code src} copied into a zeroed area of {@code len} bytes; {@code null} gives zeros. */
    public static byte[] area(byte[] src, int len) {
        byte[] a = new byte[len];
        if (src != null) {
            System.arraycopy(src, 0, a, 0, Math.min(src.length, len));
        }
        return a;
    }

    /** An unsigned 32-bit wire value. */
    protected static long u32(int v) {
        return v & 0xFFFF_FFFFL;
    }
}
