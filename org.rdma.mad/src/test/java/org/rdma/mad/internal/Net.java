package org.rdma.mad.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.rdma.core.internal.verbs.CoreDevice;
import org.rdma.core.internal.verbs.DeviceServices;
import org.rdma.fabric.Fabric;
import org.rdma.fabric.Fabrics;
import org.rdma.fabric.Topology;
import org.rdma.hca.mlx4sim.internal.Mlx4Device;
import org.rdma.hca.mlx4sim.internal.Mlx4Params;
import org.rdma.mad.MadAgent;
import org.rdma.mad.MadRecvWc;
import org.rdma.mad.MadSendBuf;
import org.rdma.mad.internal.sa.SaLayer;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PollContext;
import org.rdma.verbs.QpType;
import org.rdma.verbs.time.VirtualClock;
import org.rdma.verbs.wire.LinearForwardingTable;
import org.rdma.verbs.wire.MadHdr;
import org.rdma.verbs.wire.PortInfo;
import org.rdma.verbs.wire.Smp;
import org.rdma.verbs.wire.SwitchInfo;

/**
 * A test subnet: a switch and mlx4sim HCAs wrapped in real core devices, the MAD and SA layers
 * as clients, everything in virtual time. Completions and MAD work run on a queue the test
 * drains with {@link #settle()}, so nothing runs behind the test's back.
 */
final class Net implements AutoCloseable {
    static final long SW_GUID = 0x0002c90300f0e0d0L;
    static final int LID_SW = 1;

    /** A queue executor: {@link #settle()} runs it; in {@link #inline} mode it runs at once (teardown). */
    static final class Pump implements Executor {
        private final ArrayDeque<Runnable> q = new ArrayDeque<>();
        private boolean running;
        volatile boolean inline;

        @Override
        public void execute(Runnable r) {
            synchronized (this) {
                q.add(r);
                if (!inline || running) {
                    return;
                }
            }
            drain();
        }

        void drain() {
            synchronized (this) {
                if (running) {
                    return;
                }
                running = true;
            }
            try {
                while (true) {
                    Runnable n;
                    synchronized (this) {
                        n = q.poll();
                        if (n == null) {
                            // Under the poll's lock: work queued from now on finds nobody running.
                            running = false;
                            return;
                        }
                    }
                    n.run();
                }
            } catch (RuntimeException | Error e) {
                synchronized (this) {
                    running = false;
                }
                throw e;
            }
        }
    }

    final VirtualClock clock = new VirtualClock();
    final Pump pump = new Pump();
    final Fabric fabric;
    final List<Mlx4Device> hcas = new ArrayList<>();
    final Map<String, CoreDevice> devs = new HashMap<>();
    final Map<String, Integer> lids = new HashMap<>();
    final MadLayer mad;
    final SaLayer sa;
    private int index;
    private int smTid;
    private MadAgent sm;
    private final Map<MadSendBuf, MadRecvWc> smResponses = new HashMap<>();

    final DeviceServices services = DeviceServices.standalone(pump);

