package org.rdma.target.internal.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.fabric.TargetException;

/**
 * Each targetcli command: what it prints (targetcli's messages), what it leaves in Config Admin
 * and the live target, and each error with its errno and the bad path or value.
 */
class TargetcliTest {
    static final String IQN = "iqn.2003-01.org.example:t1";
    static final String TPG = "/iscsi/" + IQN + "/tpg1";
    static final String H1 = "iqn.1994-05.com.example:host1";

    @TempDir
    Path dir;
    Shell sh;

    @BeforeEach
    void start() {
        sh = new Shell(dir);
    }

    @AfterEach
    void stop() throws Exception {
        sh.close();
    }

    private TargetException fails(String errno, String... args) {
        TargetException e = assertThrows(TargetException.class, () -> sh.run(args), String.join(" ", args));
        assertEquals(errno, e.errno(), e.getMessage());
        return e;
    }

    private FabricTpg live(String iqn, int tag) {
        return sh.t.tree.tpg("iscsi", iqn, tag).orElseThrow(() -> new AssertionError("no live TPG " + sh.t.tree.errors()));
    }

    private int configurations() {
        return sh.t.store.read(null).byPid().size();
    }

    @Test
    void fileioCreateAndDelete() throws Exception {
        Path f = dir.resolve("disk0.img");
        assertEquals("Created fileio disk0 with size 1073741824\n",
                sh.run("/backstores/fileio", "create", "disk0", f.toString(), "1G"));
        assertEquals(1L << 30, Files.size(f), "created sparse at its size");
        fails("EEXIST", "/backstores/fileio", "create", "disk0", dir.resolve("other.img").toString(), "1M");
        assertEquals("EEXIST: storage object for " + f + " already exists: disk0",
                fails("EEXIST", "/backstores/fileio", "create", "disk1", f.toString()).getMessage());
        // An existing file gives its size, as targetcli says.
        Path g = Files.write(dir.resolve("g.img"), new byte[8192]);
        assertEquals(g + " exists, using its size (8192 bytes) instead\nCreated fileio g with size 8192\n",
                sh.run("backstores/fileio", "create", "name=g", "file_or_dev=" + g, "size=1G"));
        assertEquals("EINVAL: Attempting to create file for new fileio backstore, need a size",
                fails("EINVAL", "/backstores/fileio", "create", "h", dir.resolve("h.img").toString()).getMessage());
        assertEquals("EINVAL: Cannot interpret size, wrong format: 1Q",
                fails("EINVAL", "/backstores/fileio", "create", "h", dir.resolve("h.img").toString(), "1Q").getMessage());
        assertEquals("EINVAL: block size 1024 is not 512 or 4096", fails("EINVAL", "/backstores/fileio", "create", "h",
                dir.resolve("h.img").toString(), "1M", "block_size=1024").getMessage());
        fails("EINVAL", "/backstores/fileio", "create", "a/b", dir.resolve("h.img").toString(), "1M");
        assertEquals("EINVAL: Path " + dir + " exists but is not a file",
                fails("EINVAL", "/backstores/fileio", "create", "h", dir.toString(), "1M").getMessage());
        // A file that cannot be created: the error of the live tree, and nothing left configured.
        int before = configurations();
        TargetException e = fails("ENOENT", "/backstores/fileio", "create", "h", dir.resolve("no/dir/h.img").toString(), "1M");
        assertTrue(e.getMessage().startsWith("ENOENT: /backstores/fileio/h: "), e.getMessage());
        assertEquals(before, configurations(), "the failed create is undone");

        assertEquals("Deleted storage object g.\n", sh.run("/backstores/fileio", "delete", "g"));
        assertEquals("ENOENT: No storage object named g.", fails("ENOENT", "/backstores/fileio", "delete", "g").getMessage());
    }

    @Test
    void fileioOptions() {
        sh.run("/backstores/fileio", "create", "t", dir.resolve("t.img").toString(), "2M", "block_size=4096",
                "write_back=false", "readonly=true", "thin_provisioning=true", "wwn=abc-123");
        assertEquals("[Backstore[plugin=fileio, name=t, file=" + dir.resolve("t.img") + ", size=2097152, blockSize=4096, "
                + "writeBack=false, readOnly=true, thin=true, wwn=abc-123]]",
                sh.t.store.read(null).backstores().stream().map(x -> x.spec()).toList().toString());
        assertTrue(Files.exists(dir.resolve("t.img.lbamap")));
        assertEquals("EINVAL: sparse=false: fileio files are always created sparse here", fails("EINVAL",
                "/backstores/fileio", "create", "u", dir.resolve("u.img").toString(), "1M", "sparse=false").getMessage());
    }

