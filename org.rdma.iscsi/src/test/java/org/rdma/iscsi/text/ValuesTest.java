package org.rdma.iscsi.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** RFC 7143 6.1's value encodings. */
class ValuesTest {
    @Test
    void numbersInDecimalHexAndBase64() {
        assertEquals(8192, Values.parseNumber("8192"));
        assertEquals(8192, Values.parseNumber("0x2000"));
        assertEquals(8192, Values.parseNumber("0X2000"));
        assertEquals(8192, Values.parseNumber("0bIAA="));
        assertEquals(0xfff, Values.parseNumber("0xfff"), "an odd count of hex digits");
        assertEquals(-1, Values.parseNumber(""));
        assertEquals(-1, Values.parseNumber("-1"));
        assertEquals(-1, Values.parseNumber("12a"));
        assertEquals(-1, Values.parseNumber("99999999999999999999"));
        assertEquals(-1, Values.parseNumber("0x010203040506070809"), "more than 64 bits");
    }

    @Test
    void binaryValues() {
        assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, Values.parseBinary("0x0102ff"));
        assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, Values.parseBinary("0bAQL/"));
        assertEquals("0x0102ff", Values.hex(new byte[] {1, 2, (byte) 0xff}));
        assertEquals("0bAQL/", Values.base64(new byte[] {1, 2, (byte) 0xff}));
        assertNull(Values.parseBinary("0x"));
        assertNull(Values.parseBinary("0xgg"));
        assertNull(Values.parseBinary("0b!!"));
        assertNull(Values.parseBinary("1234"));
    }

    @Test
    void booleans() {
        assertEquals(Boolean.TRUE, Values.parseBoolean("Yes"));
        assertEquals(Boolean.FALSE, Values.parseBoolean("No"));
        assertNull(Values.parseBoolean("yes"), "case matters");
    }
}
