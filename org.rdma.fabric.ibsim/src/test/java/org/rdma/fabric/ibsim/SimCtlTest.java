package org.rdma.fabric.ibsim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@code struct sim_ctl} and {@code struct sim_client_info} against byte vectors worked out from
 * ibsim's include/ibsim.h for a little-endian host: four u32 in host order, then 64 data bytes.
 */
class SimCtlTest {
    private static final HexFormat HEX = HexFormat.of();

    /** umad2sim's sim_connect(): data port 40001, qp 0, issm set, node "java". */
    private static final String CONNECT = ""
            + "efbeadde" + "00000000" + "01000000" + "2c000000"     // magic, clientid 0, CONNECT, len 44
            + "419c0000" + "00000000" + "01000000"                  // id 40001, qp 0, issm 1
            + "6a617661" + "00".repeat(28)                          // nodeid "java\0..." (32 bytes)
            + "00".repeat(20);                                      // rest of data[64]

    @Test
    void connectRequestIsTheCStructureByteForByte() {
        SimClientInfo info = new SimClientInfo(40001, 0, true, "java");
        SimCtl c = SimCtl.request(0, SimCtl.SIM_CTL_CONNECT, info.pack());
        byte[] wire = c.pack();
        assertEquals(80, wire.length);
        assertEquals(CONNECT, HEX.formatHex(wire));
        assertEquals(44, SimClientInfo.BYTES);
    }

    @Test
    void connectReplyDecodesTheAssignedClientAndNode() {
        // ibsim's sim_ctl_new_client(): same message, id := client index 3, nodeid := node attached
        byte[] wire = HEX.parseHex(""
                + "efbeadde" + "00000000" + "01000000" + "2c000000"
                + "03000000" + "00000000" + "01000000"
                + "482d30303032633930333030303032303030" + "00".repeat(14)   // "H-0002c90300002000"
                + "00".repeat(20));
        SimCtl c = SimCtl.unpack(wire, 0, wire.length);
        assertTrue(c.hasMagic());
        assertEquals(SimCtl.SIM_CTL_CONNECT, c.type);
        SimClientInfo info = SimClientInfo.unpack(c.data);
        assertEquals(new SimClientInfo(3, 0, true, "H-0002c90300002000"), info);
        assertArrayEquals(wire, c.pack());
    }

    @Test
    void getPortInfoAndSetIsSmRequests() {
        byte[] req = new byte[64];
        req[0] = 1;
        assertEquals("efbeadde" + "07000000" + "08000000" + "40000000" + "01" + "00".repeat(63),
                HEX.formatHex(SimCtl.request(7, SimCtl.SIM_CTL_GET_PORTINFO, req).pack()));
        assertEquals("efbeadde" + "07000000" + "09000000" + "04000000" + "01000000" + "00".repeat(60),
                HEX.formatHex(SimCtl.request(7, SimCtl.SIM_CTL_SET_ISSM, new byte[] {1, 0, 0, 0}).pack()));
        assertEquals("efbeadde" + "07000000" + "02000000" + "00000000" + "00".repeat(64),
                HEX.formatHex(SimCtl.request(7, SimCtl.SIM_CTL_DISCONNECT, new byte[0]).pack()));
    }

    @Test
    void wrongSizesAndMagicAreRefused() {
        byte[] wire = HEX.parseHex(CONNECT);
        assertThrows(IllegalArgumentException.class, () -> SimCtl.unpack(wire, 0, 79));
        assertThrows(IllegalArgumentException.class, () -> SimCtl.unpack(new byte[81], 0, 81));
        wire[0] = 0;
        assertFalse(SimCtl.unpack(wire, 0, 80).hasMagic());
        assertThrows(IllegalArgumentException.class, () -> SimCtl.request(0, SimCtl.SIM_CTL_CONNECT, new byte[65]));
        assertThrows(IllegalArgumentException.class,
                () -> new SimClientInfo(1, 0, false, "a-node-id-of-thirty-two-bytes!!!"));
        // 31 bytes that are not UTF-8 fit on the wire but not, decoded with replacements, in a node id
        byte[] info = new byte[SimCtl.SIM_CTL_MAX_DATA];
        java.util.Arrays.fill(info, 12, 43, (byte) 0xFF);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SimClientInfo.unpack(info));
        assertTrue(e.getMessage().startsWith("EINVAL: "), e.getMessage());
        assertEquals("SIM_CTL_GET_PKEYS", SimCtl.typeName(SimCtl.SIM_CTL_GET_PKEYS));
        assertEquals("SIM_CTL_11", SimCtl.typeName(11));
    }
}