    @Test
    void ramdiskCreateAndDelete() {
        assertEquals("Created ramdisk r0 with size 64M.\n", sh.run("/backstores/ramdisk", "create", "r0", "64M"));
        fails("EEXIST", "/backstores/ramdisk", "create", "r0", "1M");
        assertEquals("EINVAL: size 100 holds no block of 512 bytes",
                fails("EINVAL", "/backstores/ramdisk", "create", "r1", "100").getMessage());
        assertEquals("EINVAL: missing required parameter 'size' of create",
                fails("EINVAL", "/backstores/ramdisk", "create", "r1").getMessage());
        assertEquals("EINVAL: unexpected keyword parameter 'bogus' of create (name, size, nullio, wwn, block_size)",
                fails("EINVAL", "/backstores/ramdisk", "create", "r1", "1M", "bogus=1").getMessage());
        fails("EINVAL", "/backstores/ramdisk", "create", "r1", "1M", "nullio=true");
        assertEquals("Deleted storage object r0.\n", sh.run("/backstores/ramdisk", "delete", "r0"));
        assertEquals(0, configurations());
    }

    @Test
    void iscsiCreateMakesTpg1WithTheDefaultPortal() {
        assertEquals("""
                Created target iqn.2003-01.org.example:t1.
                Created TPG 1.
                Global pref auto_add_default_portal=true
                Created default portal listening on all IPs (0.0.0.0), port 3260.
                """, sh.run("/iscsi", "create", "IQN.2003-01.org.example:T1"));
        FabricTpg t = live(IQN, 1);
        assertTrue(t.enabled());
        assertEquals(List.of(new NetworkPortal("0.0.0.0", 3260, false)), t.portals());
        assertEquals(0, t.attribute("authentication"), "targetcli creates TPGs without authentication");
        assertEquals("EEXIST: target /iscsi/" + IQN + " exists", fails("EEXIST", "/iscsi", "create", IQN).getMessage());
        assertEquals("EINVAL: WWN not valid as: iqn, naa, eui: 'disk0'", fails("EINVAL", "/iscsi", "create", "disk0")
                .getMessage());
        // Without a name, one as LIO generates.
        assertTrue(sh.run("/iscsi", "create").startsWith("Created target " + Shell.GENERATED + ".\n"));
    }

    @Test
    void withoutAutoAddDefaultPortalASpecificPortalTakes3260() {
        assertEquals("Parameter auto_add_default_portal is now 'false'.\n",
                sh.run("set", "global", "auto_add_default_portal=false"));
        assertEquals("auto_add_default_portal=false\n", sh.run("get", "global", "auto_add_default_portal"));
        assertEquals("Created target " + IQN + ".\nCreated TPG 1.\n", sh.run("/iscsi", "create", IQN));
        assertEquals("Using default IP port 3260\nCreated network portal 127.0.0.1:3260.\n",
                sh.run(TPG + "/portals", "create", "127.0.0.1"));
        assertEquals(List.of(new NetworkPortal("127.0.0.1", 3260, false)), live(IQN, 1).portals());
        assertEquals("EINVAL: Unknown parameter color_mode in group 'global'.",
                fails("EINVAL", "set", "global", "color_mode=true").getMessage());
    }

