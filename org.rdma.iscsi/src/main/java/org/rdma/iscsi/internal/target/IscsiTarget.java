package org.rdma.iscsi.internal.target;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.text.TextPair;
import org.rdma.iscsi.text.Values;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.TargetCore;
import org.rdma.target.fabric.TargetException;

/**
 * The iSCSI target engine (LIO's iscsi_target_mod without its login and socket code): the
 * sessions by TSIH, the network portals of each target portal group, SendTargets, and the
 * timers of every connection and session, which run when {@link #tick} is called with the
 * engine's clock (a transport calls it about once a second; tests advance a virtual clock).
 *
 * <p>A login in front of the engine ends with {@link #admit}, which assigns the TSIH and opens
 * the nexus, sends its final Login Response, then starts the connection's full feature phase
 * with {@link IscsiSession#startConnection}.
 */
public final class IscsiTarget {
    private static final Logger LOG = Logger.getLogger(IscsiTarget.class.getName());

    /** The fabric name TPGs of iSCSI have in the target core. */
    public static final String FABRIC = "iscsi";

    /** A network portal of a target portal group (LIO's {@code iscsi_tpg_np}). */
    public record Portal(String targetName, int tpgTag, InetSocketAddress address) {
    }

    /** The answer of {@link #admit}: the session, or the status the login fails with. */
    public record Admission(IscsiSession session, LoginStatus refusal) {
    }

    private final TargetCore core;
    private final LongSupplier clock;
    private final TargetSettings settings;
    private final Map<Integer, IscsiSession> sessions = new HashMap<>();
    private final Set<Portal> portals = new LinkedHashSet<>();
    private int lastTsih;

    /**
     * @param clock the engine's clock in nanoseconds (System::nanoTime, or a test's virtual clock)
     */
    public IscsiTarget(TargetCore core, LongSupplier clock, TargetSettings settings) {
        this.core = core;
        this.clock = clock;
        this.settings = settings;
    }

    public TargetSettings settings() {
        return settings;
    }

    long now() {
        return clock.getAsLong();
    }

    // ---------------------------------------------------------------- portals

    /** Lets the TPG {@code targetName}/{@code tpgTag} take logins on {@code address}. */
    public synchronized void addPortal(String targetName, int tpgTag, InetSocketAddress address) {
        portals.add(new Portal(targetName, tpgTag, address));
    }

    /** The TPG stops taking logins on {@code address}; false if it did not. */
    public synchronized boolean removePortal(String targetName, int tpgTag, InetSocketAddress address) {
        return portals.remove(new Portal(targetName, tpgTag, address));
    }

    public synchronized List<Portal> portals() {
        return new ArrayList<>(portals);
    }

