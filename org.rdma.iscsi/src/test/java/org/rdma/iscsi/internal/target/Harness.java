package org.rdma.iscsi.internal.target;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.core.TargetCoreImpl;
import org.rdma.target.internal.core.Tpg;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * An engine on a real target core with a 1 MiB ramdisk LUN 0 (512-byte blocks) in demo mode,
 * a virtual clock, and a core executor that runs tasks at once or holds them until
 * {@link #runHeld} when {@link #hold} is set.
 */
final class Harness {
    static final String IQN = "iqn.2003-01.org.rdma:disk1";
    static final String INI = "iqn.1994-05.com.example:host1";
    static final InetSocketAddress PORTAL = new InetSocketAddress("127.0.0.1", 3260);
    static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    long now = 1_000 * SECOND;
    boolean hold;
    final Deque<Runnable> held = new ArrayDeque<>();
    final Executor executor = r -> {
        if (hold) {
            held.add(r);
        } else {
            r.run();
        }
    };
    final TargetCoreImpl core = new TargetCoreImpl(executor);
    final Tpg tpg = core.addTpg(IscsiTarget.FABRIC, IQN, 1, 5);
    final ScsiDevice disk = new ScsiDevice("r0", new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS,
            DeviceIdentity.of(DeviceIdentity.defaultSerial("rd_mcp", "r0"), DeviceIdentity.DEFAULT_COMPANY_ID));
    final IscsiTarget target;
    private long nextIsid = 0x023d_0000_0001L;

    Harness() {
        this(new TargetSettings(8, 15 * SECOND, 30 * SECOND, 5));
    }

    Harness(TargetSettings settings) {
        tpg.addLun(0, disk);
        tpg.setGenerateNodeAcls(true);
        tpg.setDemoModeWriteProtect(false);
        target = new IscsiTarget(core, () -> now, settings);
        target.addPortal(IQN, 1, PORTAL);
    }

    void runHeld() {
        for (Runnable r; (r = held.poll()) != null;) {
            r.run();
        }
    }

    /** A new session; its first CmdSN is 1 and its first StatSN 0x100. */
    Initiator login(Params p) {
        return login(p, tpg);
    }

    /** A new session on {@code on} (a normal session) or none (discovery). */
    Initiator login(Params p, org.rdma.target.fabric.FabricTpg on) {
        return login(new LoginOutcome(nextIsid++, 0, 1, p.initiatorName, p.discovery ? null : p.targetName,
                p.discovery, p.discovery ? null : on, p.build(), 1), 0x100);
    }

    Initiator login(LoginOutcome o, int statSn) {
        IscsiTarget.Admission a = target.admit(o);
        if (a.session() == null) {
            throw new IllegalStateException("login refused: " + a.refusal());
        }
        MemoryTransport t = new MemoryTransport(PORTAL);
        OperationalParameters p = o.parameters();
        IscsiConnection c = a.session().startConnection(o.cid(), t, p, statSn);
        t.handler = c;
        Initiator i = new Initiator(c, t, a.session().expCmdSn(), statSn);
        i.digests(p.headerDigest(), p.dataDigest());
        return i;
    }

    /** Another connection of {@code first}'s session. */
    Initiator join(Initiator first, int cid, int statSn) {
        IscsiSession s = first.conn.session();
        LoginOutcome o = new LoginOutcome(s.isid(), s.tsih(), cid, s.initiatorName(), s.targetName(), false, tpg,
                s.parameters(), s.expCmdSn());
        return login(o, statSn);
    }
}
