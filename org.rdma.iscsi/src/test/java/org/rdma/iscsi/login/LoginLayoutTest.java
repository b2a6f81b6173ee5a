package org.rdma.iscsi.login;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.pdu.PduReader;

/**
 * A Login Request and its Login Response laid out by hand from the figures of RFC 7143 11.12 and
 * 11.13 (one row of hex per 4-byte line of the figure), and the headers of the final pair: the
 * initiator writes exactly the request, the target answers it with exactly the response.
 */
class LoginLayoutTest {

    static byte[] rows(String... rows) {
        return HexFormat.of().parseHex(String.join("", rows).replace(" ", ""));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** 11.12: the first request, in the security stage, asking for the operational stage. */
    static final byte[] FIRST_REQUEST = concat(rows(
            "43 81 00 00", // I=1 0x03 | T=1 C=0 CSG=0 NSG=1 | Version-max 0 | Version-min 0
            "00 00 00 72", // TotalAHSLength 0 | DataSegmentLength 114
            "00 02 3d 00", // ISID: T=00b A=0 (OUI format), B=0x023d, C=0x00,
            "00 01 00 00", //   D=0x0001 | TSIH 0: a new session
            "00 00 00 10", // Initiator Task Tag
            "00 01 00 00", // CID 1 | reserved
            "00 00 00 20", // CmdSN
            "00 00 00 00", // ExpStatSN
            "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00"),
            concat(ascii("InitiatorName=iqn.2005-03.org.open-iscsi:h1\0SessionType=Normal\0"
                    + "TargetName=iqn.2003-01.org.rdma:t1\0AuthMethod=None\0"), rows("00 00")));

    /** 11.13: the answer, moving to the operational stage, with the declarations of a normal session. */
    static final byte[] FIRST_RESPONSE = concat(rows(
            "23 81 00 00", // 0x23 | T=1 C=0 CSG=0 NSG=1 | Version-max 0 | Version-active 0
            "00 00 00 3f", // TotalAHSLength 0 | DataSegmentLength 63
            "00 02 3d 00", // ISID as sent
            "00 01 00 00", //   | TSIH 0 until the final response
            "00 00 00 10", // Initiator Task Tag as sent
            "00 00 00 00", // reserved
            "00 00 50 00", // StatSN: the connection's first
            "00 00 00 20", // ExpCmdSN: the login's CmdSN
            "00 00 00 20", // MaxCmdSN: no window before the final response
            "00 00 00 00", // Status-Class 0 | Status-Detail 0 | reserved
            "00 00 00 00", "00 00 00 00"),
            concat(ascii("AuthMethod=None\0TargetPortalGroupTag=1\0TargetAlias=disk target\0"), rows("00")));

    /** 11.12: the operational stage asking for the full feature phase (data checked in LoginTest). */
    static final byte[] FINAL_REQUEST_HEADER = rows(
            "43 87 00 00", // T=1 C=0 CSG=1 NSG=3
            "00 00 01 1f", // DataSegmentLength 287: the offers
            "00 02 3d 00", "00 01 00 00",
            "00 00 00 10", "00 01 00 00", "00 00 00 20",
            "00 00 50 01", // ExpStatSN: the first response acknowledged
            "00 00 00 00", "00 00 00 00", "00 00 00 00", "00 00 00 00");

    /** 11.13: the final response, with the new session's TSIH and the command window. */
    static final byte[] FINAL_RESPONSE_HEADER = rows(
            "23 87 00 00", // T=1 C=0 CSG=1 NSG=3
            "00 00 01 1d", // DataSegmentLength 285: the answers
            "00 02 3d 00", "00 01 12 34", // TSIH 0x1234 assigned
            "00 00 00 10", "00 00 00 00",
            "00 00 50 01", // StatSN
            "00 00 00 20", // ExpCmdSN
            "00 00 00 3f", // MaxCmdSN: a window of 32 commands
            "00 00 00 00", "00 00 00 00", "00 00 00 00");

    @Test
    void theFirstPairAndTheFinalHeadersAreTheFigures() {
        TestPolicy policy = new TestPolicy();
        Link link = new Link();
        TargetLogin target = new TargetLogin(policy, new Random(), 0x5000);
        InitiatorLogin initiator = new InitiatorLogin(LoginTest.config(), new Random(1));
        assertEquals(LoginState.FULL_FEATURE, link.run(initiator, target));
        assertEquals(Link.hex(FIRST_REQUEST), Link.hex(link.requests.get(0)));
        assertEquals(Link.hex(FIRST_RESPONSE), Link.hex(link.responses.get(0)));
        assertEquals(Link.hex(FINAL_REQUEST_HEADER), Link.hex(Arrays.copyOf(link.requests.get(1), 48)));
        assertEquals(Link.hex(FINAL_RESPONSE_HEADER), Link.hex(Arrays.copyOf(link.responses.get(1), 48)));
    }

    @Test
    void theTargetAnswersTheHandWrittenRequest() {
        Link link = new Link();
        TargetLogin target = new TargetLogin(new TestPolicy(), new Random(), 0x5000);
        PduReader r = Link.read(link.atTarget, FIRST_REQUEST);
        assertEquals(LoginState.IN_PROGRESS, target.receive(r.bhs(), r.data(), link.writer, link.out));
        assertEquals(Link.hex(FIRST_RESPONSE), Link.hex(link.take()));
    }
}
