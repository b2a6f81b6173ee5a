package org.rdma.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.rdma.itest.driver.DeviceConfig;
import org.rdma.itest.driver.TestProvider;
import org.rdma.itest.support.CallbackLog;
import org.rdma.itest.support.Fixture;
import org.rdma.itest.support.Runtimes;
import org.rdma.verbs.Errno;
import org.rdma.verbs.Gid;
import org.rdma.verbs.GidAttr;
import org.rdma.verbs.GidType;
import org.rdma.verbs.IbCore;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbEventHandler;
import org.rdma.verbs.IbEventType;
import org.rdma.verbs.LinkLayer;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortIndex;
import org.rdma.verbs.PortState;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.spi.GidEntry;

/**
 * The GID and P_Key cache ({@code cache.c}): lookups by index and by value, held GID entries,
 * {@code ib_find_pkey} preferring a full member, refresh on GID_CHANGE / PKEY_CHANGE / port
 * events (and only then), port queries, and netdev binding ({@code ib_device_set_netdev},
 * {@code ib_device_get_by_netdev}).
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class CacheIT {
    private static final long SITE_PREFIX = 0xfec0_0000_0000_0000L;

    @InjectBundleContext
    BundleContext bc;

    @InjectService(timeout = 10_000)
    IbRuntime runtime;

    @InjectService(timeout = 10_000)
    IbCore core;

    private Fixture f;
    private TestProvider p;
    private DeviceConfig cfg;
    private IbDevice dev;
    private String name;
    private Gid ll1;
    private Gid site1;
    private Gid ll2;

    @BeforeEach
    void setUp() throws Exception {
        f = new Fixture(bc, "cache");
        cfg = DeviceConfig.of(f.template(), f.driver()).ports(2);
        ll1 = Gid.linkLocal(cfg.portGuid(1));
        site1 = Gid.of(SITE_PREFIX, cfg.portGuid(1));
        ll2 = Gid.linkLocal(cfg.portGuid(2));
        cfg.gids(1, new GidEntry(ll1, GidType.IB, null), new GidEntry(site1, GidType.IB, null));
        cfg.gids(2, new GidEntry(ll2, GidType.IB, null));
        cfg.pkeys(1, 0x7fff, 0x1234, 0xffff, 0x8001);
        cfg.pkeys(2, 0xffff);
        p = new TestProvider(cfg);
        f.provider(p);
        name = Runtimes.awaitDevices(runtime, f.driver(), 1).get(0);
        assertTrue(p.awaitAttached(10, TimeUnit.SECONDS));
        dev = p.device();
    }

    @AfterEach
    void tearDown() {
        f.close();
        assertEquals(List.of(), p.violations());
    }

    private static void assertErrno(Errno expected, Executable call, String what) {
        RdmaException e = assertThrows(RdmaException.class, call, what);
        assertEquals(expected, e.errno(), what + ": " + e.getMessage());
    }

    @Test
    void gidLookups() {
        assertEquals(ll1, dev.queryGid(1, 0));
        assertEquals(site1, dev.queryGid(1, 1));
        assertEquals(ll2, dev.queryGid(2, 0));
        assertErrno(Errno.ENOENT, () -> dev.queryGid(1, 2), "queryGid of an empty slot");
        assertErrno(Errno.EINVAL, () -> dev.queryGid(3, 0), "queryGid of a port that does not exist");

        assertEquals(new PortIndex(1, 1), dev.findGid(site1));
        assertEquals(new PortIndex(2, 0), dev.findGid(ll2));
        assertErrno(Errno.ENOENT, () -> dev.findGid(Gid.of(SITE_PREFIX, 0x1234)), "findGid of an unknown GID");

        GidAttr a = dev.getGidAttr(1, 1);
        assertEquals(site1, a.gid());
        assertEquals(GidType.IB, a.gidType());
        assertEquals(1, a.index());
        assertEquals(1, a.portNum());
        assertNull(a.netdev(), "IB ports have no netdev");
        assertEquals(name, a.device().name());
        a.hold();
        a.put();
        a.put();
        assertErrno(Errno.ENOENT, () -> dev.getGidAttr(1, 5), "getGidAttr of an empty slot");

        GidAttr found = dev.findGidAttr(ll2, GidType.IB, null);
        assertEquals(2, found.portNum());
        assertEquals(0, found.index());
        found.put();
        assertErrno(Errno.ENOENT, () -> dev.findGidAttr(ll2, GidType.ROCE_UDP_ENCAP, null), "findGidAttr of another type");
    }

    @Test
    void gidChangeRefreshesTheCacheAndHeldEntriesStay() {
        GidAttr held = dev.getGidAttr(1, 1);
        Gid newer = Gid.of(SITE_PREFIX, 0x0abc_def0_1234_5678L);
        p.setGid(1, 1, new GidEntry(newer, GidType.IB, null));
        assertEquals(site1, dev.queryGid(1, 1), "the cache does not change before the driver says so");

        CallbackLog log = new CallbackLog();
        IbEventHandler h = e -> log.add(e.type() + " " + e.portNum() + " sees " + gidOrErrno(1, 1));
        dev.registerEventHandler(h);
        p.raise(IbEventType.GID_CHANGE, 1);
        log.awaitSize(1);
        assertEquals(List.of("GID_CHANGE 1 sees " + newer), log.entries(), "the cache is refreshed before handlers run");
        assertEquals(newer, dev.queryGid(1, 1));
        assertEquals(new PortIndex(1, 1), dev.findGid(newer));
        assertErrno(Errno.ENOENT, () -> dev.findGid(site1), "the replaced GID is no longer found");
        assertEquals(site1, held.gid(), "a held entry keeps the GID it was taken with");
        held.put();

        p.setGid(1, 1, null);
        p.raise(IbEventType.GID_CHANGE, 1);
        log.awaitSize(2);
        assertEquals("GID_CHANGE 1 sees ENOENT", log.entries().get(1), "an emptied slot after GID_CHANGE");
        assertErrno(Errno.ENOENT, () -> dev.queryGid(1, 1), "an emptied slot after GID_CHANGE");
        dev.unregisterEventHandler(h);
    }

    private String gidOrErrno(int port, int index) {
        try {
            return String.valueOf(dev.queryGid(port, index));
        } catch (RdmaException e) {
            return e.errno().name();
        }
    }

    @Test
    void pkeyLookupsPreferFullMembers() {
        assertEquals(0x7fff, dev.queryPkey(1, 0));
        assertEquals(0x1234, dev.queryPkey(1, 1));
        assertEquals(0xffff, dev.queryPkey(1, 2));
        assertEquals(2, dev.findPkey(1, 0x7fff), "0x7fff matches the full member 0xffff at index 2 first");
        assertEquals(2, dev.findPkey(1, 0xffff));
        assertEquals(1, dev.findPkey(1, 0x1234), "a limited member is found when no full member matches");
        assertEquals(1, dev.findPkey(1, 0x9234), "the membership bit is ignored when matching");
        assertEquals(3, dev.findPkey(1, 0x0001));
        assertEquals(0, dev.findPkey(2, 0x7fff));
        assertErrno(Errno.ENOENT, () -> dev.findPkey(1, 0x4444), "findPkey of an absent P_Key");

        p.setPkey(1, 4, 0x4444);
        assertErrno(Errno.ENOENT, () -> dev.findPkey(1, 0x4444), "the cache does not change before PKEY_CHANGE");
        CallbackLog log = new CallbackLog();
        IbEventHandler h = e -> log.add(e.type() + " " + e.portNum());
        dev.registerEventHandler(h);
        p.raise(IbEventType.PKEY_CHANGE, 1);
        log.awaitSize(1);
        assertEquals(4, dev.findPkey(1, 0x4444));
        assertEquals(0x4444, dev.queryPkey(1, 4));
        dev.unregisterEventHandler(h);
    }

    @Test
    void portQueriesAndNetdevBinding() {
        PortAttr a = dev.queryPort(1);
        assertEquals(PortState.ACTIVE, a.state);
        assertEquals(Gid.DEFAULT_SUBNET_PREFIX, a.subnetPrefix, "subnet prefix from GID index 0");
        assertEquals(DeviceConfig.GID_TABLE_LEN, a.gidTblLen);
        assertEquals(DeviceConfig.PKEY_TABLE_LEN, a.pkeyTblLen);
        assertEquals(LinkLayer.INFINIBAND, dev.getLinkLayer(1));
        assertErrno(Errno.EINVAL, () -> dev.queryPort(3), "queryPort of a port that does not exist");

        CallbackLog log = new CallbackLog();
        IbEventHandler h = e -> log.add(e.type() + " " + e.portNum());
        dev.registerEventHandler(h);
        p.setPortState(2, PortState.DOWN);
        p.raise(IbEventType.PORT_ERR, 2);
        log.awaitSize(1);
        assertEquals(PortState.DOWN, dev.queryPort(2).state, "port state after PORT_ERR");
        assertEquals(PortState.ACTIVE, dev.queryPort(1).state);
        dev.unregisterEventHandler(h);

        String nd = "ib" + f.id();
        assertNull(dev.netdev(1));
        assertNull(core.getByNetdev(nd, null));
        p.context().setNetdev(1, nd);
        assertEquals(nd, dev.netdev(1));
        assertNull(dev.netdev(2));
        IbDevice byNetdev = core.getByNetdev(nd, null);
        assertNotNull(byNetdev, "getByNetdev finds the bound device");
        assertEquals(name, byNetdev.name());
        assertNull(core.getByNetdev(nd, "other-driver"), "the driver id must match");
        byNetdev.put();
        p.context().setNetdev(1, null);
        assertNull(dev.netdev(1), "unbound");
        assertNull(core.getByNetdev(nd, null));
    }
}
