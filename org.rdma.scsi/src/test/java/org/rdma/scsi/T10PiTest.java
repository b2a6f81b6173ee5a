package org.rdma.scsi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The T10-DIF CRC against its published check value and a hand-computed case, and the tuple layout. */
class T10PiTest {
    @Test
    void checkValue() {
        assertEquals(0xD0DB, T10Pi.crc16("123456789".getBytes(StandardCharsets.US_ASCII), 0, 9));
    }

    @Test
    void oneByteByLongDivision() {
        // 0x01 followed by 16 zero bits, divided by 1_8BB7h: 1_0000_0000 -> the remainder is 8BB7h itself.
        assertEquals(0x8BB7, T10Pi.crc16(new byte[] {1}, 0, 1));
        assertEquals(0, T10Pi.crc16(new byte[512], 0, 512), "zeros have a zero guard");
    }

    @Test
    void tupleIsBigEndianGuardApplicationReference() {
        ByteBuffer b = ByteBuffer.allocate(10);
        T10Pi.put(b, 2, 0xD0DB, 0x1234, 0x89ABCDEFL);
        assertArrayEquals(new byte[] {0, 0, (byte) 0xD0, (byte) 0xDB, 0x12, 0x34, (byte) 0x89, (byte) 0xAB, (byte) 0xCD,
            (byte) 0xEF}, b.array());
        assertEquals(0xD0DB, T10Pi.guard(b, 2));
        assertEquals(0x1234, T10Pi.applicationTag(b, 2));
        assertEquals(0x89ABCDEFL, T10Pi.referenceTag(b, 2));
    }
}
