package org.rdma.mad;

import java.util.Arrays;
import org.rdma.verbs.Wc;
import org.rdma.verbs.wire.MadHdr;

/**
 * A received MAD: {@code struct ib_mad_recv_wc}. For an RMPP transfer, {@link #mad()} is the
 * reassembled message: the first segment's headers followed by the data of every segment.
 */
public final class MadRecvWc {
    private final Wc wc;
    private final byte[] grh;
    private final byte[] mad;
    private final int madLen;

    /**
     * @param wc     the completion of the (last) segment; copied
     * @param grh    the 40-byte GRH area if {@code WcFlags.GRH} is set, else {@code null}
     * @param mad    the message bytes
     * @param madLen {@code mad_len}: valid bytes of {@code mad}
     */
    public MadRecvWc(Wc wc, byte[] grh, byte[] mad, int madLen) {
        this.wc = new Wc();
        this.wc.copyFrom(wc);
        this.grh = grh;
        this.mad = mad;
        this.madLen = madLen;
    }

    /** {@code mad_recv_wc->wc}. */
    public Wc wc() {
        return wc;
    }

    /** The GRH received in front of the MAD, or {@code null}. */
    public byte[] grh() {
        return grh;
    }

    /** {@code mad_recv_wc->recv_buf.mad}, all segments joined. */
    public byte[] mad() {
        return mad;
    }

    /** {@code mad_recv_wc->mad_len}. */
    public int madLen() {
        return madLen;
    }

    /** The common MAD header, unpacked. */
    public MadHdr hdr() {
        return new MadHdr().unpack(mad, 0);
    }

    /** A copy of the message bytes {@code [0, madLen)}. */
    public byte[] bytes() {
        return Arrays.copyOf(mad, madLen);
    }
}
