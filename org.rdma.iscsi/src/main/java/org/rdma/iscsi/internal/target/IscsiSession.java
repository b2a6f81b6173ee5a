package org.rdma.iscsi.internal.target;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.scsi.TmfFunction;
import org.rdma.scsi.TmfResponse;
import org.rdma.target.fabric.FabricCommand;
import org.rdma.target.fabric.FabricOps;
import org.rdma.target.fabric.FabricSession;

/**
 * An iSCSI session (LIO's {@code struct iscsit_session}): the I_T nexus it opened on the target
 * core, its connections, its command window, and its tasks by Initiator Task Tag. It is the
 * nexus's {@link FabricOps}: each callback of the core goes to the connection that received the
 * task. At ErrorRecoveryLevel 0 a failing connection fails the session (RFC 7143 7.1.5, session
 * recovery); a failed session keeps its nexus for DefaultTime2Retain seconds so a reinstating
 * login finds it, then is freed.
 */
public final class IscsiSession implements FabricOps {
    private static final Logger LOG = Logger.getLogger(IscsiSession.class.getName());

    /** A TMF sent to the core, waiting for its response. */
    private record PendingTmf(IscsiConnection conn, int itt, boolean retire, boolean coldReset) {
    }

    private final IscsiTarget target;
    private final LoginOutcome identity;
    private final int tsih;
    private final OperationalParameters parameters;
    private final CmdSnWindow window;
    private final LongSupplier clock;
    private volatile FabricSession nexus;
    private final Map<Integer, TargetCmd> tasks = new ConcurrentHashMap<>();
    private final Map<Integer, PendingTmf> tmfs = new ConcurrentHashMap<>();
    private final Set<Integer> abortedBeforeArrival = new HashSet<>();
    private final AtomicInteger ttt = new AtomicInteger();
    private final Map<Integer, IscsiConnection> connections = new LinkedHashMap<>();
    private SessionState state = SessionState.ACTIVE;
    private long retainDeadline;

    IscsiSession(IscsiTarget target, LoginOutcome identity, int tsih, int depth, LongSupplier clock) {
        this.target = target;
        this.identity = identity;
        this.tsih = tsih;
        this.parameters = identity.parameters();
        this.window = new CmdSnWindow(identity.cmdSn(), depth);
        this.clock = clock;
    }

    void nexus(FabricSession s) {
        nexus = s;
    }

    IscsiTarget target() {
        return target;
    }

    /** The nexus on the target core; null in a discovery session. */
    public FabricSession nexus() {
        return nexus;
    }

    public int tsih() {
        return tsih;
    }

    public long isid() {
        return identity.isid();
    }

    public String initiatorName() {
        return identity.initiatorName();
    }

    /** The target's name; null in a discovery session that named none. */
    public String targetName() {
        return identity.targetName();
    }

    public boolean discovery() {
        return identity.discovery();
    }

    LoginOutcome identity() {
        return identity;
    }

    /** The session-wide parameters its leading login negotiated. */
    public OperationalParameters parameters() {
        return parameters;
    }

    public synchronized SessionState state() {
        return state;
    }

    public int expCmdSn() {
        return window.expCmdSn();
    }

    public int maxCmdSn() {
        return window.maxCmdSn();
    }

    /** The connections in the full feature phase, by CID. */
    public synchronized List<IscsiConnection> connections() {
        return new ArrayList<>(connections.values());
    }

    synchronized IscsiConnection connection(int cid) {
        return connections.get(cid);
    }

    /** Tasks the session holds (received and not ended). */
    public int tasks() {
        return tasks.size();
    }

    private synchronized boolean transition(SessionState to) {
        if (!state.next().contains(to)) {
            return false;
        }
        LOG.fine(() -> this + ": " + state.label() + " " + state + " -> " + to.label() + " " + to);
        state = to;
        return true;
    }

    /**
     * A connection enters the full feature phase (LIO's {@code iscsi_post_login_handler()}): its
     * digests and data segment limits are the connection's own, the rest the session's.
     *
     * @param connection the parameters its own login negotiated
     * @param statSn the StatSN of its first response after the login's
     */
    public IscsiConnection startConnection(int cid, Transport transport, OperationalParameters connection, int statSn) {
        IscsiConnection c = new IscsiConnection(this, cid, transport, connection, statSn, clock);
        IscsiConnection old;
        synchronized (this) {
            if (state == SessionState.ACTIVE) {
                transition(SessionState.LOGGED_IN);
            } else if (state != SessionState.LOGGED_IN) {
                throw new IllegalStateException("ENOTCONN: " + this + " is " + state);
            }
            old = connections.put(cid, c);
        }
        if (old != null) {
            // Connection reinstatement (RFC 7143 6.3.4): the old connection and its tasks end.
            old.close();
            abortUndelivered(old);
        }
        return c;
    }

