package org.rdma.target.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Sense;
import org.rdma.scsi.SenseKey;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.fabric.TargetException;

/**
 * Configurations written to Config Admin become the live target, and only what changed changes:
 * checked through the fabric SPI, as an engine sees it (TPGs, portals, attributes, CHAP, and the
 * LUNs and write protection a session gets).
 */
class TargetTreeTest {
    static final String IQN = "iqn.2003-01.org.example:t1";
    static final String INI = "iqn.1994-05.com.example:host1";
    static final Spec.TpgKey TPG1 = new Spec.TpgKey("iscsi", IQN, 1);

    @TempDir
    Path dir;
    TestTree t;

    @BeforeEach
    void start() {
        t = new TestTree(dir.resolve("etc/target/saveconfig.json"));
    }

    @AfterEach
    void stop() throws InterruptedException {
        t.close();
    }

    static Spec.Tpg tpg(Spec.TpgKey key, Map<String, Integer> changes, ChapCredentials auth) {
        Map<String, Integer> a = TpgAttributes.defaults();
        a.putAll(changes);
        return new Spec.Tpg(key, true, a, auth);
    }

    static Spec.Backstore ramdisk(String name) {
        return new Spec.Backstore("ramdisk", name, "", 1 << 20, 512, true, false, false, "");
    }

    /** r0 and a fileio disk0 as LUNs 0 and 1; the initiator's ACL maps them as 0 and 1 (read-only). */
    private Map<String, String> fullTree() {
        Map<String, String> pids = new java.util.LinkedHashMap<>();
        pids.put("r0", t.store.create(ramdisk("r0")));
        pids.put("disk0", t.store.create(new Spec.Backstore("fileio", "disk0", dir.resolve("disk0.img").toString(),
                4 << 20, 4096, false, false, true, "")));
        pids.put("target", t.store.create(new Spec.Target("iscsi", IQN)));
        pids.put("tpg", t.store.create(tpg(TPG1, Map.of("authentication", 0), new ChapCredentials("tu", "tp", "", ""))));
        pids.put("portal", t.store.create(new Spec.Portal(TPG1, "0.0.0.0", 3260, false)));
        pids.put("lun0", t.store.create(new Spec.Lun(TPG1, 0, "/backstores/ramdisk/r0")));
        pids.put("lun1", t.store.create(new Spec.Lun(TPG1, 1, "/backstores/fileio/disk0")));
        pids.put("acl", t.store.create(new Spec.Acl(TPG1, INI, List.of(new Spec.MappedLun(0, 0, false),
                new Spec.MappedLun(1, 1, true)), new ChapCredentials("u", "p", "mu", "mp"))));
        t.settle();
        return pids;
    }

    private FabricTpg live() {
        return t.tree.tpg("iscsi", IQN, 1).orElseThrow(() -> new AssertionError("no live TPG; errors " + t.tree.errors()));
    }

    @Test
    void configurationsBuildTheLiveTree() throws Exception {
        fullTree();
        assertEquals(Map.of(), t.tree.errors());
        FabricTpg tpg = live();
        assertEquals(List.of(new NetworkPortal("0.0.0.0", 3260, false)), tpg.portals());
        assertEquals(0, tpg.attribute("authentication"));
        assertEquals(64, tpg.attribute("default_cmdsn_depth"));
        assertThrows(TargetException.class, () -> tpg.attribute("no_such_attribute"));
        assertEquals(Optional.of(new ChapCredentials("u", "p", "mu", "mp")), tpg.chapCredentials(INI));
        // Without generate_node_acls an initiator without an ACL has no CHAP secrets and no login.
        assertEquals(Optional.empty(), tpg.chapCredentials("iqn.1994-05.com.example:other"));
        assertEquals("EACCES", assertThrows(TargetException.class,
                () -> tpg.openSession("iqn.1994-05.com.example:other", "x", new Initiator.Nothing())).errno());
        assertEquals(4 << 20, Files.size(dir.resolve("disk0.img")), "the fileio file is created sparse at its size");
        assertTrue(Files.exists(dir.resolve("disk0.img.lbamap")), "thin provisioning keeps its allocation map");

        Initiator i = new Initiator(tpg, INI);
        assertEquals(List.of(0, 1), i.reportLuns());
        assertNull(i.write(0, 512), "mapped LUN 0 is read-write");
        Sense s = i.write(1, 4096);
        assertEquals(SenseKey.DATA_PROTECT, s.key(), "mapped LUN 1 is write-protected: " + s);
        assertEquals(Asc.WRITE_PROTECTED, s.asc());

        // Config Admin delivers one configuration at a time: the TPG, then its portal.
        assertEquals(List.of("publish /iscsi/" + IQN + "/tpg1 {target.fabric=iscsi, target.wwn=" + IQN
                + ", target.tpgt=1, target.tpg.enabled=true, target.portals=[]}", "update /iscsi/" + IQN
                + "/tpg1 {target.fabric=iscsi, target.wwn=" + IQN
                + ", target.tpgt=1, target.tpg.enabled=true, target.portals=[0.0.0.0:3260]}"), t.published);
    }

