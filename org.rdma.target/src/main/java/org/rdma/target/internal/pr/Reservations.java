package org.rdma.target.internal.pr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.scsi.ScsiException;
import org.rdma.scsi.ScsiStatus;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.internal.pr.PrState.Registration;
import org.rdma.target.internal.pr.PrState.Reservation;

/**
 * The reservations of one device (LIO's {@code t10_reservation} and target_core_pr.c): an SPC-2
 * reservation held by one I_T nexus, or persistent reservations (SPC-4 5.12) with their
 * registrations, reservation and PRgeneration; never both, as SPC-4 5.12.3's compatible
 * reservation handling (CRH) keeps them apart.
 *
 * <p>A PERSISTENT RESERVE OUT works on a copy of the state; only when it succeeds, and, with
 * APTPL active, the {@link PrStore} has the result, does the copy become the state and do its
 * unit attentions go out. So a command that fails changes nothing, and nothing is acknowledged
 * that a restart would forget.
 */
public final class Reservations {
    /** The most bytes a PERSISTENT RESERVE OUT parameter list may have: the header and room for 256 TransportIDs. */
    public static final int MAX_PARAMETER_LIST = 28 + 256 * 256;

    private final PrStore store;
    // Guarded by this.
    private PrState state;
    private boolean aptpl;
    private int generation;
    private ItNexus spc2Holder;

    /**
     * The reservations of a device whose store may hold state from before a restart (restored
     * with APTPL active).
     *
     * @throws IOException when the store cannot be read
     */
    public Reservations(PrStore store) throws IOException {
        this.store = store;
        var saved = store.load();
        this.state = saved.orElse(PrState.EMPTY);
        this.aptpl = saved.isPresent();
    }

    /** The current registrations and reservation. */
    public synchronized PrState state() {
        return state;
    }

    /** PRgeneration (SPC-4 6.15.2). */
    public synchronized int generation() {
        return generation;
    }

    /** The holder of the SPC-2 reservation, or null. */
    public synchronized ItNexus spc2Holder() {
        return spc2Holder;
    }

    private static ScsiException conflict() {
        return new ScsiException(ScsiStatus.RESERVATION_CONFLICT);
    }

    private static Registration find(List<Registration> regs, ItNexus n) {
        for (Registration r : regs) {
            if (r.covers(n)) {
                return r;
            }
        }
        return null;
    }

    private static boolean isHolder(List<Registration> regs, Reservation res, ItNexus n) {
        Registration r = find(regs, n);
        return res != null && r != null && (res.type().allRegistrants() || r.nexus().equals(res.holder()));
    }

    /**
     * Whether a command of I_T nexus {@code n} conflicts with the reservations (LIO's
     * {@code target_check_reservation()}): with another nexus's SPC-2 reservation everything but
     * INQUIRY, REPORT LUNS, REQUEST SENSE and RELEASE; PERSISTENT RESERVE IN/OUT with any SPC-2
     * reservation; with a persistent reservation of which {@code n} is not a holder, SPC-4 table 53
     * (a registered nexus has full access under registrants only and all registrants types; reads
     * pass write exclusive types).
     */
    public synchronized boolean conflicts(ItNexus n, Access a) {
        if (spc2Holder != null) {
            return a == Access.PERSISTENT || !spc2Holder.equals(n) && a != Access.UNRESERVED && a != Access.RESERVE_RELEASE;
        }
        Reservation res = state.reservation();
        if (res == null || isHolder(state.registrations(), res, n)) {
            return false;
        }
        return switch (a) {
            case READ -> !res.type().writeExclusive() && !(res.type().registrantsHaveAccess() && find(state.registrations(), n) != null);
            case WRITE -> !(res.type().registrantsHaveAccess() && find(state.registrations(), n) != null);
            default -> false;
        };
    }

