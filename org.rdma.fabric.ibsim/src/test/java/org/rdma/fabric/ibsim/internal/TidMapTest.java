package org.rdma.fabric.ibsim.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Undoing ibsim's update_trid(): bits 63..48 come back as the request had them. */
class TidMapTest {
    @Test
    void restoresTheBitsIbsimOverwrote() {
        TidMap m = new TidMap(8);
        m.remember(0xABCD_0001_0000_0007L);
        // ibsim put client index 3 into bits 63..48
        assertEquals(0xABCD_0001_0000_0007L, m.restore(0x0003_0001_0000_0007L));
        // RMPP segments of one response share the TID: still known
        assertEquals(0xABCD_0001_0000_0007L, m.restore(0x0003_0001_0000_0007L));
        // unknown low bits (a response to someone else's request): unchanged
        assertEquals(0x0003_0001_0000_0008L, m.restore(0x0003_0001_0000_0008L));
    }

    @Test
    void forgetsTheOldestBeyondItsCapacity() {
        TidMap m = new TidMap(2);
        m.remember(0x1111_0000_0000_0001L);
        m.remember(0x2222_0000_0000_0002L);
        m.remember(0x3333_0000_0000_0003L);
        assertEquals(2, m.size());
        assertEquals(0x0001_0000_0000_0001L, m.restore(0x0001_0000_0000_0001L));
        assertEquals(0x3333_0000_0000_0003L, m.restore(0x0001_0000_0000_0003L));
    }
}
