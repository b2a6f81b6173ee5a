package org.rdma.rvt.internal.wire;

import java.util.concurrent.TimeUnit;

/**
 * The AETH syndrome (IBTA 9.7.5.1.4): ACK with a credit count, RNR NAK with a timer code, or NAK
 * with an error code; the credit count encoding ({@code rvt_compute_aeth()},
 * {@code rvt_get_credit()}); the RNR timer table (IBTA table 45) and the local ACK timeout.
 */
public final class Aeth {
    private Aeth() {
    }

    /** Syndrome type bits: ACK. */
    public static final int TYPE_ACK = 0x00;
    /** Syndrome type bits: RNR NAK. */
    public static final int TYPE_RNR = 0x20;
    /** Syndrome type bits: NAK. */
    public static final int TYPE_NAK = 0x60;
    /** Mask of the syndrome type. */
    public static final int TYPE_MASK = 0x60;
    /** NAK code: PSN sequence error. */
    public static final int NAK_PSN_SEQ = 0x60;
    /** NAK code: invalid request. */
    public static final int NAK_INVALID_REQ = 0x61;
    /** NAK code: remote access error. */
    public static final int NAK_REM_ACCESS = 0x62;
    /** NAK code: remote operational error. */
    public static final int NAK_REM_OP = 0x63;
    /** NAK code: invalid RD request. */
    public static final int NAK_INV_RD_REQ = 0x64;
    /** The credit code meaning "no credit information" (SRQ responders). */
    public static final int CREDIT_INVALID = 0x1f;

    /** Credits for each AETH credit code. */
    private static final int[] CREDITS = {
        0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
        1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
    };

    /** RNR NAK timer values in microseconds for timer codes 0..31 (code 0 is the longest). */
    private static final int[] RNR_USEC = {
        655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
        2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880,
        163840, 245760, 327680, 491520,
    };

    /** The AETH word: syndrome byte and 24-bit MSN. */
    public static int make(int syndrome, int msn) {
        return (syndrome & 0xff) << 24 | (msn & 0xffffff);
    }

    /** The syndrome byte of an AETH word. */
    public static int syndrome(int aeth) {
        return aeth >>> 24;
    }

    /** The MSN of an AETH word. */
    public static int msn(int aeth) {
        return aeth & 0xffffff;
    }

    /**
     * The largest credit code whose credit count does not exceed {@code available} receive WQEs
     * (the binary search of {@code rvt_compute_aeth()}).
     */
    public static int creditCode(int available) {
        int lo = 0;
        int hi = CREDITS.length - 1;
        if (available >= CREDITS[hi]) {
            return hi;
        }
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (CREDITS[mid] <= available) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The number of credits a code stands for; -1 for {@link #CREDIT_INVALID}. */
    public static int credits(int code) {
        return code >= CREDITS.length ? -1 : CREDITS[code];
    }

    /** An ACK syndrome carrying a credit code. */
    public static int ackSyndrome(int creditCode) {
        return TYPE_ACK | (creditCode & 0x1f);
    }

    /** An RNR NAK syndrome carrying a timer code. */
    public static int rnrSyndrome(int timerCode) {
        return TYPE_RNR | (timerCode & 0x1f);
    }

    /** The syndrome type ({@link #TYPE_ACK}, {@link #TYPE_RNR}, {@link #TYPE_NAK}). */
    public static int type(int syndrome) {
        return syndrome & TYPE_MASK;
    }

    /** The low five bits: credit code, RNR timer code or NAK code. */
    public static int value(int syndrome) {
        return syndrome & 0x1f;
    }

    /** The RNR timer of a timer code, in nanoseconds. */
    public static long rnrNanos(int timerCode) {
        return TimeUnit.MICROSECONDS.toNanos(RNR_USEC[timerCode & 0x1f]);
    }

    /** The local ACK timeout 4.096 us * 2^timeout in nanoseconds; 0 (infinite) for timeout 0. */
    public static long ackTimeoutNanos(int timeout) {
        if (timeout == 0) {
            return 0;
        }
        return 4096L << Math.min(timeout, 31);
    }
}