    @Test
    void portals() {
        sh.run("/iscsi", "create", IQN);
        // As in LIO, a specific portal on 3260 needs the default one gone first.
        assertEquals("EEXIST: network portal 0.0.0.0:3260 exists in " + TPG,
                fails("EEXIST", TPG + "/portals", "create").getMessage());
        assertEquals("Deleted network portal 0.0.0.0:3260\n", sh.run(TPG + "/portals", "delete", "0.0.0.0", "3260"));
        assertEquals("Using default IP port 3260\nCreated network portal 10.1.2.3:3260.\n",
                sh.run(TPG + "/portals", "create", "10.1.2.3", "3260"));
        assertEquals("Created network portal [::1]:3261.\n", sh.run(TPG + "/portals", "create", "::1", "3261"));
        assertEquals(List.of(new NetworkPortal("10.1.2.3", 3260, false), new NetworkPortal("::1", 3261, false)),
                live(IQN, 1).portals());
        assertEquals("ENOENT: No network portal 0.0.0.0:3260 in " + TPG,
                fails("ENOENT", TPG + "/portals", "delete", "0.0.0.0", "3260").getMessage());
        assertEquals("EINVAL: 'host.example' is not an IPv4 or IPv6 address",
                fails("EINVAL", TPG + "/portals", "create", "host.example", "3260").getMessage());
        assertEquals("EINVAL: port 70000 outside 1..65535", fails("EINVAL", TPG + "/portals", "create", "10.0.0.1", "70000")
                .getMessage());
        // Another TPG of the target cannot take the same address and port; another target can.
        sh.run("/iscsi/" + IQN, "create", "2");
        assertEquals("EEXIST: network portal 10.1.2.3:3260 exists in " + TPG
                + ": TPGs within a target cannot share ip:port",
                fails("EEXIST", "/iscsi/" + IQN + "/tpg2/portals", "create", "10.1.2.3", "3260").getMessage());
    }

    @Test
    void lunsAndTheirMappings() {
        sh.run("/backstores/ramdisk", "create", "r0", "1M");
        sh.run("/backstores/ramdisk", "create", "r1", "1M");
        sh.run("/iscsi", "create", IQN);
        assertEquals("Created Node ACL for " + H1 + "\n", sh.run(TPG + "/acls", "create", H1));
        assertEquals("Created LUN 0.\nCreated LUN 0->0 mapping in node ACL " + H1 + "\n",
                sh.run(TPG + "/luns", "create", "/backstores/ramdisk/r0"));
        assertEquals("EEXIST: lun for storage object ramdisk/r0 already exists",
                fails("EEXIST", TPG + "/luns", "create", "/backstores/ramdisk/r0").getMessage());
        assertEquals("ENOENT: storage object or path not valid: /backstores/ramdisk/none",
                fails("ENOENT", TPG + "/luns", "create", "/backstores/ramdisk/none").getMessage());
        assertEquals("Created LUN 3.\nCreated LUN 3->3 mapping in node ACL " + H1 + "\n",
                sh.run(TPG + "/luns", "create", "/backstores/ramdisk/r1", "lun3"));
        assertEquals("EBUSY: storage object ramdisk/r1 is in use by " + TPG + "/luns/lun3",
                fails("EBUSY", "/backstores/ramdisk", "delete", "r1").getMessage());
        assertEquals(List.of(0, 3), mapped());
        assertEquals("Deleted LUN 3.\n", sh.run(TPG + "/luns", "delete", "lun3"));
        assertEquals(List.of(0), mapped(), "the LUN's mappings go with it");
        assertEquals("ENOENT: No LUN 3 in " + TPG + "/luns", fails("ENOENT", TPG + "/luns", "delete", "3").getMessage());
        assertEquals("Deleted storage object r1.\n", sh.run("/backstores/ramdisk", "delete", "r1"));
    }

    private List<Integer> mapped() {
        return sh.t.store.read(null).acls(new org.rdma.target.internal.config.Spec.TpgKey("iscsi", IQN, 1)).get(0).spec()
                .mappedLuns().stream().map(m -> m.tpgLun()).toList();
    }