    /**
     * The SPC-2 exceptions of SPC-4 5.12.3 (LIO's {@code target_check_scsi2_reservation_conflict()}):
     * true when RESERVE/RELEASE is to complete with GOOD status and do nothing (the nexus holds
     * the persistent reservation, or is registered under a registrants only or all registrants
     * type).
     *
     * @throws ScsiException RESERVATION CONFLICT when persistent registrations exist otherwise
     */
    private boolean spc2Bypassed(ItNexus n) throws ScsiException {
        Registration r = find(state.registrations(), n);
        Reservation res = state.reservation();
        if (r != null && res != null && (isHolder(state.registrations(), res, n) || res.type().registrantsHaveAccess())) {
            return true;
        }
        if (!state.registrations().isEmpty()) {
            throw conflict();
        }
        return false;
    }

    /** RESERVE(6)/(10) (SPC-2 7.21; LIO's {@code target_scsi2_reservation_reserve()}). */
    public synchronized void reserve(ItNexus n) throws ScsiException {
        if (spc2Bypassed(n)) {
            return;
        }
        if (spc2Holder != null && !spc2Holder.equals(n)) {
            throw conflict();
        }
        spc2Holder = n;
    }

    /** RELEASE(6)/(10) (SPC-2 7.19): only the holder's releases; anyone's answers GOOD. */
    public synchronized void release(ItNexus n) throws ScsiException {
        if (!spc2Bypassed(n) && n.equals(spc2Holder)) {
            spc2Holder = null;
        }
    }

    /** A logical unit reset releases the SPC-2 reservation (SPC-2 5.5.1); persistent ones stay. */
    public synchronized void logicalUnitReset() {
        spc2Holder = null;
    }

    /** An I_T nexus was lost (SAM-5 6.3.4): it loses its SPC-2 reservation; registrations stay. */
    public synchronized void nexusLoss(ItNexus n) {
        if (n.equals(spc2Holder)) {
            spc2Holder = null;
        }
    }

    // ---- PERSISTENT RESERVE IN (SPC-4 6.15) -----------------------------------------------------

    /**
     * The parameter data of a PERSISTENT RESERVE IN service action, whole (the caller cuts it
     * to the allocation length; the ADDITIONAL LENGTH fields keep the whole length).
     *
     * @throws ScsiException RESERVATION CONFLICT while an SPC-2 reservation exists
     */
    public synchronized byte[] in(int serviceAction, PrContext ctx) throws ScsiException {
        if (spc2Holder != null) {
            throw conflict();
        }
        return switch (serviceAction) {
            case Opcode.PRI_READ_KEYS -> readKeys();
            case Opcode.PRI_READ_RESERVATION -> readReservation();
            case Opcode.PRI_REPORT_CAPABILITIES -> reportCapabilities();
            case Opcode.PRI_READ_FULL_STATUS -> readFullStatus(ctx);
            default -> throw new ScsiException(Sense.invalidFieldInCdb(1, 4));
        };
    }

    /** READ KEYS (6.15.2, table 192): PRGENERATION, ADDITIONAL LENGTH, the keys in registration order. */
    private byte[] readKeys() {
        List<Registration> regs = state.registrations();
        byte[] b = new byte[8 + 8 * regs.size()];
        Cdb.put(b, 0, generation & 0xFFFF_FFFFL, 4);
        Cdb.put(b, 4, 8L * regs.size(), 4);
        for (int i = 0; i < regs.size(); i++) {
            Cdb.put(b, 8 + 8 * i, regs.get(i).key(), 8);
        }
        return b;
    }

    /**
     * READ RESERVATION (6.15.3, tables 193 and 194): with a reservation, its key (zero for the all
     * registrants types, SPC-4 5.12.10) and SCOPE/TYPE.
     */
    private byte[] readReservation() {
        Reservation res = state.reservation();
        byte[] b = new byte[res == null ? 8 : 24];
        Cdb.put(b, 0, generation & 0xFFFF_FFFFL, 4);
        if (res != null) {
            Cdb.put(b, 4, 16, 4);
            Cdb.put(b, 8, res.type().allRegistrants() ? 0 : find(state.registrations(), res.holder()).key(), 8);
            b[21] = (byte) res.type().code();
        }
        return b;
    }

