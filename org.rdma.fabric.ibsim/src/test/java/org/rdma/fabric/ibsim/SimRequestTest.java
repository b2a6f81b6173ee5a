package org.rdma.fabric.ibsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@code struct sim_request} against byte vectors worked out from ibsim's include/ibsim.h and the
 * way umad2sim_write() and ibsim's process_packet() fill it on a little-endian 64-bit host.
 */
class SimRequestTest {
    private static final HexFormat HEX = HexFormat.of();

    /** SubnAdmGet(PathRecord) header: base 1, class SA, version 2, Get, TID 0x0000000100000007, attr 0x35. */
    private static final String SA_GET = "01030201" + "00000000" + "0000000100000007" + "0035" + "0000"
            + "00000000";

    @Test
    void saRequestFromLid3ToTheSmAtLid1() {
        byte[] mad = new byte[256];
        byte[] hdr = HEX.parseHex(SA_GET);
        System.arraycopy(hdr, 0, mad, 0, hdr.length);
        SimRequest r = SimRequest.of(1, 3, 1, 1, mad);
        byte[] wire = r.pack();
        assertEquals(288, wire.length);
        String expected = ""
                + "0001" + "0000"           // dlid: htons(1) stored in a u32: LID bytes first
                + "0003" + "0000"           // slid: htons(3)
                + "00000001"                // dqp: htonl(1)
                + "00000001"                // sqp: htonl(1)
                + "00000000"                // status
                + "00000000"                // padding before the u64
                + "0000000000000100"        // length: htobe64(256)
                + SA_GET + "00".repeat(256 - SA_GET.length() / 2);
        assertEquals(expected, HEX.formatHex(wire));
        SimRequest back = SimRequest.unpack(wire, 0, wire.length);
        assertEquals(r, back);
        assertEquals(0x0000000100000007L, back.tid());
        assertEquals(0x03, back.mgmtClass());
        assertFalse(back.isResponse());
    }

    @Test
    void bouncedFrameCarriesEtimedoutInNetworkOrder() {
        byte[] wire = new byte[288];
        wire[1] = 9;            // dlid 9
        wire[19] = 110;         // status htonl(110)
        wire[31] = (byte) 0x80; // length 128
        wire[32 + 3] = (byte) 0x81;
        SimRequest r = SimRequest.unpack(wire, 0, 288);
        assertEquals(9, r.dlid);
        assertEquals(SimRequest.STATUS_TIMEOUT, r.status);
        assertEquals(128, r.length);
        assertTrue(r.isResponse());
    }

    @Test
    void permissiveLidsAndTidRewrite() {
        SimRequest r = SimRequest.of(0xFFFF, 0xFFFF, 0, 0, new byte[256]);
        byte[] wire = r.pack();
        assertEquals("ffff0000ffff0000", HEX.formatHex(wire, 0, 8));
        r.setTid(0x0002_0000_1234_5678L);
        assertEquals("0002000012345678", HEX.formatHex(r.pack(), 32 + 8, 32 + 16));
    }

    @Test
    void wrongSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> SimRequest.unpack(new byte[287], 0, 287));
        assertThrows(IllegalArgumentException.class, () -> SimRequest.unpack(new byte[512], 0, 289));
        assertThrows(IllegalArgumentException.class, () -> SimRequest.of(1, 1, 1, 1, new byte[257]));
    }
}