    @Test
    void deletingAConfigurationRemovesItsObject() {
        Map<String, String> pids = fullTree();
        Initiator before = new Initiator(live(), INI);
        t.store.delete(pids.get("lun1"));
        t.settle();
        assertEquals(List.of(0), new Initiator(live(), INI).reportLuns(), "LUN 1 and its mapping are gone");
        assertEquals(List.of(0), before.reportLuns(), "an open session loses the LUN too");

        t.store.delete(pids.get("tpg"));
        t.settle();
        assertTrue(t.tree.tpg("iscsi", IQN, 1).isEmpty());
        assertEquals("unregister /iscsi/" + IQN + "/tpg1", t.published.get(t.published.size() - 1));
        assertEquals("ENOTCONN", assertThrows(TargetException.class, () -> before.reportLuns()).errno(),
                "the TPG's sessions are closed");
        // Its portal, LUN and ACL configurations stay, waiting for a TPG.
        assertTrue(t.tree.error(pids.get("lun0")).orElseThrow().startsWith("ENOENT: "), t.tree.errors().toString());
    }

    @Test
    void aChangeLeavesTheRestAlone() {
        Map<String, String> pids = fullTree();
        Initiator i = new Initiator(live(), INI);
        assertNull(i.write(0, 512));
        t.store.update(pids.get("tpg"), tpg(TPG1, Map.of("authentication", 0, "generate_node_acls", 1,
                "demo_mode_write_protect", 0), new ChapCredentials("tu", "tp", "", "")));
        t.store.create(new Spec.Portal(TPG1, "::1", 3261, true));
        t.settle();
        FabricTpg tpg = live();
        assertEquals(1, tpg.attribute("generate_node_acls"));
        assertEquals(List.of(new NetworkPortal("0.0.0.0", 3260, false), new NetworkPortal("::1", 3261, true)), tpg.portals());
        assertEquals("update /iscsi/" + IQN + "/tpg1 {target.fabric=iscsi, target.wwn=" + IQN
                + ", target.tpgt=1, target.tpg.enabled=true, target.portals=[0.0.0.0:3260, [::1]:3261]}",
                t.published.get(t.published.size() - 1));
        assertEquals(List.of(0, 1), i.reportLuns(), "the open session goes on");
        // Demo mode now: an initiator without an ACL sees every LUN, writable, with the TPG's secrets.
        assertEquals(Optional.of(new ChapCredentials("tu", "tp", "", "")), tpg.chapCredentials("iqn.1994-05.com.example:x"));
        Initiator demo = new Initiator(tpg, "iqn.1994-05.com.example:x");
        assertEquals(List.of(0, 1), demo.reportLuns());
        assertNull(demo.write(1, 4096));
    }

    @Test
    void anObjectWaitsForItsParent() {
        t.store.create(new Spec.Target("iscsi", IQN));
        t.store.create(tpg(TPG1, Map.of(), ChapCredentials.NONE));
        String lun = t.store.create(new Spec.Lun(TPG1, 0, "/backstores/ramdisk/r0"));
        t.settle();
        assertEquals("ENOENT: /iscsi/" + IQN + "/tpg1/luns/lun0: storage object /backstores/ramdisk/r0 is not configured",
                t.tree.error(lun).orElseThrow());
        t.store.create(ramdisk("r0"));
        t.settle();
        assertEquals(Optional.empty(), t.tree.error(lun));
        t.store.update(t.store.read(null).tpg(TPG1).orElseThrow().pid(), tpg(TPG1, Map.of("generate_node_acls", 1,
                "demo_mode_write_protect", 0), ChapCredentials.NONE));
        t.settle();
        assertEquals(List.of(0), new Initiator(live(), INI).reportLuns());
    }

    @Test
    void aStorageObjectThatCannotOpenIsReported() {
        String pid = t.store.create(new Spec.Backstore("fileio", "d", dir.resolve("no/such/dir/d.img").toString(), 1 << 20,
                512, true, false, false, ""));
        t.settle();
        String e = t.tree.error(pid).orElseThrow();
        assertTrue(e.startsWith("ENOENT: /backstores/fileio/d: "), e);
    }