    /**
     * REPORT CAPABILITIES (6.15.4, table 195): CRH, SIP_C and ATP_C; PTPL_C when a store keeps
     * state, PTPL_A when APTPL is active; ALLOW COMMANDS 001b (TEST UNIT READY passes write
     * exclusive and exclusive access types); TMV with every type in the mask.
     */
    private byte[] reportCapabilities() {
        byte[] b = new byte[8];
        b[1] = 8;
        b[2] = (byte) (0x10 | 0x08 | 0x04 | (store.persistent() ? 0x01 : 0));
        b[3] = (byte) (0x80 | 0x10 | (aptpl ? 0x01 : 0));
        b[4] = (byte) 0xEA; // WR_EX_AR, EX_AC_RO, WR_EX_RO, EX_AC, WR_EX
        b[5] = 0x01; // EX_AC_AR
        return b;
    }

    /**
     * READ FULL STATUS (6.15.5, tables 196 and 197): per registration its key, ALL_TG_PT, R_HOLDER
     * with SCOPE/TYPE for a holder (every registrant under an all registrants type), the relative
     * target port identifier (zero with ALL_TG_PT, where SPC-4 leaves it undefined) and the
     * initiator's TransportID.
     */
    private byte[] readFullStatus(PrContext ctx) {
        List<byte[]> descriptors = new ArrayList<>();
        Reservation res = state.reservation();
        int total = 0;
        for (Registration r : state.registrations()) {
            byte[] tid = TransportId.encode(r.nexus().initiatorName(), r.nexus().isid());
            byte[] d = new byte[24 + tid.length];
            Cdb.put(d, 0, r.key(), 8);
            boolean holder = res != null && (res.type().allRegistrants() || res.holder().equals(r.nexus()));
            d[12] = (byte) ((r.allTgPt() ? 0x02 : 0) | (holder ? 0x01 : 0));
            if (holder) {
                d[13] = (byte) res.type().code();
            }
            if (!r.allTgPt()) {
                Cdb.put(d, 18, ctx.relativePortId(r.nexus().targetPortName()), 2);
            }
            Cdb.put(d, 20, tid.length, 4);
            System.arraycopy(tid, 0, d, 24, tid.length);
            descriptors.add(d);
            total += d.length;
        }
        byte[] b = new byte[8 + total];
        Cdb.put(b, 0, generation & 0xFFFF_FFFFL, 4);
        Cdb.put(b, 4, total, 4);
        int off = 8;
        for (byte[] d : descriptors) {
            System.arraycopy(d, 0, b, off, d.length);
            off += d.length;
        }
        return b;
    }

    // ---- PERSISTENT RESERVE OUT (SPC-4 6.16) ----------------------------------------------------

    /** A unit attention to establish once the command succeeded. */
    private record Ua(Predicate<ItNexus> who, Asc asc) {
    }

    /** The working copy of one PERSISTENT RESERVE OUT. */
    private final class Txn {
        final ItNexus me;
        final PrContext ctx;
        final List<Registration> regs = new ArrayList<>(state.registrations());
        Reservation res = state.reservation();
        boolean aptplAfter = aptpl;
        boolean changed;
        boolean bump;
        final List<Ua> uas = new ArrayList<>();
        Predicate<ItNexus> abort;

        Txn(ItNexus me, PrContext ctx) {
            this.me = me;
            this.ctx = ctx;
        }

        Registration mine() {
            return find(regs, me);
        }

        /** A unit attention for every nexus of these registrations but the one asking. */
        void notify(List<Registration> whose, Asc asc) {
            List<Registration> copy = List.copyOf(whose);
            if (!copy.isEmpty()) {
                uas.add(new Ua(n -> !n.equals(me) && copy.stream().anyMatch(r -> r.covers(n)), asc));
            }
        }

        void replace(Registration old, Registration now) {
            regs.set(regs.indexOf(old), now);
        }

