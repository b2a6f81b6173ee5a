package org.rdma.target.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.TargetException;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * The two ways a file reaches the configuration: a saveconfig.json restored at start or by
 * {@code restoreconfig}, and a Karaf {@code .cfg} file's strings. Each either yields objects
 * that survive a save and a restore unchanged, or is refused with EINVAL; nothing else escapes.
 */
class SaveconfigFuzzTest {
    private static final Map<String, FabricModule> MODULES = Map.of("iscsi", new IscsiFabricModule());

    private static String dump(List<Spec> specs) {
        Map<String, Spec> byOrder = new LinkedHashMap<>();
        specs.forEach(s -> byOrder.put(String.format("%08d", byOrder.size()), s));
        return Json.write(Saveconfig.dump(new ConfigModel(byOrder)));
    }

    /** The whole input as the text of a saveconfig.json. */
    @FuzzTest
    void load(byte[] input) {
        Object json;
        try {
            json = Json.parse(new String(input, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("EINVAL: JSON: "), e.getMessage());
            return;
        }
        Saveconfig.Loaded l;
        try {
            l = Saveconfig.load(json, MODULES);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("EINVAL: saveconfig: "), e.getMessage());
            return;
        }
        l.errors().forEach(e -> assertTrue(e.matches("E[A-Z]+: .*, skipped"), e));
        String once = dump(l.specs());
        Saveconfig.Loaded again = Saveconfig.load(Json.parse(once), MODULES);
        assertEquals(List.of(), again.errors(), once);
        assertEquals(once, dump(again.specs()));
    }

    /** The input as a Karaf .cfg file (key=value lines) of the factory PID its first byte picks. */
    @FuzzTest
    void properties(byte[] input) {
        if (input.length == 0) {
            return;
        }
        String pid = Pids.FACTORIES.get((input[0] & 0xFF) % Pids.FACTORIES.size());
        Map<String, String> cfg = new LinkedHashMap<>();
        for (String line : new String(input, 1, input.length - 1, StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                cfg.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        Spec s;
        try {
            s = SpecProperties.parse(pid, cfg);
        } catch (TargetException e) {
            assertEquals("EINVAL", e.errno(), e.getMessage());
            return;
        }
        assertEquals(s, SpecProperties.parse(pid, SpecProperties.toProperties(s)));
    }

    private static byte[] cfg(String pid, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[t.length + 1];
        b[0] = (byte) Pids.FACTORIES.indexOf(pid);
        System.arraycopy(t, 0, b, 1, t.length);
        return b;
    }

    @Test
    void seeds() throws Exception {
        Map<String, byte[]> load = new LinkedHashMap<>();
        load.put("saved", SaveconfigTest.SAVED.getBytes(StandardCharsets.US_ASCII));
        load.put("skipped", """
                {"storage_objects": [{"plugin": "block", "name": "sdb", "dev": "/dev/sdb"},
                  {"plugin": "ramdisk", "name": "r0", "size": 1048576}],
                 "targets": [{"fabric": "iscsi", "wwn": "iqn.2003-01.org.example:t", "tpgs": [
                   {"tag": 1, "luns": [{"index": 0, "storage_object": "/backstores/ramdisk/r0"}],
                    "node_acls": [{"node_wwn": "iqn.1994-05.com.example:h", "mapped_luns": [
                      {"index": 0, "tpg_lun": 0, "write_protect": true}]}]}]}]}
                """.getBytes(StandardCharsets.US_ASCII));
        load.put("not-json", "{\"targets\": [".getBytes(StandardCharsets.US_ASCII));
        FuzzSeeds.check(SaveconfigFuzzTest.class, "load", load);
        Map<String, byte[]> props = new LinkedHashMap<>();
        props.put("fileio", cfg(Pids.FILEIO, "name=disk0\nfile=/srv/disk0.img\nsize=1073741824\nblock.size=4096\n"
                + "write.back=false\nthin.provisioning=true\n"));
        props.put("tpg", cfg(Pids.TPG, "wwn=iqn.2003-01.org.example:t\ntag=1\ngenerate.node.acls=1\nauthentication=0\n"));
        props.put("acl", cfg(Pids.ACL, "wwn=iqn.2003-01.org.example:t\nnode.wwn=iqn.1994-05.com.example:h\n"
                + "mapped.luns=0:0, 1:2:ro\nchap.userid=u\nchap.password=p\n"));
        props.put("portal", cfg(Pids.PORTAL, "wwn=iqn.2003-01.org.example:t\nip.address=::1\nport=3261\n"));
        FuzzSeeds.check(SaveconfigFuzzTest.class, "properties", props);
    }
}