    @Test
    void twoConfigurationsOfOneObjectConflict() {
        String first = t.store.create(ramdisk("r0"));
        String second = t.store.create(new Spec.Backstore("ramdisk", "r0", "", 2 << 20, 512, true, false, false, ""));
        t.settle();
        assertEquals(Optional.empty(), t.tree.error(first));
        assertEquals("EEXIST: /backstores/ramdisk/r0 is configured by " + first + " already",
                t.tree.error(second).orElseThrow());
    }

    @Test
    void aBadValueIsRejectedNamingTheKey() throws Exception {
        var c = t.cm.createFactoryConfiguration(Pids.TPG, "?");
        c.update(new java.util.Hashtable<>(Map.of("wwn", IQN, "tag", "1", "authentication", "7")));
        for (long end = System.nanoTime() + Duration.ofSeconds(10).toNanos(); t.tree.error(c.getPid()).isEmpty();) {
            assertTrue(System.nanoTime() < end, "the bad TPG configuration was never rejected");
            Thread.onSpinWait();
        }
        assertEquals("EINVAL: TPG attribute authentication=7 outside 0..1", t.tree.error(c.getPid()).orElseThrow());
    }

    @Test
    void stringValuesOfAKarafCfgFileAreRead() {
        String pid = t.store.create(ramdisk("r0"));
        t.settle();
        assertFalse(t.tree.error(pid).isPresent());
        Map<String, String> cfg = Map.of("fabric", "iscsi", "wwn", IQN, "tag", "2", "enable", "false",
                "generate.node.acls", "1", "chap.userid", "u");
        assertEquals(tpg(new Spec.TpgKey("iscsi", IQN, 2), Map.of("generate_node_acls", 1),
                new ChapCredentials("u", "", "", "")).attributes(), ((Spec.Tpg) SpecProperties.parse(Pids.TPG, cfg)).attributes());
        assertFalse(((Spec.Tpg) SpecProperties.parse(Pids.TPG, cfg)).enable());
    }

    @Test
    void aFabricModuleThatGoesTakesItsTpgsAlong() {
        fullTree();
        var iscsi = t.tree.fabricModules().get("iscsi");
        t.tree.removeFabricModule(iscsi);
        assertTrue(t.tree.tpg("iscsi", IQN, 1).isEmpty());
        assertTrue(t.tree.errors().values().stream().anyMatch(e -> e.startsWith("ENODEV: no fabric module iscsi")));
        t.tree.addFabricModule(iscsi);
        assertEquals(List.of(0, 1), new Initiator(live(), INI).reportLuns());
        assertEquals(List.of("publish", "update", "unregister", "publish"), t.published.stream().map(p -> p.split(" ")[0]).toList());
    }

    @Test
    void aRestartOverPersistedConfigurationsRebuildsTheTree() throws Exception {
        fullTree();
        FakeConfigAdmin persisted = t.cm;
        t.tree.close();
        assertTrue(t.tree.tpg("iscsi", IQN, 1).isEmpty(), "closing tears the live tree down");
        try (TestTree again = new TestTree(persisted, dir.resolve("unused.json"))) {
            again.settle();
            assertEquals(List.of(0, 1), new Initiator(again.tree.tpg("iscsi", IQN, 1).orElseThrow(), INI).reportLuns());
            assertFalse(Files.exists(dir.resolve("unused.json")));
        }
    }

    @Test
    void aRestartWithoutConfigurationsRestoresTheSaveconfigFile() throws Exception {
        fullTree();
        Path file = t.tree.savefile();
        t.tree.saveconfig(file);
        String saved = Files.readString(file);
        try (TestTree again = new TestTree(file)) {
            again.settle();
            assertEquals(List.of(0, 1), new Initiator(again.tree.tpg("iscsi", IQN, 1).orElseThrow(), INI).reportLuns());
            assertEquals(saved, Json.write(Saveconfig.dump(again.tree.model())) + "\n", "the same tree");
            assertEquals(Map.of(), again.tree.errors());
        }
    }

    @Test
    void aSaveconfigFileIsNotRestoredOverConfigurations() throws Exception {
        fullTree();
        Path file = t.tree.savefile();
        t.tree.saveconfig(file);
        FakeConfigAdmin cm = new FakeConfigAdmin();
        new ConfigStore(cm).create(ramdisk("other"));
        try (TestTree again = new TestTree(cm, file)) {
            again.settle();
            assertEquals(1, again.tree.model().byPid().size(), "only what Config Admin holds");
        }
    }
}