    @Test
    void aclsAndMappedLuns() {
        sh.run("/backstores/ramdisk", "create", "r0", "1M");
        sh.run("/iscsi", "create", IQN);
        sh.run(TPG + "/luns", "create", "/backstores/ramdisk/r0");
        assertEquals("Created Node ACL for " + H1 + "\nCreated mapped LUN 0.\n",
                sh.run(TPG + "/acls", "create", "IQN.1994-05.com.example:HOST1"));
        assertEquals("EEXIST: ACL for " + H1 + " exists in " + TPG, fails("EEXIST", TPG + "/acls", "create", H1).getMessage());
        fails("EINVAL", TPG + "/acls", "create", "host1");
        String acl = TPG + "/acls/" + H1;
        assertEquals("Warning: TPG LUN 0 already mapped to this NodeACL\nCreated Mapped LUN 7.\n",
                sh.run(acl, "create", "7", "0", "write_protect=true"));
        assertEquals("EEXIST: " + acl + "/mapped_lun7 exists", fails("EEXIST", acl, "create", "7", "0").getMessage());
        assertEquals("ENOENT: No LUN 4 in " + TPG + "/luns", fails("ENOENT", acl, "create", "8", "lun4").getMessage());
        assertEquals("EINVAL: mapped_lun must be an integer: 'x'", fails("EINVAL", acl, "create", "x", "0").getMessage());
        // A storage object not yet exported gets a LUN first.
        sh.run("/backstores/ramdisk", "create", "r1", "1M");
        assertEquals("Created LUN 1.\nCreated Mapped LUN 2.\n", sh.run(acl, "create", "2", "/backstores/ramdisk/r1"));
        assertEquals("Deleted Mapped LUN 7.\n", sh.run(acl, "delete", "7"));
        fails("ENOENT", acl, "delete", "7");
        // The path takes the initiator's name in any case, as the fabric normalizes it.
        assertTrue(sh.run("ls", TPG + "/acls/IQN.1994-05.COM.EXAMPLE:HOST1").startsWith("o- " + H1 + " "));
        assertEquals("Deleted Node ACL " + H1 + ".\n", sh.run(TPG + "/acls", "delete", H1));
        assertEquals("ENOENT: No ACL for " + H1 + " in " + TPG, fails("ENOENT", TPG + "/acls", "delete", H1).getMessage());
    }

    @Test
    void tpgAttributesAuthAndEnable() {
        sh.run("/iscsi", "create", IQN);
        assertEquals("Parameter generate_node_acls is now '1'.\nParameter demo_mode_write_protect is now '0'.\n"
                + "Parameter authentication is now '0'.\n", sh.run(TPG, "set", "attribute", "generate_node_acls=1",
                        "demo_mode_write_protect=0", "authentication=0"));
        FabricTpg t = live(IQN, 1);
        assertEquals(1, t.attribute("generate_node_acls"));
        assertEquals(0, t.attribute("demo_mode_write_protect"));
        assertEquals("Parameter userid is now 'U'.\nParameter password is now 'P'.\n",
                sh.run(TPG, "set", "auth", "userid=U", "password=P"));
        assertEquals(Optional.of(new ChapCredentials("U", "P", "", "")), t.chapCredentials(H1), "demo mode: the TPG's");
        assertEquals("userid=U\npassword=P\nmutual_userid=\nmutual_password=\n", sh.run(TPG, "get", "auth"));
        assertEquals("login_timeout=15\n", sh.run(TPG, "get", "attribute", "login_timeout"));
        assertEquals("EINVAL: no TPG attribute bogus (known: authentication, cache_dynamic_acls, default_cmdsn_depth, "
                + "default_erl, demo_mode_discovery, demo_mode_write_protect, fabric_prot_type, generate_node_acls, "
                + "login_keys_workaround, login_timeout, netif_timeout, prod_mode_write_protect, t10_pi, "
                + "tpg_enabled_sendtargets)", fails("EINVAL", TPG, "set", "attribute", "bogus=1").getMessage());
        assertEquals("EINVAL: TPG attribute login_timeout=99 outside 5..30",
                fails("EINVAL", TPG, "set", "attribute", "login_timeout=99").getMessage());
        assertEquals("EINVAL: Not setting login_timeout! 'x' is not a number.",
                fails("EINVAL", TPG, "set", "attribute", "login_timeout=x").getMessage());
        assertEquals("EINVAL: Unknown parameter secret in group 'auth' (userid, password, mutual_userid, mutual_password)",
                fails("EINVAL", TPG, "set", "auth", "secret=1").getMessage());
        fails("EINVAL", TPG, "set", "parameter", "MaxConnections=2");
        assertEquals(15, live(IQN, 1).attribute("login_timeout"), "a failed set changes nothing");

        assertEquals("The TPGT has been disabled.\n", sh.run(TPG, "disable"));
        assertFalse(live(IQN, 1).enabled());
        assertEquals("The TPGT is already disabled.\n", sh.run(TPG, "disable"));
        assertEquals("The TPGT has been enabled.\n", sh.run(TPG, "enable"));
        assertTrue(live(IQN, 1).enabled());
    }