    /**
     * The enabled TPG of {@code targetName} reachable through the portal a connection arrived on
     * (LIO's {@code iscsit_get_tpg_from_np()}), if any.
     */
    public Optional<FabricTpg> tpg(String targetName, InetSocketAddress portal) {
        List<Portal> ps = portals();
        for (FabricTpg t : core.tpgs(FABRIC)) {
            if (t.targetName().equals(targetName) && t.enabled()
                    && ps.contains(new Portal(targetName, t.tag(), portal))) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * The SendTargets answer (RFC 7143 appendix C; LIO's {@code iscsit_build_sendtargets_response()}):
     * "All" in a discovery session lists every target; an empty value in a normal session its own
     * target; a name that target. Each target's name is followed by a TargetAddress per portal of
     * each of its enabled TPGs; a wildcard portal is reported as the address the connection arrived on.
     */
    public List<TextPair> sendTargets(String value, IscsiSession session, InetSocketAddress local) {
        String only;
        if (value.equals("All")) {
            if (!session.discovery()) {
                return List.of(new TextPair("SendTargets", Values.REJECT));
            }
            only = null;
        } else if (value.isEmpty()) {
            if (session.discovery()) {
                return List.of(new TextPair("SendTargets", Values.REJECT));
            }
            only = session.targetName();
        } else {
            only = value;
        }
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        List<Portal> ps = portals();
        for (FabricTpg t : core.tpgs(FABRIC)) {
            if (!t.enabled() || only != null && !only.equals(t.targetName())) {
                continue;
            }
            for (Portal p : ps) {
                if (p.targetName().equals(t.targetName()) && p.tpgTag() == t.tag()) {
                    addresses.computeIfAbsent(t.targetName(), k -> new ArrayList<>())
                            .add(address(p.address(), local) + "," + t.tag());
                }
            }
        }
        List<TextPair> out = new ArrayList<>();
        addresses.forEach((name, addrs) -> {
            out.add(new TextPair("TargetName", name));
            addrs.forEach(a -> out.add(new TextPair("TargetAddress", a)));
        });
        return out;
    }

    /** RFC 7143 13.8: domainname[:port], an IPv6 literal in brackets. */
    private static String address(InetSocketAddress portal, InetSocketAddress local) {
        InetAddress a = portal.getAddress();
        if (a == null || a.isAnyLocalAddress()) {
            a = local.getAddress();
        }
        String host = a.getHostAddress();
        int scope = host.indexOf('%');
        if (scope >= 0) {
            host = host.substring(0, scope);
        }
        return (a instanceof Inet6Address ? "[" + host + "]" : host) + ":" + portal.getPort();
    }

    // ---------------------------------------------------------------- sessions

    /**
     * Admits a login just before its final response (LIO's {@code iscsi_login_zero_tsih_s1/s2()}
     * and {@code iscsi_login_non_zero_tsih_s1/s2()}): with TSIH 0 a new session with a new TSIH,
     * reinstating one with the same initiator, ISID and target (RFC 7143 6.3.5), and opening its
     * nexus; with a TSIH the session it names, which the connection joins.
     */
    public Admission admit(LoginOutcome login) {
        if (login.tsih() != 0) {
            return join(login);
        }
        IscsiSession old = null;
        IscsiSession s;
        synchronized (this) {
            for (IscsiSession x : sessions.values()) {
                if (x.isid() == login.isid() && x.initiatorName().equals(login.initiatorName())
                        && x.discovery() == login.discovery() && java.util.Objects.equals(x.targetName(), login.targetName())) {
                    old = x;
                }
            }
            int tsih = nextTsih();
            if (tsih < 0) {
                return new Admission(null, LoginStatus.OUT_OF_RESOURCES);
            }
            s = new IscsiSession(this, login, tsih, settings.cmdSnDepth(), clock);
            sessions.put(tsih, s);
        }
        if (old != null) {
            LOG.info("reinstating " + old);
            old.reinstate();
        }
        if (!login.discovery()) {
            try {
                FabricSession nexus = login.tpg().openSession(login.initiatorName(), login.initiatorPortName(), s);
                s.nexus(nexus);
            } catch (TargetException e) {
                synchronized (this) {
                    sessions.remove(s.tsih());
                }
                LOG.warning("login of " + login.initiatorPortName() + " refused: " + e.getMessage());
                return new Admission(null, e.errno().equals("EACCES") ? LoginStatus.AUTHORIZATION_FAILURE
                        : LoginStatus.SERVICE_UNAVAILABLE);
            }
        }
        return new Admission(s, null);
    }

    private synchronized Admission join(LoginOutcome login) {
        IscsiSession s = sessions.get(login.tsih());
        if (s == null || s.isid() != login.isid() || !s.initiatorName().equals(login.initiatorName())
                || s.state() != SessionState.LOGGED_IN) {
            return new Admission(null, LoginStatus.SESSION_DOES_NOT_EXIST);
        }
        if (s.connection(login.cid()) == null && s.connections().size() >= s.parameters().maxConnections()) {
            return new Admission(null, LoginStatus.TOO_MANY_CONNECTIONS);
        }
        return new Admission(s, null);
    }

    /** TSIHs 1..65535 (0 is the initiator's "new session"), the next one not in use; -1 when none is left. */
    private int nextTsih() {
        for (int i = 0; i < 0xffff; i++) {
            lastTsih = lastTsih % 0xffff + 1;
            if (!sessions.containsKey(lastTsih)) {
                return lastTsih;
            }
        }
        return -1;
    }

    void sessionFreed(IscsiSession s) {
        synchronized (this) {
            sessions.remove(s.tsih(), s);
        }
    }

    public synchronized List<IscsiSession> sessions() {
        return new ArrayList<>(sessions.values());
    }

    /**
     * A target goes away (LIO's {@code iscsit_tpg_disable_portal_group()} path): each connection of
     * its sessions is asked to log out within the settings' logout timeout (Asynchronous Message,
     * AsyncEvent 1), and dropped when that passes.
     */
    public void removeTarget(String targetName) {
        for (IscsiSession s : sessions()) {
            if (targetName.equals(s.targetName()) && !s.discovery()) {
                s.connections().forEach(c -> c.requestLogout(settings.logoutTimeoutSeconds()));
            }
        }
    }

    void dropSessionsOf(String targetName, String why) {
        for (IscsiSession s : sessions()) {
            if (targetName.equals(s.targetName()) && !s.discovery()) {
                s.connections().forEach(c -> c.drop(why));
            }
        }
    }

    /** Runs the timers that are due: NOP-In pings and their timeouts, logout deadlines, Time2Retain. */
    public void tick() {
        long now = clock.getAsLong();
        for (IscsiSession s : sessions()) {
            s.tick(now, settings);
        }
    }
}