        /** Keeps an all registrants reservation's holder a registered nexus, or drops it with the last registration. */
        void keepHolderRegistered() {
            if (res != null && regs.stream().noneMatch(r -> r.nexus().equals(res.holder()))) {
                res = regs.isEmpty() || !res.type().allRegistrants() ? null : new Reservation(regs.get(0).nexus(), res.type());
            }
        }
    }

    /**
     * Runs a PERSISTENT RESERVE OUT service action (LIO's {@code target_scsi3_emulate_pr_out()}).
     *
     * @param type the TYPE field of RESERVE, RELEASE, PREEMPT and PREEMPT AND ABORT (the caller
     *        refuses an undefined one); ignored by the others
     * @param params the parameter list
     * @throws ScsiException RESERVATION CONFLICT or CHECK CONDITION as SPC-4 6.16 and 5.12 say
     * @throws IllegalArgumentException {@code EINVAL} for a service action that needs a type and got none
     */
    public void out(ItNexus me, PrContext ctx, int serviceAction, PrType type, byte[] params) throws ScsiException {
        if (type == null && (serviceAction == Opcode.PRO_RESERVE || serviceAction == Opcode.PRO_RELEASE
                || serviceAction == Opcode.PRO_PREEMPT || serviceAction == Opcode.PRO_PREEMPT_AND_ABORT)) {
            throw new IllegalArgumentException("EINVAL: PERSISTENT RESERVE OUT service action " + serviceAction + " needs a type");
        }
        Predicate<ItNexus> abort;
        synchronized (this) {
            if (spc2Holder != null) {
                throw conflict();
            }
            ProutParameters p = ProutParameters.decode(serviceAction, params, store.persistent());
            Txn t = new Txn(me, ctx);
            Registration mine = t.mine();
            boolean register = serviceAction == Opcode.PRO_REGISTER || serviceAction == Opcode.PRO_REGISTER_AND_IGNORE_EXISTING_KEY;
            if (!register) {
                // Every other service action needs a registered nexus with its key (SPC-4 5.12.7).
                if (mine == null || p.key() != mine.key()) {
                    throw conflict();
                }
            }
            switch (serviceAction) {
                case Opcode.PRO_REGISTER -> register(t, p, false);
                case Opcode.PRO_REGISTER_AND_IGNORE_EXISTING_KEY -> register(t, p, true);
                case Opcode.PRO_RESERVE -> reserve(t, type);
                case Opcode.PRO_RELEASE -> releasePersistent(t, type);
                case Opcode.PRO_CLEAR -> clear(t);
                case Opcode.PRO_PREEMPT, Opcode.PRO_PREEMPT_AND_ABORT -> preempt(t, p, type,
                        serviceAction == Opcode.PRO_PREEMPT_AND_ABORT);
                case Opcode.PRO_REGISTER_AND_MOVE -> registerAndMove(t, p);
                default -> throw new ScsiException(Sense.invalidFieldInCdb(1, 4));
            }
            commit(t);
            abort = t.abort;
        }
        if (abort != null) {
            ctx.abortTasks(abort);
        }
    }

    private void commit(Txn t) throws ScsiException {
        if (!t.changed) {
            return;
        }
        PrState next = new PrState(t.regs, t.res);
        try {
            if (t.aptplAfter) {
                store.save(next);
            } else if (aptpl) {
                store.clear();
            }
        } catch (IOException e) {
            throw new ScsiException(SenseKey.HARDWARE_ERROR, Asc.INTERNAL_TARGET_FAILURE);
        }
        state = next;
        aptpl = t.aptplAfter;
        if (t.bump) {
            generation++;
        }
        for (Ua u : t.uas) {
            t.ctx.unitAttention(u.who(), u.asc());
        }
    }

