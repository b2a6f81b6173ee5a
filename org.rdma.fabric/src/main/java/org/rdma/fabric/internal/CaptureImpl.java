package org.rdma.fabric.internal;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.fabric.Capture;
import org.rdma.fabric.Packet;
import org.rdma.verbs.time.IbClock;

/**
 * A pcap writer (libpcap's savefile format, microsecond timestamps, little-endian). InfiniBand
 * packets go into LINKTYPE_ERF (197) files as ERF records of type 21 (InfiniBand), the way
 * Mellanox's {@code ibdump} writes them: the 16-byte ERF header ({@code erf_record}: 64-bit
 * little-endian fixed-point timestamp, type, flags with the capture interface in bits 0-1 and
 * "varying length" 0x04, big-endian rlen = 16 + packet, lctr 0, big-endian wlen = packet)
 * followed by the packet from the first LRH byte through the VCRC. Ethernet frames go into
 * LINKTYPE_ETHERNET (1) files without FCS.
 *
 * <p>Records are written under the capture's monitor into a buffered stream; nothing is
 * allocated per packet. Timestamps are the fabric clock's time added to the wall-clock time at
 * which the capture started.
 */
final class CaptureImpl implements Capture {
    private static final Logger LOG = Logger.getLogger(CaptureImpl.class.getName());

    /** LINKTYPE_ETHERNET. */
    static final int LINKTYPE_ETHERNET = 1;
    /** LINKTYPE_ERF: Endace ERF records. */
    static final int LINKTYPE_ERF = 197;
    /** ERF_TYPE_INFINIBAND. */
    static final int ERF_TYPE_INFINIBAND = 21;
    /** ERF flags: varying record length (no padding to 8 bytes). */
    static final int ERF_FLAG_VLEN = 0x04;
    static final int ERF_HEADER = 16;

    private final Path file;
    private final boolean erf;
    private final IbClock clock;
    private final Consumer<CaptureImpl> onClose;
    private final long baseMicros;
    private final long baseNanos;
    private final byte[] scratch = new byte[16 + ERF_HEADER];
    private OutputStream out;
    private long packets;

    CaptureImpl(Path file, boolean infiniband, IbClock clock, Consumer<CaptureImpl> onClose) throws IOException {
        this.file = file;
        this.erf = infiniband;
        this.clock = clock;
        this.onClose = onClose;
        this.baseMicros = System.currentTimeMillis() * 1000;
        this.baseNanos = clock.nanoTime();
        this.out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        byte[] h = new byte[24];
        putLe32(h, 0, 0xA1B2C3D4);
        putLe16(h, 4, 2);
        putLe16(h, 6, 4);
        putLe32(h, 8, 0);
        putLe32(h, 12, 0);
        putLe32(h, 16, 65535);
        putLe32(h, 20, infiniband ? LINKTYPE_ERF : LINKTYPE_ETHERNET);
        out.write(h);
    }

    /**
     * Writes one packet, materializing it.
     *
     * @param iface the ERF capture interface (the link direction), 0..3
     * @param p     the packet
     */
    void record(int iface, Packet p) {
        int len = p.materialize();
        synchronized (this) {
            if (out == null) {
                return;
            }
            long micros = baseMicros + (clock.nanoTime() - baseNanos) / 1000;
            long sec = micros / 1_000_000;
            long usec = micros % 1_000_000;
            byte[] s = scratch;
            int incl = erf ? len + ERF_HEADER : len;
            putLe32(s, 0, (int) sec);
            putLe32(s, 4, (int) usec);
            putLe32(s, 8, incl);
            putLe32(s, 12, incl);
            int n = 16;
            if (erf) {
                long frac = (usec << 32) / 1_000_000;
                long ts = sec << 32 | frac;
                for (int i = 0; i < 8; i++) {
                    s[16 + i] = (byte) (ts >>> (8 * i));
                }
                s[24] = (byte) ERF_TYPE_INFINIBAND;
                s[25] = (byte) (ERF_FLAG_VLEN | (iface & 3));
                putBe16(s, 26, len + ERF_HEADER);
                putBe16(s, 28, 0);
                putBe16(s, 30, len);
                n += ERF_HEADER;
            }
            try {
                out.write(s, 0, n);
                out.write(p.frame(), 0, len);
                packets++;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "capture to " + file + " failed; stopping it", e);
                closeQuietly();
            }
        }
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public synchronized long packets() {
        return packets;
    }

    @Override
    public synchronized boolean isOpen() {
        return out != null;
    }

    @Override
    public void close() {
        boolean was;
        synchronized (this) {
            was = out != null;
            closeQuietly();
        }
        if (was) {
            onClose.accept(this);
        }
    }

    private void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "closing capture " + file, e);
            }
            out = null;
        }
    }

    private static void putLe32(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }

    private static void putLe16(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
    }

    private static void putBe16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    @Override
    public String toString() {
        return "Capture{" + file + ", " + packets() + " packets}";
    }
}