    // ---------------------------------------------------------------- tasks and the window

    TargetCmd task(int itt) {
        return tasks.get(itt);
    }

    boolean addTask(TargetCmd cmd) {
        return tasks.putIfAbsent(cmd.itt(), cmd) == null;
    }

    void removeTask(TargetCmd cmd) {
        tasks.remove(cmd.itt(), cmd);
    }

    /** A task ended without a response: forget it, and free its place in the window. */
    void taskEnded(TargetCmd cmd) {
        removeTask(cmd);
        if (cmd.takeRetire()) {
            retire();
        }
    }

    CmdSnWindow.Verdict admit(int cmdSn, Runnable item) {
        return window.admit(cmdSn, item);
    }

    void drain() {
        window.drain();
    }

    void retire() {
        window.retire();
    }

    int nextTtt() {
        int v;
        do {
            v = ttt.incrementAndGet();
        } while (v == Pdus.RESERVED);
        return v;
    }

    synchronized boolean takeAbortedBeforeArrival(int cmdSn) {
        return abortedBeforeArrival.remove(cmdSn);
    }

    // ---------------------------------------------------------------- FabricOps

    @Override
    public void writePending(FabricCommand fc) {
        TargetCmd c = tasks.get((int) fc.tag());
        if (c != null) {
            c.writePending(fc);
        }
    }

    @Override
    public void queueDataIn(FabricCommand fc) {
        TargetCmd c = tasks.get((int) fc.tag());
        if (c == null) {
            fc.release();
        } else {
            c.queueDataIn(fc);
        }
    }

    @Override
    public void queueStatus(FabricCommand fc) {
        TargetCmd c = tasks.get((int) fc.tag());
        if (c == null) {
            fc.release();
        } else {
            c.queueStatus(fc);
        }
    }

    @Override
    public void queueTmResponse(long tag, TmfFunction function, TmfResponse response) {
        PendingTmf p = tmfs.remove((int) tag);
        if (p == null) {
            return;
        }
        p.conn().sendTmResponse(p.itt(), TmfCodes.response(response), p.retire());
        if (p.coldReset() && response == TmfResponse.FUNCTION_COMPLETE) {
            // RFC 7143 11.5.1: after a TARGET COLD RESET the target drops every connection to it.
            target.dropSessionsOf(targetName(), "TARGET COLD RESET");
        }
    }

    @Override
    public void abortedTask(FabricCommand fc) {
        TargetCmd c = tasks.get((int) fc.tag());
        if (c == null) {
            fc.release();
        } else {
            c.aborted(fc);
        }
    }

    // ---------------------------------------------------------------- task management (11.5)

    /**
     * A Task Management Function Request in its turn (LIO's {@code iscsit_handle_task_mgt_cmd()}
     * and iscsi_target_tmr.c): what only iSCSI knows (tasks still waiting for their CmdSN, tasks
     * whose command has not arrived) is settled here, the rest by the target core.
     */
    void taskManagement(IscsiConnection conn, int fn, int itt, long lun, int rtt, int refCmdSn, int cmdSn,
            boolean retire) {
        if (fn == TmfCodes.TASK_REASSIGN) {
            conn.sendTmResponse(itt, TmfCodes.REASSIGNMENT_NOT_SUPPORTED, retire); // ErrorRecoveryLevel 2 only
            return;
        }
        TmfFunction f = TmfCodes.function(fn);
        if (f == null) {
            conn.sendTmResponse(itt, TmfCodes.NOT_SUPPORTED, retire);
            return;
        }
        if (f == TmfFunction.ABORT_TASK) {
            TargetCmd t = tasks.get(rtt);
            if (t == null) {
                // RFC 7143 11.5.1: a task whose command has not arrived yet is aborted by not running it.
                boolean coming;
                synchronized (this) {
                    coming = window.notYetReceived(refCmdSn);
                    if (coming) {
                        abortedBeforeArrival.add(refCmdSn);
                    }
                }
                conn.sendTmResponse(itt, coming ? TmfCodes.FUNCTION_COMPLETE : TmfCodes.TASK_DOES_NOT_EXIST, retire);
                return;
            }
            if (t.abortUndelivered()) {
                conn.sendTmResponse(itt, TmfCodes.FUNCTION_COMPLETE, retire);
                return;
            }
        } else if (f != TmfFunction.QUERY_TASK && f != TmfFunction.QUERY_TASK_SET
                && f != TmfFunction.QUERY_ASYNCHRONOUS_EVENT && f != TmfFunction.CLEAR_ACA) {
            boolean everyLun = f == TmfFunction.TARGET_RESET || f == TmfFunction.I_T_NEXUS_RESET;
            for (TargetCmd t : tasks.values()) {
                // RFC 7143 4.2.3.3: the function covers the tasks before it in CmdSN order.
                if ((everyLun || t.lun() == lun) && !t.immediate() && Sna.lt(t.cmdSn(), cmdSn)) {
                    t.abortUndelivered();
                }
            }
        }
        tmfs.put(itt, new PendingTmf(conn, itt, retire, fn == TmfCodes.TARGET_COLD_RESET));
        nexus.submitTmr(f, lun, itt & 0xffff_ffffL, rtt & 0xffff_ffffL);
    }

