package org.rdma.target.internal.pr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The persistent reservation state that APTPL keeps (SPC-4 5.12.5): the registrations and the
 * reservation. Its text form, one line each, is what a {@link PrStore} stores:
 *
 * <pre>
 * pr_state 1
 * registration key=0x0123456789abcdef initiator=iqn.1994-05.com.example:h1 isid=023d00000001 port=iqn.2003-01.org.example:t1,t,0x0001 all_tg_pt=0
 * reservation holder=0 type=0x1
 * </pre>
 *
 * {@code isid=-} stands for a registration without an ISID; {@code holder} is the index of the
 * holder's registration.
 *
 * @param registrations in the order they were made (READ KEYS lists them so)
 * @param reservation the persistent reservation, or null
 */
public record PrState(List<Registration> registrations, Reservation reservation) {
    /** No registration, no reservation. */
    public static final PrState EMPTY = new PrState(List.of(), null);
    /** The most registrations a device keeps (beyond them: INSUFFICIENT REGISTRATION RESOURCES). */
    public static final int MAX_REGISTRATIONS = 1024;
    private static final String HEADER = "pr_state 1";

    /**
     * A registered reservation key (LIO's {@code t10_pr_registration}).
     *
     * @param allTgPt registered through every target port (ALL_TG_PT), not only {@code nexus}'s
     */
    public record Registration(long key, ItNexus nexus, boolean allTgPt) {
        /** Whether this registration is that of I_T nexus {@code n}. */
        public boolean covers(ItNexus n) {
            return nexus.initiatorName().equals(n.initiatorName()) && (nexus.isid() == null || nexus.isid().equals(n.isid()))
                    && (allTgPt || nexus.targetPortName().equals(n.targetPortName()));
        }

        Registration withKey(long k) {
            return new Registration(k, nexus, allTgPt);
        }
    }

    /**
     * The persistent reservation (scope LU, the only one SPC-4 keeps).
     *
     * @param holder the nexus of the holder's registration; for all registrants types, any one of them
     */
    public record Reservation(ItNexus holder, PrType type) {
    }

    public PrState {
        registrations = List.copyOf(registrations);
        if (reservation != null && registrations.stream().noneMatch(r -> r.nexus().equals(reservation.holder()))) {
            throw new IllegalArgumentException("EINVAL: reservation holder " + reservation.holder() + " is not registered");
        }
    }

    /** The text form (see the class comment). */
    public String encode() {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        for (Registration r : registrations) {
            ItNexus n = r.nexus();
            s.append("registration key=0x").append(HexFormat.of().toHexDigits(r.key())).append(" initiator=")
                    .append(n.initiatorName()).append(" isid=").append(n.isid() == null ? "-" : n.isid()).append(" port=")
                    .append(n.targetPortName()).append(" all_tg_pt=").append(r.allTgPt() ? 1 : 0).append('\n');
        }
        if (reservation != null) {
            int holder = registrations.stream().map(Registration::nexus).toList().indexOf(reservation.holder());
            s.append("reservation holder=").append(holder).append(" type=0x")
                    .append(Integer.toHexString(reservation.type().code())).append('\n');
        }
        return s.toString();
    }

    /**
     * Reads the text form.
     *
     * @throws IllegalArgumentException {@code EINVAL} naming the line for anything else: another
     *         header, an unknown line or field, a zero or malformed key, an ISID that is not 12 hex
     *         digits, a value with white space, a repeated nexus, more than
     *         {@link #MAX_REGISTRATIONS}, or a reservation naming no registration or no type
     */
    public static PrState parse(String text) {
        String[] lines = text.split("\n", -1);
        if (!lines[0].strip().equals(HEADER)) {
            throw new IllegalArgumentException("EINVAL: persistent reservation state does not start with '" + HEADER + "'");
        }
        List<Registration> regs = new ArrayList<>();
        Set<ItNexus> seen = new HashSet<>();
        Reservation res = null;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(" +");
            int lineNo = i + 1;
            switch (f[0]) {
                case "registration" -> {
                    if (f.length != 6 || regs.size() == MAX_REGISTRATIONS) {
                        throw bad(lineNo, line);
                    }
                    long key = hexLong(value(f[1], "key", lineNo), lineNo);
                    String isid = value(f[3], "isid", lineNo);
                    if (key == 0 || !isid.equals("-") && (isid.length() != 12 || !isid.chars().allMatch(HexFormat::isHexDigit))) {
                        throw bad(lineNo, line);
                    }
                    ItNexus n = new ItNexus(value(f[2], "initiator", lineNo), isid.equals("-") ? null : isid.toLowerCase(java.util.Locale.ROOT),
                            value(f[4], "port", lineNo));
                    String all = value(f[5], "all_tg_pt", lineNo);
                    if (!all.equals("0") && !all.equals("1") || !seen.add(n)) {
                        throw bad(lineNo, line);
                    }
                    regs.add(new Registration(key, n, all.equals("1")));
                }
                case "reservation" -> {
                    if (f.length != 3 || res != null) {
                        throw bad(lineNo, line);
                    }
                    String h = value(f[1], "holder", lineNo);
                    PrType type = PrType.of((int) Math.min(hexLong(value(f[2], "type", lineNo), lineNo), 0xFF));
                    if (!h.matches("\\d{1,5}") || type == null || Integer.parseInt(h) >= regs.size()) {
                        throw bad(lineNo, line);
                    }
                    res = new Reservation(regs.get(Integer.parseInt(h)).nexus(), type);
                }
                default -> throw bad(lineNo, line);
            }
        }
        return new PrState(regs, res);
    }

    private static String value(String field, String name, int lineNo) {
        if (!field.startsWith(name + "=") || field.length() == name.length() + 1) {
            throw new IllegalArgumentException("EINVAL: line " + lineNo + ": expected " + name + "=VALUE, not '" + field + "'");
        }
        return field.substring(name.length() + 1);
    }

    private static long hexLong(String v, int lineNo) {
        if (!v.startsWith("0x") || v.length() < 3 || v.length() > 18 || !v.substring(2).chars().allMatch(HexFormat::isHexDigit)) {
            throw new IllegalArgumentException("EINVAL: line " + lineNo + ": '" + v + "' is not 0x and 1 to 16 hex digits");
        }
        return Long.parseUnsignedLong(v.substring(2), 16);
    }

    private static IllegalArgumentException bad(int lineNo, String line) {
        return new IllegalArgumentException("EINVAL: line " + lineNo + " of the persistent reservation state: '" + line + "'");
    }
}
