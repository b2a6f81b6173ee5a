package org.rdma.target.internal.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code targetcli ls} byte for byte. The expected trees were printed by configshell-fb's own
 * {@code ConfigNode._render_tree()} over nodes whose summaries came from targetcli-fb's own
 * {@code summary()} methods (ui_backstore.py, ui_target.py), fed the same objects, as targetcli
 * prints when its output is not a terminal (132 columns, no colours).
 */
class TargetcliLsTest {
    static final String T1 = "iqn.2003-01.org.example:t1";
    static final String T2 = "iqn.2003-01.org.example:t2";
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

    @Test
    void theWholeTree() {
        sh.run("/backstores/ramdisk", "create", "r0", "64M");
        sh.run("/backstores/ramdisk", "create", "r1", "1G", "block_size=4096");
        sh.run("/backstores/ramdisk", "create", "big", "1280M");
        sh.run("/iscsi", "create", T1);
        String tpg1 = "/iscsi/" + T1 + "/tpg1";
        sh.run(tpg1 + "/luns", "create", "/backstores/ramdisk/r0");
        sh.run(tpg1 + "/luns", "create", "/backstores/ramdisk/r1", "lun=10");
        sh.run(tpg1 + "/luns", "create", "/backstores/ramdisk/big", "2");
        sh.run(tpg1 + "/acls", "create", H1);
        sh.run(tpg1 + "/acls/" + H1, "create", "5", "lun2", "write_protect=1");
        sh.run(tpg1 + "/portals", "create", "127.0.0.1", "3261");
        sh.run(tpg1, "set", "attribute", "authentication=1");
        sh.run(tpg1 + "/acls/" + H1, "set", "auth", "userid=iu", "password=ip", "mutual_userid=mu", "mutual_password=mp");
        sh.run("/iscsi", "create", T2);
        sh.run("/iscsi/" + T2, "create");
        sh.run("/iscsi/" + T2 + "/tpg2", "disable");
        sh.run("/iscsi/" + T2 + "/tpg1", "set", "attribute", "generate_node_acls=1", "demo_mode_write_protect=0");
        assertEquals("""
o- / ......................................................................................................................... [...]
  o- backstores .............................................................................................................. [...]
  | o- fileio ................................................................................................. [Storage Objects: 0]
  | o- ramdisk ................................................................................................ [Storage Objects: 3]
  |   o- big .................................................................................................. [(1.2GiB) activated]
  |   o- r0 .................................................................................................. [(64.0MiB) activated]
  |   o- r1 ................................................................................................... [(1.0GiB) activated]
  o- iscsi ............................................................................................................ [Targets: 2]
    o- iqn.2003-01.org.example:t1 ........................................................................................ [TPGs: 1]
    | o- tpg1 .......................................................................................... [no-gen-acls, auth per-acl]
    |   o- acls .......................................................................................................... [ACLs: 1]
    |   | o- iqn.1994-05.com.example:host1 ........................................................... [mutual auth, Mapped LUNs: 4]
    |   |   o- mapped_lun0 .................................................................................. [lun0 ramdisk/r0 (rw)]
    |   |   o- mapped_lun2 ................................................................................. [lun2 ramdisk/big (rw)]
    |   |   o- mapped_lun5 ................................................................................. [lun2 ramdisk/big (ro)]
    |   |   o- mapped_lun10 ................................................................................ [lun10 ramdisk/r1 (rw)]
    |   o- luns .......................................................................................................... [LUNs: 3]
    |   | o- lun0 ..................................................................................................... [ramdisk/r0]
    |   | o- lun2 .................................................................................................... [ramdisk/big]
    |   | o- lun10 .................................................................................................... [ramdisk/r1]
    |   o- portals .................................................................................................... [Portals: 2]
    |     o- 0.0.0.0:3260 ..................................................................................................... [OK]
    |     o- 127.0.0.1:3261 ................................................................................................... [OK]
    o- iqn.2003-01.org.example:t2 ........................................................................................ [TPGs: 2]
      o- tpg1 .................................................................................................. [gen-acls, no-auth]
      | o- acls .......................................................................................................... [ACLs: 0]
      | o- luns .......................................................................................................... [LUNs: 0]
      | o- portals .................................................................................................... [Portals: 1]
      |   o- 0.0.0.0:3260 ..................................................................................................... [OK]
      o- tpg2 ........................................................................................................... [disabled]
        o- acls .......................................................................................................... [ACLs: 0]
        o- luns .......................................................................................................... [LUNs: 0]
        o- portals .................................................................................................... [Portals: 0]
""", sh.run("ls"));
        assertEquals("""
o- tpg1 ................................................................................................ [no-gen-acls, auth per-acl]
  o- acls ................................................................................................................ [ACLs: 1]
  o- luns ................................................................................................................ [LUNs: 3]
  o- portals .......................................................................................................... [Portals: 2]
""", sh.run("ls", tpg1, "1"));
        assertEquals(sh.run("ls", tpg1, "1"), sh.run(tpg1, "ls", "depth=1"), "ls PATH is ls at PATH");
        assertEquals(sh.run("ls", tpg1, "1"), sh.run("/iscsi/" + T2 + "/../" + T1 + "/./tpg1/luns/..", "ls", ".", "1"));
    }

    /** A line of the expected tree with a placeholder path of another length: the dots make up the difference. */
    private static String fit(String line, String placeholder, String path) {
        int extra = path.length() - placeholder.length();
        int dots = line.indexOf(" [") - line.lastIndexOf(' ', line.indexOf(" [") - 1) - 1;
        int start = line.indexOf(" [") - dots;
        return (line.substring(0, start) + ".".repeat(Math.max(0, dots - extra)) + line.substring(start + dots))
                .replace(placeholder, path);
    }

    @Test
    void fileioAndItsLun() {
        Path f = dir.resolve("disk0.img");
        sh.run("/backstores/fileio", "create", "disk0", f.toString(), "1G", "write_back=false");
        String ph = "/PLACEHOLDER/disk0.img";
        assertEquals("""
o- / ......................................................................................................................... [...]
  o- backstores .............................................................................................................. [...]
  | o- fileio ................................................................................................. [Storage Objects: 1]
%s
  | o- ramdisk ................................................................................................ [Storage Objects: 0]
  o- iscsi ............................................................................................................ [Targets: 0]
""".formatted(fit("  | | o- disk0 ............................................................ "
                + "[/PLACEHOLDER/disk0.img (1.0GiB) write-thru deactivated]", ph, f.toString())), sh.run("ls"));
        sh.run("/iscsi", "create", T1);
        sh.run("/iscsi/" + T1 + "/tpg1/luns", "create", "/backstores/fileio/disk0");
        assertEquals(fit("o- lun0 .................................................................................... "
                + "[fileio/disk0 (/PLACEHOLDER/disk0.img)]", ph, f.toString()) + "\n",
                sh.run("ls", "/iscsi/" + T1 + "/tpg1/luns/lun0"));
        // In use by a LUN, the storage object is activated.
        assertEquals(true, sh.run("ls", "/backstores/fileio").contains(" write-thru activated]\n"));
    }
}
