package org.rdma.target.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.target.fabric.TargetException;

/** Specs to Config Admin properties and back, and the Metatype the components declare for them. */
class SpecPropertiesTest {
    @Test
    void everySpecReadsBackEqual() {
        for (Spec s : SaveconfigTest.model().byPid().values()) {
            assertEquals(s, SpecProperties.parse(s.factoryPid(), SpecProperties.toProperties(s)), s.path());
        }
    }

    /**
     * The Metatype of each component names exactly the keys the parser reads, with the same
     * defaults: a Karaf user who fills in {@code config:meta}'s fields gets what the parser makes.
     */
    @Test
    void theMetatypeDescribesTheKeysAndDefaultsTheParserUses() throws Exception {
        Map<String, Class<?>> ocds = Map.of(Pids.FILEIO, FileioComponent.Config.class, Pids.RAMDISK,
                RamdiskComponent.Config.class, Pids.TARGET, TargetComponent.Config.class, Pids.TPG,
                TpgComponent.Config.class, Pids.PORTAL, PortalComponent.Config.class, Pids.LUN,
                LunComponent.Config.class, Pids.ACL, AclComponent.Config.class);
        for (Spec s : SaveconfigTest.model().byPid().values()) {
            Class<?> ocd = ocds.get(s.factoryPid());
            Map<String, Object> written = SpecProperties.toProperties(s);
            List<String> ids = java.util.Arrays.stream(ocd.getDeclaredMethods()).map(m -> m.getName().replace('_', '.'))
                    .sorted().toList();
            assertEquals(written.keySet().stream().sorted().toList(), ids, ocd.getName());
            // Only the required keys (no default) given: the parser must fill in the Metatype defaults.
            Map<String, Object> required = new HashMap<>();
            Map<String, Object> defaults = new HashMap<>(written);
            for (Method m : ocd.getDeclaredMethods()) {
                String key = m.getName().replace('_', '.');
                if (m.getDefaultValue() == null) {
                    required.put(key, written.get(key));
                } else {
                    Object d = m.getDefaultValue();
                    defaults.put(key, d instanceof String[] a ? a : d);
                }
            }
            assertEquals(SpecProperties.parse(s.factoryPid(), defaults), SpecProperties.parse(s.factoryPid(), required),
                    ocd.getName());
        }
    }

    @Test
    void badValuesNameTheirKey() {
        Map<String, String> tpg = Map.of("wwn", "iqn.2003-01.org.example:t", "tag", "70000");
        assertEquals("EINVAL: TPG tag 70000 outside 0..65535",
                assertThrows(TargetException.class, () -> SpecProperties.parse(Pids.TPG, tpg)).getMessage());
        assertEquals("EINVAL: missing wwn", assertThrows(TargetException.class,
                () -> SpecProperties.parse(Pids.TARGET, Map.of())).getMessage());
        assertEquals("EINVAL: block size 1024 is not 512 or 4096", assertThrows(TargetException.class,
                () -> SpecProperties.parse(Pids.RAMDISK, Map.of("name", "r", "size", 1L << 20, "block.size", 1024)))
                .getMessage());
        assertEquals("EINVAL: write.back 'maybe' is not a boolean (true or false)", assertThrows(TargetException.class,
                () -> SpecProperties.parse(Pids.FILEIO, Map.of("name", "d", "file", "/f", "size", "1048576",
                        "write.back", "maybe"))).getMessage());
        assertEquals("EINVAL: mapped.luns entry '1' is not INDEX:TPG_LUN[:rw|ro]", assertThrows(TargetException.class,
                () -> SpecProperties.parse(Pids.ACL, Map.of("wwn", "iqn.x.y", "node.wwn", "i", "mapped.luns", "1")))
                .getMessage());
        assertEquals("EINVAL: mapped.luns: LUN 1 mapped twice", assertThrows(TargetException.class,
                () -> SpecProperties.parse(Pids.ACL, Map.of("wwn", "iqn.x.y", "node.wwn", "i", "mapped.luns",
                        new String[] {"1:0", "1:2:ro"}))).getMessage());
        assertEquals("EINVAL: 'example.com' is not an IPv4 or IPv6 address", assertThrows(TargetException.class,
                () -> SpecProperties.parse(Pids.PORTAL, Map.of("wwn", "iqn.x.y", "ip.address", "example.com")))
                .getMessage());
        assertEquals("EINVAL: storage object '/backstores/block/sdb' is not /backstores/fileio/NAME or"
                + " /backstores/ramdisk/NAME", assertThrows(TargetException.class, () -> SpecProperties.parse(Pids.LUN,
                        Map.of("wwn", "iqn.x.y", "index", 0, "storage.object", "/backstores/block/sdb"))).getMessage());
    }

    @Test
    void aKarafCfgListIsCommaSeparated() {
        Spec.Acl a = (Spec.Acl) SpecProperties.parse(Pids.ACL, Map.of("wwn", "iqn.x.y", "node.wwn", "i",
                "mapped.luns", "1:0:ro, 0:2"));
        assertEquals(List.of(new Spec.MappedLun(0, 2, false), new Spec.MappedLun(1, 0, true)), a.mappedLuns());
    }

    @Test
    void addressesAreLiteralsNeverNames() {
        for (String ok : new String[] {"0.0.0.0", "127.0.0.1", "255.255.255.255", "::", "::0", "[::1]", "fe80::1",
                "::ffff:10.0.0.1"}) {
            Checks.ipAddress(ok);
        }
        for (String bad : new String[] {"256.0.0.1", "1.2.3", "01.2.3.4", "localhost", "", "[::1", ":::", "1::2::3",
                "fe80::1%eth0"}) {
            assertEquals("EINVAL", assertThrows(TargetException.class, () -> Checks.ipAddress(bad), bad).errno());
        }
    }

    @Test
    void iscsiNamesAreNormalizedAsRtslibDoes() {
        IscsiFabricModule m = new IscsiFabricModule();
        assertEquals("iqn.2003-01.org.example:t1", m.normalizeWwn(" IQN.2003-01.org.Example:T1 "));
        assertEquals("naa.5001405abcdef012", m.normalizeWwn("0x5001405ABCDEF012"));
        assertEquals("naa.5001405abcdef012", m.normalizeWwn("50:01:40:5a:bc:de:f0:12"));
        assertEquals("eui.0014051234567890", m.normalizeWwn("eui.0014051234567890"));
        for (String bad : new String[] {"iqn.2003-21.org.example:t", "iqn.2003-01.example", "iqn.2003-01.org.ex_ample:t",
                "naa.4001405abcdef012", "eui.12345", "disk0"}) {
            assertEquals("EINVAL", assertThrows(TargetException.class, () -> m.normalizeWwn(bad), bad).errno());
        }
    }
}
