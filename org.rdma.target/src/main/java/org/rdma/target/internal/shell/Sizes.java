package org.rdma.target.internal.shell;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import org.rdma.target.fabric.TargetException;

/** targetcli's size syntax ({@code 1G}, {@code 64M}, {@code 512}) and its human-readable sizes. */
final class Sizes {
    private Sizes() {
    }

    /**
     * targetcli's {@code human_to_bytes()}: digits, then an optional k, m, g or t (powers of 1024),
     * then an optional b, any case, an 'i' ignored ({@code 1GiB}).
     *
     * @throws TargetException {@code EINVAL} naming the size
     */
    static long parse(String human) {
        String s = human.replace("i", "").replace("I", "").toLowerCase(Locale.ROOT);
        if (!s.matches("[0-9]+[kmgt]?b?")) {
            throw new TargetException("EINVAL", "Cannot interpret size, wrong format: " + human);
        }
        if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        int power = "kmgt".indexOf(s.charAt(s.length() - 1)) + 1;
        String digits = power > 0 ? s.substring(0, s.length() - 1) : s;
        try {
            return Math.multiplyExact(Long.parseLong(digits), 1L << (10 * power));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new TargetException("EINVAL", "size " + human + " is too large");
        }
    }

    /**
     * targetcli's {@code bytes_to_human()}: {@code N bytes} below 1 KiB, else one decimal and the
     * unit ({@code 1.0GiB}), rounded as Python's {@code %3.1f} rounds the exact binary value.
     */
    static String human(long size) {
        if (size < 1024) {
            return size + " bytes";
        }
        BigDecimal v = new BigDecimal(size).divide(BigDecimal.valueOf(1024));
        for (String unit : new String[] {"KiB", "MiB", "GiB", "TiB", "PiB"}) {
            if (v.compareTo(BigDecimal.valueOf(1024)) < 0) {
                return v.setScale(1, RoundingMode.HALF_EVEN).toPlainString() + unit;
            }
            v = v.divide(BigDecimal.valueOf(1024));
        }
        return v.setScale(1, RoundingMode.HALF_EVEN).toPlainString() + "EiB";
    }
}
