package org.rdma.target.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.target.fabric.ChapCredentials;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.device.DeviceIdentity;

/** The tree as targetcli's saveconfig.json, and LIO's own files read back. */
class SaveconfigTest {
    static final String IQN = "iqn.2003-01.org.example:t1";
    static final Spec.TpgKey TPG1 = new Spec.TpgKey("iscsi", IQN, 1);

    @TempDir
    Path dir;

    static ConfigModel model() {
        Map<String, Integer> attrs = TpgAttributes.defaults();
        attrs.put("authentication", 0);
        Map<String, Spec> s = new LinkedHashMap<>();
        s.put("a", new Spec.Backstore("ramdisk", "r0", "", 1 << 20, 512, true, false, false, ""));
        s.put("b", new Spec.Backstore("fileio", "disk0", "/srv/disk0.img", 4 << 20, 4096, false, true, true,
                "0f1e2d3c-aaaa-bbbb-cccc-000000000001"));
        s.put("c", new Spec.Target("iscsi", IQN));
        s.put("d", new Spec.Tpg(TPG1, true, attrs, new ChapCredentials("tu", "tp", "", "")));
        s.put("e", new Spec.Portal(TPG1, "0.0.0.0", 3260, false));
        s.put("f", new Spec.Portal(TPG1, "::1", 3261, true));
        s.put("g", new Spec.Lun(TPG1, 0, "/backstores/fileio/disk0"));
        s.put("h", new Spec.Acl(TPG1, "iqn.1994-05.com.example:host1", List.of(new Spec.MappedLun(0, 0, true)),
                new ChapCredentials("u", "p", "mu", "mp")));
        return new ConfigModel(s);
    }

    /**
     * Laid out by hand from rtslib's dump() (root.py, tcm.py, target.py) through
     * json.dump(sort_keys=True, indent=2); what this target does not have (ALUA groups, LUN
     * aliases, iSCSI parameters) is left out.
     */
    static final String SAVED = """
            {
              "fabric_modules": [],
              "storage_objects": [
                {
                  "aio": false,
                  "attributes": {
                    "block_size": 4096,
                    "emulate_tpu": 1,
                    "emulate_write_cache": 0
                  },
                  "dev": "/srv/disk0.img",
                  "name": "disk0",
                  "plugin": "fileio",
                  "readonly": true,
                  "size": 4194304,
                  "write_back": false,
                  "wwn": "0f1e2d3c-aaaa-bbbb-cccc-000000000001"
                },
                {
                  "attributes": {
                    "block_size": 512
                  },
                  "name": "r0",
                  "plugin": "ramdisk",
                  "size": 1048576,
                  "wwn": "%s"
                }
              ],
              "targets": [
                {
                  "fabric": "iscsi",
                  "tpgs": [
                    {
                      "attributes": {
                        "authentication": 0,
                        "cache_dynamic_acls": 0,
                        "default_cmdsn_depth": 64,
                        "default_erl": 0,
                        "demo_mode_discovery": 1,
                        "demo_mode_write_protect": 1,
                        "fabric_prot_type": 0,
                        "generate_node_acls": 0,
                        "login_keys_workaround": 1,
                        "login_timeout": 15,
                        "netif_timeout": 2,
                        "prod_mode_write_protect": 0,
                        "t10_pi": 0,
                        "tpg_enabled_sendtargets": 1
                      },
                      "chap_password": "tp",
                      "chap_userid": "tu",
                      "enable": true,
                      "luns": [
                        {
                          "index": 0,
                          "storage_object": "/backstores/fileio/disk0"
                        }
                      ],
                      "node_acls": [
                        {
                          "chap_mutual_password": "mp",
                          "chap_mutual_userid": "mu",
                          "chap_password": "p",
                          "chap_userid": "u",
                          "mapped_luns": [
                            {
                              "index": 0,
                              "tpg_lun": 0,
                              "write_protect": true
                            }
                          ],
                          "node_wwn": "iqn.1994-05.com.example:host1"
                        }
                      ],
                      "portals": [
                        {
                          "ip_address": "0.0.0.0",
                          "iser": false,
                          "offload": false,
                          "port": 3260
                        },
                        {
                          "ip_address": "[::1]",
                          "iser": true,
                          "offload": false,
                          "port": 3261
                        }
                      ],
                      "tag": 1
                    }
                  ],
                  "wwn": "iqn.2003-01.org.example:t1"
                }
              ]
            }
            """.formatted(DeviceIdentity.defaultSerial("ramdisk", "r0"));