    /** An IB subnet: CAs named {@code hosts}, cabled to switch ports 1, 2, ... */
    Net(String... hosts) {
        Topology.Builder b = Topology.builder().addSwitch("S", 8, SW_GUID);
        for (int i = 0; i < hosts.length; i++) {
            b.addCa(hosts[i], 1, 0x0002c90300a1b200L + 0x100L * i).link(hosts[i], 1, "S", i + 1);
        }
        fabric = Fabrics.create("ib", b.build(), clock, 1);
        mad = new MadLayer(clock, pump, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, pump);
        for (String h : hosts) {
            Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.INFINIBAND);
            p.caSlot = h;
            p.hostname = h;
            addDevice(h, new Mlx4Device(p));
        }
    }

    /** A RoCE segment with one HCA per address. */
    Net(boolean roce, String... ips) {
        fabric = Fabrics.create("roce", Topology.builder().build(), clock, 1);
        mad = new MadLayer(clock, pump, PollContext.UNBOUND_WORKQUEUE);
        sa = new SaLayer(mad, pump);
        for (int i = 0; i < ips.length; i++) {
            Mlx4Params p = Mlx4Params.of(fabric, clock, LinkLayer.ETHERNET);
            String name = "host" + (char) ('a' + i);
            p.caName = name;
            p.nodeGuid = 0x0002c90300c0ff00L + 0x10 * i;
            p.ethernetSegment = "br0";
            p.hostname = name;
            p.ports.get(0).netdev = "eth" + i;
            p.ports.get(0).ipAddresses.add(ips[i]);
            addDevice(name, new Mlx4Device(p));
        }
    }

    private void addDevice(String host, Mlx4Device d) {
        hcas.add(d);
        CoreDevice cd = CoreDevice.register(d.provider(), "mlx4_" + index, index, services);
        index++;
        devs.put(host, cd);
        assertEquals(0, mad.add(cd));
        assertEquals(0, sa.add(cd));
        settle();
    }

    CoreDevice dev(String host) {
        return devs.get(host);
    }

    /** Runs queued completions and MAD work until nothing is left. */
    void settle() {
        pump.drain();
    }

    /** Advances virtual time, running timers and what they queue. */
    void advance(long ms) {
        long target = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (true) {
            long next = clock.nextDeadline();
            if (next < 0 || next > target) {
                break;
            }
            clock.advanceTo(next);
            settle();
        }
        clock.advanceTo(target);
        settle();
    }

    // ------------------------------------------------------------------ test SM on the first host's QP0

    /** A directed-route SMP through host {@code smHost}'s MAD layer; returns the response. */
    Smp smp(String smHost, Smp req) {
        if (sm == null) {
            sm = mad.registerMadAgent(dev(smHost), 1, QpType.SMI, null, 0, (a, wc) -> mad.freeSendMad(wc.sendBuf()),
                    (a, sb, wc) -> smResponses.put(sb, wc), null, 0);
        }
        req.tid = sm.tid(++smTid);
        MadSendBuf buf = mad.createSendMad(sm, 0, 0, false, MadHdr.IB_MGMT_MAD_HDR, MadHdr.IB_MGMT_MAD_DATA,
                MadHdr.IB_MGMT_BASE_VERSION);
        req.pack(buf.mad(), 0);
        buf.setTimeoutMs(100);
        buf.setRetries(2);
        assertEquals(0, mad.postSendMad(buf), "post SMP");
        settle();
        MadRecvWc r = smResponses.remove(buf);
        assertNotNull(r, "SMP response to " + req);
        return new Smp().unpack(r.mad(), 0);
    }

    PortInfo getPortInfo(String smHost, int attrMod, int... path) {
        Smp r = smp(smHost, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, PortInfo.ATTR_ID, attrMod, 0, path));
        assertEquals(0, r.statusCode());
        return new PortInfo().unpack(r.data, 0);
    }

    void setPort(String smHost, int attrMod, int lid, int state, int smLid, int... path) {
        PortInfo pi = getPortInfo(smHost, attrMod, path);
        if (lid >= 0) {
            pi.lid = lid;
        }
        pi.masterSmLid = smLid;
        pi.portState = state;
        pi.portPhysState = 0;
        pi.linkSpeedEnabled = 0;
        pi.linkWidthEnabled = 0;
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, PortInfo.ATTR_ID, attrMod, 0, path);
        req.setData(pi);
        Smp r = smp(smHost, req);
        assertEquals(0, r.statusCode(), "SubnSet(PortInfo) on " + java.util.Arrays.toString(path));
    }

    /**
     * The SM's sweep from {@code hosts[0]} (the SM and SA node): LIDs 10, 11, ... to the hosts in
     * switch port order, the switch LFT, then every port Armed and Active.
     */
    void bringUp(String... hosts) {
        String smHost = hosts[0];
        int smLid = 10;
        for (int i = 0; i < hosts.length; i++) {
            lids.put(hosts[i], 10 + i);
        }
        setPort(smHost, 0, smLid, PortInfo.PORT_STATE_NOP, smLid);
        setPort(smHost, 0, LID_SW, PortInfo.PORT_STATE_NOP, smLid, 1);
        for (int i = 1; i < hosts.length; i++) {
            setPort(smHost, 0, 10 + i, PortInfo.PORT_STATE_NOP, smLid, 1, i + 1);
        }
        LinearForwardingTable lft = new LinearForwardingTable();
        java.util.Arrays.fill(lft.ports, LinearForwardingTable.IB_LFT_NO_PATH);
        lft.ports[LID_SW] = 0;
        for (int i = 0; i < hosts.length; i++) {
            lft.ports[10 + i] = i + 1;
        }
        Smp req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, LinearForwardingTable.ATTR_ID, 0, 0, 1);
        req.setData(lft);
        assertEquals(0, smp(smHost, req).statusCode());
        Smp si = smp(smHost, Smp.directed(MadHdr.IB_MGMT_METHOD_GET, SwitchInfo.ATTR_ID, 0, 0, 1));
        SwitchInfo info = new SwitchInfo().unpack(si.data, 0);
        info.linearFdbTop = 10 + hosts.length;
        req = Smp.directed(MadHdr.IB_MGMT_METHOD_SET, SwitchInfo.ATTR_ID, 0, 0, 1);
        req.setData(info);
        assertEquals(0, smp(smHost, req).statusCode());
        for (int state : new int[] {PortInfo.PORT_STATE_ARMED, PortInfo.PORT_STATE_ACTIVE}) {
            setPort(smHost, 0, -1, state, smLid);
            for (int i = 1; i <= hosts.length; i++) {
                setPort(smHost, i, -1, state, smLid, 1);
            }
            for (int i = 1; i < hosts.length; i++) {
                setPort(smHost, 0, -1, state, smLid, 1, i + 1);
            }
        }
        settle();
    }

    @Override
    public void close() {
        pump.inline = true;
        settle();
        for (CoreDevice d : devs.values()) {
            sa.remove(d, null);
            mad.remove(d, null);
            d.setState(CoreDevice.State.UNREGISTERED);
            d.destroyLeftovers();
            d.provider().detach();
        }
        for (Mlx4Device h : hcas) {
            h.close();
        }
        fabric.close();
    }
}