    // ---------------------------------------------------------------- connections ending

    /** A connection failed (RFC 7143 7.1.5): at ErrorRecoveryLevel 0 the whole session fails. */
    void connectionFailed(IscsiConnection conn) {
        List<IscsiConnection> others;
        boolean freeNow;
        synchronized (this) {
            if (connections.get(conn.cid()) != conn) {
                conn.freed();
                return;
            }
            connections.remove(conn.cid());
            others = new ArrayList<>(connections.values());
            connections.clear();
            if (!transition(SessionState.FAILED)) {
                return;
            }
            retainDeadline = clock.getAsLong() + parameters.defaultTime2Retain() * 1_000_000_000L;
            freeNow = parameters.defaultTime2Retain() == 0;
        }
        LOG.info(() -> this + " failed with connection " + conn.cid() + "; kept " + parameters.defaultTime2Retain() + " s");
        conn.freed();
        for (IscsiConnection o : others) {
            o.drop("session failed with connection " + conn.cid());
            o.freed();
        }
        abortUndelivered(null);
        if (freeNow) {
            free();
        }
    }

    /** A connection logged out ("close the connection"); the session ends with its last connection. */
    void connectionLoggedOut(IscsiConnection conn) {
        boolean last;
        synchronized (this) {
            connections.remove(conn.cid(), conn);
            last = connections.isEmpty();
        }
        abortUndelivered(conn);
        if (last) {
            free();
        }
    }

    /** "Close the session": every connection ends, then the session (RFC 7143 11.14.1). */
    void loggedOut(IscsiConnection conn) {
        List<IscsiConnection> others;
        synchronized (this) {
            connections.remove(conn.cid(), conn);
            others = new ArrayList<>(connections.values());
            connections.clear();
        }
        others.forEach(IscsiConnection::close);
        free();
    }

    /** Session reinstatement (RFC 7143 6.3.5): a new login with this ISID replaces it. */
    void reinstate() {
        List<IscsiConnection> all;
        synchronized (this) {
            all = new ArrayList<>(connections.values());
            connections.clear();
        }
        all.forEach(IscsiConnection::close);
        free();
    }

    private void abortUndelivered(IscsiConnection of) {
        for (TargetCmd t : tasks.values()) {
            if (of == null || t.connection() == of) {
                t.abortUndelivered();
            }
        }
    }

    /** Q1: the nexus closes (its queued commands are aborted) and the target forgets the session. */
    void free() {
        FabricSession n;
        synchronized (this) {
            if (state == SessionState.FREE) {
                return;
            }
            state = SessionState.FREE;
            n = nexus;
        }
        LOG.fine(() -> this + " freed");
        abortUndelivered(null);
        if (n != null) {
            n.close();
        }
        target.sessionFreed(this);
    }

    void tick(long now, TargetSettings settings) {
        boolean expired;
        synchronized (this) {
            expired = state == SessionState.FAILED && now - retainDeadline >= 0;
        }
        if (expired) {
            free();
            return;
        }
        for (IscsiConnection c : connections()) {
            c.tick(now, settings);
        }
    }

    @Override
    public String toString() {
        return String.format("%s session tsih %d %s", discovery() ? "discovery" : "normal", tsih,
                identity.initiatorPortName());
    }
}