    @Test
    void writesTargetclisLayoutOwnerOnly() throws Exception {
        Path f = dir.resolve("etc/target/saveconfig.json");
        Saveconfig.write(model(), f);
        assertEquals(SAVED, Files.readString(f));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(List.of("saveconfig.json"), Files.list(f.getParent()).map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void readsBackTheSameTree() throws Exception {
        Path f = dir.resolve("saveconfig.json");
        Saveconfig.write(model(), f);
        Saveconfig.Loaded l = Saveconfig.read(f, Map.of("iscsi", new IscsiFabricModule()));
        assertEquals(List.of(), l.errors());
        Map<String, Spec> byOrder = new LinkedHashMap<>();
        l.specs().forEach(s -> byOrder.put("p" + byOrder.size(), s));
        assertEquals(SAVED, Json.write(Saveconfig.dump(new ConfigModel(byOrder))) + "\n");
    }

    /**
     * A file as targetcli 2.1 on Linux writes it (ALUA groups, LUN aliases, iSCSI parameters, a
     * block device): what this target has is restored, the rest named and skipped.
     */
    @Test
    void readsLiosOwnFileSkippingWhatItCannotRestore() {
        String lio = """
                {
                  "fabric_modules": [],
                  "storage_objects": [
                    {
                      "aio": false,
                      "alua_tpgs": [
                        {
                          "alua_access_state": 0,
                          "name": "default_tg_pt_gp",
                          "tg_pt_gp_id": 0
                        }
                      ],
                      "attributes": {
                        "block_size": 512,
                        "emulate_tpu": 0,
                        "emulate_write_cache": 1,
                        "hw_max_sectors": 16384,
                        "queue_depth": 128
                      },
                      "dev": "/var/lib/disk0.img",
                      "name": "disk0",
                      "plugin": "fileio",
                      "size": 1073741824,
                      "write_back": true,
                      "wwn": "5f3f4a51-3d47-4b8e-9d3b-2a1c1b7a6e01"
                    },
                    {
                      "attributes": {"block_size": 512},
                      "dev": "/dev/sdb",
                      "name": "sdb",
                      "plugin": "block",
                      "readonly": false,
                      "write_back": false,
                      "wwn": "1c2d3e4f-0000-4000-8000-000000000002"
                    }
                  ],
                  "targets": [
                    {
                      "fabric": "iscsi",
                      "tpgs": [
                        {
                          "attributes": {"authentication": 0, "generate_node_acls": 1, "demo_mode_write_protect": 0,
                                         "login_timeout": 15, "max_cmd_sn_gap": 0},
                          "enable": true,
                          "luns": [
                            {"alias": "0f1e2d3c4b", "alua_tg_pt_gp_name": "default_tg_pt_gp", "index": 0,
                             "storage_object": "/backstores/fileio/disk0"},
                            {"alias": "aa11bb22cc", "alua_tg_pt_gp_name": "default_tg_pt_gp", "index": 1,
                             "storage_object": "/backstores/block/sdb"}
                          ],
                          "node_acls": [
                            {"attributes": {"dataout_timeout": 3}, "mapped_luns": [
                              {"alias": "9a8b7c6d5e", "index": 0, "tpg_lun": 0, "write_protect": false}],
                             "node_wwn": "IQN.1994-05.COM.EXAMPLE:HOST1"}
                          ],
                          "parameters": {"MaxRecvDataSegmentLength": "8192"},
                          "portals": [{"ip_address": "[::0]", "iser": false, "offload": false, "port": 3260}],
                          "tag": 1
                        }
                      ],
                      "wwn": "iqn.2003-01.org.linux-iscsi.host.x8664:sn.0123456789ab"
                    }
                  ]
                }
                """;
        Saveconfig.Loaded l = Saveconfig.load(Json.parse(lio), Map.of("iscsi", new IscsiFabricModule()));
        assertEquals(List.of(
                "EINVAL: storage object sdb: plugin block is not supported (fileio, ramdisk), skipped",
                "EINVAL: /iscsi/iqn.2003-01.org.linux-iscsi.host.x8664:sn.0123456789ab/tpg1: attribute max_cmd_sn_gap is not"
                        + " supported, skipped",
                "EINVAL: /iscsi/iqn.2003-01.org.linux-iscsi.host.x8664:sn.0123456789ab/tpg1 lun 1: storage object"
                        + " '/backstores/block/sdb' is not /backstores/fileio/NAME or /backstores/ramdisk/NAME, skipped"),
                l.errors());
        Spec.TpgKey key = new Spec.TpgKey("iscsi", "iqn.2003-01.org.linux-iscsi.host.x8664:sn.0123456789ab", 1);
        Map<String, Integer> attrs = TpgAttributes.defaults();
        attrs.putAll(Map.of("authentication", 0, "generate_node_acls", 1, "demo_mode_write_protect", 0));
        assertEquals(List.of(
                new Spec.Backstore("fileio", "disk0", "/var/lib/disk0.img", 1 << 30, 512, true, false, false,
                        "5f3f4a51-3d47-4b8e-9d3b-2a1c1b7a6e01"),
                new Spec.Target("iscsi", key.wwn()),
                new Spec.Tpg(key, true, attrs, ChapCredentials.NONE),
                new Spec.Lun(key, 0, "/backstores/fileio/disk0"),
                new Spec.Portal(key, "::0", 3260, false),
                // Initiator names are normalized as rtslib does (lower case).
                new Spec.Acl(key, "iqn.1994-05.com.example:host1", List.of(new Spec.MappedLun(0, 0, false)),
                        ChapCredentials.NONE)), l.specs());
    }

    @Test
    void duplicatesAndBadTypesAreSkippedAndNamed() {
        String bad = """
                {"storage_objects": [
                   {"plugin": "ramdisk", "name": "r0", "size": 1048576},
                   {"plugin": "ramdisk", "name": "r0", "size": 2097152},
                   {"plugin": "ramdisk", "name": "r1", "size": "1M"},
                   {"plugin": "ramdisk", "name": "r2", "size": 100},
                   {"plugin": "ramdisk", "name": "a/b", "size": 1048576},
                   {"plugin": "ramdisk", "size": 1048576},
                   7],
                 "targets": [{"fabric": "iscsi", "wwn": "not-an-iqn"}, {"wwn": "iqn.2003-01.org.example:x"}],
                 "fabric_modules": [{"name": "iscsi", "userid": "u"}]}
                """;
        Saveconfig.Loaded l = Saveconfig.load(Json.parse(bad), Map.of("iscsi", new IscsiFabricModule()));
        assertEquals(List.of(
                "EINVAL: storage object r1: 'size' is not an integer, skipped",
                "EINVAL: storage object r2: size 100 holds no block of 512 bytes, skipped",
                "EINVAL: storage object a/b: name 'a/b' must be a name without '/' or blanks, skipped",
                "EINVAL: storage object ?: 'name' missing, skipped",
                "EINVAL: storage object ?: storage object is not an object, skipped",
                "EINVAL: fabric module iscsi: discovery authentication is not supported, skipped",
                "EINVAL: target not-an-iqn: WWN not valid as: iqn, naa, eui: 'not-an-iqn', skipped",
                "EINVAL: target iqn.2003-01.org.example:x: 'fabric' missing, skipped",
                "EEXIST: /backstores/ramdisk/r0 appears twice, skipped"), l.errors());
        assertEquals(List.of(new Spec.Backstore("ramdisk", "r0", "", 1 << 20, 512, true, false, false, "")), l.specs());
    }

    @Test
    void aMissingOrBrokenFileNamesItsErrno() throws Exception {
        assertEquals("ENOENT", assertThrows(TargetException.class,
                () -> Saveconfig.read(dir.resolve("none.json"), Map.of())).errno());
        Path f = Files.writeString(dir.resolve("broken.json"), "{\"targets\": [");
        TargetException e = assertThrows(TargetException.class, () -> Saveconfig.read(f, Map.of()));
        assertEquals("EINVAL: " + f + ": EINVAL: JSON: End of input at line 1 column 14 path $.targets[0]", e.getMessage());
        Path top = Files.writeString(dir.resolve("list.json"), "[]");
        assertEquals("EINVAL", assertThrows(TargetException.class, () -> Saveconfig.read(top, Map.of())).errno());
    }
}
