package org.rdma.target.itest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;
import org.osgi.util.tracker.ServiceTracker;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.fabric.TargetCore;

/**
 * The target's configuration in a real framework: factory configurations made through Config
 * Admin become the live target and its {@link FabricTpg} services (what SCR, the components and
 * their Metatype-described keys really do), {@code targetcli} runs as Gogo parses a command
 * line, and the configuration comes back after the bundle restarts, from Config Admin, or from
 * saveconfig.json when Config Admin has none.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class TargetcliIT {
    static final String IQN = "iqn.2003-01.org.example:itest";
    static final long TIMEOUT_MS = 10_000;

    @InjectBundleContext
    BundleContext context;

    @InjectService
    ConfigurationAdmin cm;

    @InjectService
    CommandProcessor gogo;

    /** One Gogo command line; its output, or the command's exception. */
    String gogo(String line) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        try (CommandSession s = gogo.createSession(new ByteArrayInputStream(new byte[0]), ps, ps)) {
            s.execute(line);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @AfterEach
    void clear() throws Exception {
        gogo("targetcli clearconfig confirm=True");
    }

    /** The TPG service matching {@code filter}, waiting for it (Config Admin delivers asynchronously). */
    private FabricTpg awaitTpg(String filter) throws Exception {
        ServiceTracker<FabricTpg, FabricTpg> t = new ServiceTracker<>(context,
                context.createFilter("(&(objectClass=" + FabricTpg.class.getName() + ")" + filter + ")"), null);
        t.open();
        try {
            FabricTpg tpg = t.waitForService(TIMEOUT_MS);
            assertNotNull(tpg, "no FabricTpg service " + filter + " within " + TIMEOUT_MS + " ms");
            return tpg;
        } finally {
            t.close();
        }
    }

    private void awaitNoTpg(String filter) throws Exception {
        long end = System.currentTimeMillis() + TIMEOUT_MS;
        while (context.getServiceReferences(FabricTpg.class, filter).size() > 0) {
            assertTrue(System.currentTimeMillis() < end, "the FabricTpg service " + filter + " stayed");
            Thread.onSpinWait();
        }
    }

    private Configuration factory(String pid, Map<String, Object> props) throws Exception {
        Configuration c = cm.createFactoryConfiguration(pid, "?");
        c.update(new Hashtable<>(props));
        return c;
    }

    @Test
    void configurationsMadeThroughConfigAdminBuildTheTarget() throws Exception {
        assertEquals(1, context.getServiceReferences(FabricModule.class, "(target.fabric=iscsi)").size());
        factory("org.rdma.target.backstore.ramdisk", Map.of("name", "r0", "size", 1L << 20));
        factory("org.rdma.target.target", Map.of("wwn", IQN));
        // Strings, as a Karaf .cfg file gives them.
        Configuration tpg = factory("org.rdma.target.tpg", Map.of("wwn", IQN, "tag", "1", "generate.node.acls", "1",
                "demo.mode.write.protect", "0", "authentication", "0", "chap.userid", "u", "chap.password", "p"));
        factory("org.rdma.target.portal", Map.of("wwn", IQN, "ip.address", "127.0.0.1", "port", 3260));
        factory("org.rdma.target.lun", Map.of("wwn", IQN, "index", 0, "storage.object", "/backstores/ramdisk/r0"));

        FabricTpg t = awaitTpg("(target.wwn=" + IQN + ")(target.portals=127.0.0.1:3260)");
        assertEquals(List.of(new NetworkPortal("127.0.0.1", 3260, false)), t.portals());
        assertEquals(1, t.attribute("generate_node_acls"));
        assertEquals(Optional.of(new ChapCredentials("u", "p", "", "")), t.chapCredentials("iqn.1994-05.com.example:h"));
        TargetCore core = context.getService(context.getServiceReference(TargetCore.class));
        assertEquals(List.of(t), core.tpgs("iscsi"));

        String ls = gogo("targetcli ls /iscsi/" + IQN + "/tpg1/luns");
        assertTrue(ls.startsWith("o- luns ...") && ls.contains("o- lun0 ") && ls.contains("[ramdisk/r0]\n"), ls);

        tpg.delete();
        awaitNoTpg("(target.wwn=" + IQN + ")");
        // The service goes first (its engine logs the sessions out), then the core drops the TPG.
        long end = System.currentTimeMillis() + TIMEOUT_MS;
        while (!core.tpgs("iscsi").isEmpty()) {
            assertTrue(System.currentTimeMillis() < end, "the core still has " + core.tpgs("iscsi") + " after "
                    + TIMEOUT_MS + " ms, its FabricTpg service being gone");
            Thread.onSpinWait();
        }
    }

    @Test
    void targetcliRunsAsGogoParsesItsLine() throws Exception {
        assertEquals("Created ramdisk r0 with size 1M.\n", gogo("targetcli /backstores/ramdisk create r0 1M"));
        assertTrue(gogo("targetcli /iscsi create " + IQN).contains("Created default portal listening on all IPs"));
        String tpg = "/iscsi/" + IQN + "/tpg1";
        assertEquals("Created LUN 0.\n", gogo("targetcli " + tpg + "/luns create /backstores/ramdisk/r0"));
        assertEquals("Parameter generate_node_acls is now '1'.\nParameter demo_mode_write_protect is now '0'.\n"
                + "Parameter authentication is now '0'.\n",
                gogo("targetcli " + tpg + " set attribute generate_node_acls=1 demo_mode_write_protect=0 authentication=0"));
        gogo("targetcli " + tpg + " set auth userid=U password=P");
        assertEquals("Deleted network portal 0.0.0.0:3260\n", gogo("targetcli " + tpg + "/portals delete 0.0.0.0 3260"));
        gogo("targetcli " + tpg + "/portals create 127.0.0.1 3260");

        FabricTpg t = awaitTpg("(target.wwn=" + IQN + ")(target.portals=127.0.0.1:3260)");
        assertEquals(1, t.attribute("generate_node_acls"));
        assertEquals(Optional.of(new ChapCredentials("U", "P", "", "")), t.chapCredentials("iqn.1994-05.com.example:h"));
        Configuration[] tpgs = cm.listConfigurations("(service.factoryPid=org.rdma.target.tpg)");
        assertEquals(1, tpgs.length);
        assertEquals(1, tpgs[0].getProperties().get("generate.node.acls"));

        Exception e = assertThrows(Exception.class, () -> gogo("targetcli /iscsi/iqn.2003-01.org.example:none ls"));
        assertEquals("ENOENT: No such path /iscsi/iqn.2003-01.org.example:none", e.getMessage());
        e = assertThrows(Exception.class, () -> gogo("targetcli /backstores/ramdisk delete r0"));
        assertEquals("EBUSY: storage object ramdisk/r0 is in use by " + tpg + "/luns/lun0", e.getMessage());
    }

    private Bundle target() {
        return Arrays.stream(context.getBundles()).filter(b -> b.getSymbolicName().equals("org.rdma.target")).findFirst()
                .orElseThrow();
    }

    private void restart() throws Exception {
        Bundle b = target();
        b.stop();
        assertNull(context.getServiceReference(TargetCore.class), "the core went with its bundle");
        b.start();
    }

    @Test
    void theConfigurationSurvivesRestarts() throws Exception {
        Path file = context.getDataFile("saveconfig.json").toPath();
        Files.deleteIfExists(file);
        Configuration core = cm.getConfiguration("org.rdma.target", "?");
        core.update(new Hashtable<>(Map.of("savefile", file.toString())));
        try {
            gogo("targetcli /backstores/ramdisk create r0 1M");
            gogo("targetcli /iscsi create " + IQN);
            gogo("targetcli /iscsi/" + IQN + "/tpg1/luns create /backstores/ramdisk/r0");
            gogo("targetcli /iscsi/" + IQN + "/tpg1/acls create iqn.1994-05.com.example:h");
            String tree = gogo("targetcli ls");
            // The core applies its new savefile asynchronously too.
            long end = System.currentTimeMillis() + TIMEOUT_MS;
            while (!gogo("targetcli saveconfig").equals("Configuration saved to " + file + "\n")) {
                assertTrue(System.currentTimeMillis() < end, "saveconfig never wrote to the configured savefile");
            }

            // Karaf: Config Admin persists the configurations, the bundle rebuilds the tree from them.
            restart();
            awaitTpg("(target.wwn=" + IQN + ")");
            assertEquals(tree, gogo("targetcli ls"));

            // The embedded runtime: Config Admin starts empty, saveconfig.json is restored into it.
            assertEquals("All configuration cleared\n", gogo("targetcli clearconfig confirm=True"));
            awaitNoTpg("(target.wwn=" + IQN + ")");
            restart();
            awaitTpg("(target.wwn=" + IQN + ")");
            assertEquals(tree, gogo("targetcli ls"));
        } finally {
            core.delete();
            Files.deleteIfExists(file);
        }
    }
}
