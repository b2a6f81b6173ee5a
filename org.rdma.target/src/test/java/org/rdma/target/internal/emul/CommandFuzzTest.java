package org.rdma.target.internal.emul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Opcode;
import org.rdma.target.fabric.DataDirection;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * Every parse and execute step a CDB and its data-out reach from the wire, on a thin ramdisk
 * formatted with type 2 protection (so the 32-byte CDBs and the protect fields are live): each
 * command ends in a status (CHECK CONDITION with sense, or another without; the harness fails on
 * any other exception), and never moves more data-in than an allocation or transfer length allows.
 */
class CommandFuzzTest {
    /** Byte 0: the CDB length (6 to 32); then the CDB; the rest is the data-out. */
    @FuzzTest
    void command(byte[] input) {
        if (input.length < 1) {
            return;
        }
        int len = Math.min(6 + (input[0] & 0xFF) % 27, input.length - 1);
        byte[] cdb = Arrays.copyOfRange(input, 1, 1 + len);
        byte[] data = Arrays.copyOfRange(input, 1 + len, input.length);
        Harness h = new Harness(Harness.device(new RamdiskBackstore(64 * 4096, 512, 2),
                DeviceAttributes.DEFAULTS.withThinProvisioning(true)));
        Harness.Result r = h.run(cdb, data);
        if (r.dir() == DataDirection.DATA_IN) {
            long mostRead = h.dev.maxTransferBlocks() * (h.dev.blockSize() + 8);
            assertTrue(r.data().length <= Math.max(Cmd.MAX_ALLOCATION, mostRead), "data-in beyond any allocation or transfer length");
        }
        assertEquals(1, h.events.stream().filter(e -> e.startsWith("status")).count());
    }

    @Test
    void seeds() throws Exception {
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("read32-rdprotect", seed(Cdb.variableLength32(Opcode.VL_READ_32, 1 << 5, 3, 1, 3, 0, 0), new byte[0]));
        seeds.put("write10-wrprotect", seed(Cdb.write10(1, 1, 0x20), new byte[520]));
        byte[] prout = new byte[24];
        prout[15] = 1;
        seeds.put("prout-register", seed(Cdb.persistentReserveOut(Opcode.PRO_REGISTER, 0, 24), prout));
        byte[] caching = java.util.HexFormat.of().parseHex("00000000" + "0812" + "00".repeat(18));
        seeds.put("mode-select", seed(Cdb.modeSelect6(true, false, caching.length), caching));
        byte[] unmap = Cdb.unmapParameterList(0, 8);
        seeds.put("unmap", seed(Cdb.unmap(unmap.length), unmap));
        FuzzSeeds.check(CommandFuzzTest.class, "command", seeds);
    }

    private static byte[] seed(byte[] cdb, byte[] data) {
        byte[] s = new byte[1 + cdb.length + data.length];
        s[0] = (byte) (cdb.length - 6);
        System.arraycopy(cdb, 0, s, 1, cdb.length);
        System.arraycopy(data, 0, s, 1 + cdb.length, data.length);
        return s;
    }
}