    /**
     * REGISTER and REGISTER AND IGNORE EXISTING KEY (SPC-4 5.12.7, table 53's neighbour table 47;
     * LIO's {@code core_scsi3_emulate_pro_register()}).
     */
    private void register(Txn t, ProutParameters p, boolean ignoreKey) throws ScsiException {
        Registration mine = t.mine();
        if (mine == null) {
            if (!ignoreKey && p.key() != 0) {
                throw conflict();
            }
            if (p.serviceActionKey() == 0) {
                return;
            }
            List<Registration> added = new ArrayList<>();
            added.add(new Registration(p.serviceActionKey(), t.me, p.allTgPt()));
            for (TransportId tid : p.transportIds()) {
                ItNexus dest = new ItNexus(tid.initiatorName(), tid.isid(), t.me.targetPortName());
                if (!t.ctx.canAccess(tid.initiatorName(), t.me.targetPortName())) {
                    throw new ScsiException(Sense.invalidFieldInParameterList(ProutParameters.TRANSPORT_IDS, 7));
                }
                if (find(t.regs, dest) == null && find(added, dest) == null) {
                    added.add(new Registration(p.serviceActionKey(), dest, p.allTgPt()));
                }
            }
            if (t.regs.size() + added.size() > PrState.MAX_REGISTRATIONS) {
                throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INSUFFICIENT_REGISTRATION_RESOURCES);
            }
            t.regs.addAll(added);
        } else {
            if (!ignoreKey && p.key() != mine.key()) {
                throw conflict();
            }
            if (p.specIPt()) {
                throw new ScsiException(Sense.invalidFieldInParameterList(20, 3));
            }
            if (p.serviceActionKey() != 0) {
                t.replace(mine, mine.withKey(p.serviceActionKey()));
            } else {
                unregister(t, mine);
            }
        }
        t.aptplAfter = p.aptpl();
        t.changed = true;
        t.bump = true;
    }

    /**
     * Unregistering (SPC-4 5.12.11.2.3): the holder of a reservation that is not all registrants
     * releases it, with RESERVATIONS RELEASED for the other registrants when it was registrants
     * only; an all registrants reservation ends with its last registration.
     */
    private void unregister(Txn t, Registration mine) {
        Reservation res = t.res;
        boolean holder = isHolder(t.regs, res, t.me);
        t.regs.remove(mine);
        if (holder && !res.type().allRegistrants()) {
            t.res = null;
            if (res.type().registrantsHaveAccess()) {
                t.notify(t.regs, Asc.RESERVATIONS_RELEASED);
            }
        }
        t.keepHolderRegistered();
    }

    /** RESERVE (5.12.9): only the holder may repeat it, with the same type. */
    private void reserve(Txn t, PrType type) throws ScsiException {
        if (t.res != null) {
            if (!isHolder(t.regs, t.res, t.me) || t.res.type() != type) {
                throw conflict();
            }
            return;
        }
        t.res = new Reservation(t.mine().nexus(), type);
        t.changed = true;
    }

    /**
     * RELEASE (5.12.11.2.2): nothing without a reservation or from a non-holder; a TYPE other than
     * the reservation's is INVALID RELEASE OF PERSISTENT RESERVATION; releasing a registrants only
     * or all registrants reservation gives the other registrants RESERVATIONS RELEASED.
     */
    private void releasePersistent(Txn t, PrType type) throws ScsiException {
        Reservation res = t.res;
        if (res == null || !isHolder(t.regs, res, t.me)) {
            return;
        }
        if (res.type() != type) {
            throw new ScsiException(SenseKey.ILLEGAL_REQUEST, Asc.INVALID_RELEASE_OF_PERSISTENT_RESERVATION);
        }
        t.res = null;
        t.changed = true;
        if (res.type().registrantsHaveAccess()) {
            t.notify(t.regs, Asc.RESERVATIONS_RELEASED);
        }
    }

    /**
     * CLEAR (5.12.11.2.6): the reservation and every registration go, the other registrants get
     * RESERVATIONS PREEMPTED; nothing is left to persist (LIO turns APTPL off).
     */
    private void clear(Txn t) {
        t.notify(t.regs, Asc.RESERVATIONS_PREEMPTED);
        t.regs.clear();
        t.res = null;
        t.aptplAfter = false;
        t.changed = true;
        t.bump = true;
    }

    /**
     * PREEMPT and PREEMPT AND ABORT (5.12.11.2.4 and 5.12.11.2.5, figure 7; LIO's
     * {@code core_scsi3_pro_preempt()}): a SERVICE ACTION RESERVATION KEY naming the holder (or
     * zero under an all registrants type) takes the reservation over, with the new type; another
     * key only removes the registrations with it, and matching none is a RESERVATION CONFLICT.
     * Nexuses that lost their registration get REGISTRATIONS PREEMPTED; the remaining registrants
     * get RESERVATIONS RELEASED when the type changed. PREEMPT AND ABORT then aborts the commands
     * of the nexuses that lost their registration.
     */
    private void preempt(Txn t, ProutParameters p, PrType type, boolean andAbort) throws ScsiException {
        Registration mine = t.mine();
        Reservation res = t.res;
        boolean allRegistrants = res != null && res.type().allRegistrants();
        long sark = p.serviceActionKey();
        if (!allRegistrants && sark == 0) {
            throw new ScsiException(Sense.invalidFieldInParameterList(8, 7));
        }
        boolean takeOver = allRegistrants ? sark == 0
                : res != null && find(t.regs, res.holder()).key() == sark;
        List<Registration> lost = new ArrayList<>();
        for (Registration r : t.regs) {
            // Under an all registrants type the nexus asking never preempts itself (as LIO).
            boolean hit = takeOver ? r != mine && (sark == 0 || r.key() == sark)
                    : r.key() == sark && !(allRegistrants && r == mine);
            if (hit) {
                lost.add(r);
            }
        }
        if (!takeOver && lost.isEmpty()) {
            throw conflict();
        }
        t.regs.removeAll(lost);
        if (takeOver) {
            t.res = new Reservation(mine.nexus(), type);
            if (res.type() != type) {
                t.notify(t.regs, Asc.RESERVATIONS_RELEASED);
            }
        } else {
            t.keepHolderRegistered();
        }
        t.notify(lost, Asc.REGISTRATIONS_PREEMPTED);
        if (andAbort && !lost.isEmpty()) {
            List<Registration> whose = List.copyOf(lost);
            t.abort = n -> whose.stream().anyMatch(r -> r.covers(n));
        }
        t.changed = true;
        t.bump = true;
    }

    /**
     * REGISTER AND MOVE (5.12.8, table 50; LIO's {@code core_scsi3_emulate_pro_register_and_move()}):
     * the holder registers the nexus of the TransportID at the given relative target port with the
     * SERVICE ACTION RESERVATION KEY and hands it the reservation; UNREG unregisters the holder.
     */
    private void registerAndMove(Txn t, ProutParameters p) throws ScsiException {
        if (p.serviceActionKey() == 0) {
            throw new ScsiException(Sense.invalidFieldInParameterList(8, 7));
        }
        String port = t.ctx.targetPortName(p.relativePortId());
        if (port == null) {
            throw new ScsiException(Sense.invalidFieldInParameterList(18, 7));
        }
        TransportId tid = p.transportIds().get(0);
        ItNexus dest = new ItNexus(tid.initiatorName(), tid.isid(), port);
        if (find(List.of(t.mine()), dest) != null || !t.ctx.canAccess(tid.initiatorName(), port)) {
            throw new ScsiException(Sense.invalidFieldInParameterList(ProutParameters.MOVE_TRANSPORT_ID, 7));
        }
        if (t.res == null) {
            throw new ScsiException(Sense.invalidFieldInCdb(1, 4));
        }
        if (!isHolder(t.regs, t.res, t.me) || t.res.type().allRegistrants()) {
            throw conflict();
        }
        Registration existing = find(t.regs, dest);
        Registration moved;
        if (existing == null) {
            moved = new Registration(p.serviceActionKey(), dest, false);
            t.regs.add(moved);
        } else {
            moved = existing.withKey(p.serviceActionKey());
            t.replace(existing, moved);
        }
        t.res = new Reservation(moved.nexus(), t.res.type());
        if (p.unreg()) {
            t.regs.remove(t.mine());
        }
        t.aptplAfter = p.aptpl();
        t.changed = true;
        t.bump = true;
    }
}