    @Test
    void targetsAndTpgsAreDeletedWithEverythingUnderThem() {
        sh.run("/backstores/ramdisk", "create", "r0", "1M");
        sh.run("/iscsi", "create", IQN);
        sh.run(TPG + "/luns", "create", "/backstores/ramdisk/r0");
        sh.run(TPG + "/acls", "create", H1);
        assertEquals("Created TPG 2.\nDefault portal not created, TPGs within a target cannot share ip:port.\n",
                sh.run("/iscsi/" + IQN, "create"));
        assertEquals("EEXIST: /iscsi/" + IQN + "/tpg2 exists", fails("EEXIST", "/iscsi/" + IQN, "create", "tpg2").getMessage());
        assertEquals("Deleted TPGT 2.\n", sh.run("/iscsi/" + IQN, "delete", "tpg2"));
        assertEquals("ENOENT: No such TPG /iscsi/" + IQN + "/tpg2", fails("ENOENT", "/iscsi/" + IQN, "delete", "2").getMessage());
        assertEquals("Deleted Target " + IQN + ".\n", sh.run("/iscsi", "delete", IQN));
        assertTrue(sh.t.tree.tpg("iscsi", IQN, 1).isEmpty());
        assertEquals(1, configurations(), "only the storage object is left");
        assertEquals("ENOENT: No such target " + IQN + " in /iscsi", fails("ENOENT", "/iscsi", "delete", IQN).getMessage());
    }

    @Test
    void pathsAndCommandsThatDoNotExist() {
        assertEquals("ENOENT: No such path /iscsi/iqn.2003-01.org.example:none",
                fails("ENOENT", "/iscsi/iqn.2003-01.org.example:none", "ls").getMessage());
        assertEquals("ENOENT: No such path /backstores/block", fails("ENOENT", "ls", "/backstores/block").getMessage());
        assertEquals("EINVAL: Command not found frobnicate at /backstores", fails("EINVAL", "/backstores", "frobnicate")
                .getMessage());
        assertEquals("EINVAL: Command not found saveconfig at /iscsi", fails("EINVAL", "/iscsi", "saveconfig").getMessage());
        fails("EINVAL");
        assertEquals("/backstores/ramdisk\n", sh.run("/backstores/ramdisk/../ramdisk/.", "pwd"));
    }

    @Test
    void saveconfigClearconfigRestoreconfig() throws Exception {
        sh.run("/backstores/ramdisk", "create", "r0", "1M");
        sh.run("/iscsi", "create", IQN);
        sh.run(TPG + "/luns", "create", "/backstores/ramdisk/r0");
        String tree = sh.run("ls");
        Path saved = dir.resolve("etc/target/saveconfig.json");
        assertEquals("Configuration saved to " + saved + "\n", sh.run("saveconfig"));
        Path other = dir.resolve("other.json");
        assertEquals("Configuration saved to " + other + "\n", sh.run("saveconfig", other.toString()));
        assertEquals(Files.readString(saved), Files.readString(other));

        assertEquals("EINVAL: As a precaution, confirm=True needs to be set", fails("EINVAL", "clearconfig").getMessage());
        assertEquals("All configuration cleared\n", sh.run("clearconfig", "confirm=True"));
        assertEquals(0, configurations());
        assertTrue(sh.t.tree.tpg("iscsi", IQN, 1).isEmpty());

        assertEquals("Configuration restored from " + saved + "\n", sh.run("restoreconfig"));
        assertEquals(tree, sh.run("ls"));
        assertTrue(sh.t.tree.tpg("iscsi", IQN, 1).isPresent());
        assertEquals("EEXIST: storageobject 'ramdisk:r0' exist not restoring", fails("EEXIST", "restoreconfig").getMessage());
        assertEquals("Configuration restored from " + other + "\n", sh.run("restoreconfig", other.toString(),
                "clear_existing=true"));
        assertEquals(tree, sh.run("ls"));
        fails("ENOENT", "restoreconfig", dir.resolve("none.json").toString());
    }

    @Test
    void restoreconfigNamesWhatItSkipped() throws Exception {
        Path f = Files.writeString(dir.resolve("s.json"), """
                {"storage_objects": [{"plugin": "block", "name": "sdb", "dev": "/dev/sdb"},
                                     {"plugin": "ramdisk", "name": "r0", "size": 1048576}]}
                """);
        assertEquals("EINVAL: Configuration restored, 1 recoverable errors:\n"
                + "EINVAL: storage object sdb: plugin block is not supported (fileio, ramdisk), skipped",
                fails("EINVAL", "restoreconfig", f.toString()).getMessage());
        assertEquals(1, configurations(), "what could be restored was");
    }
}
