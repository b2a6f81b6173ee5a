package org.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import org.junit.jupiter.api.Test;

/** The core hands out copies of device and port attributes; a caller's change must not leak back. */
class AttrCopyTest {
    @Test
    void deviceAttrCopyIsIndependent() {
        DeviceAttr a = new DeviceAttr();
        a.vendorId = 0x02c9;
        a.deviceCapFlags = DeviceCapFlags.MEM_MGT_EXTENSIONS;
        DeviceAttr c = a.copy();
        assertNotSame(a, c);
        assertEquals(0x02c9, c.vendorId);
        c.vendorId = 1;
        assertEquals(0x02c9, a.vendorId);
        assertEquals(true, c.has(DeviceCapFlags.MEM_MGT_EXTENSIONS));
    }

    @Test
    void portAttrCopyIsIndependent() {
        PortAttr p = new PortAttr();
        p.lid = 7;
        p.state = PortState.ACTIVE;
        PortAttr c = p.copy();
        c.lid = 9;
        assertEquals(7, p.lid);
        assertEquals(PortState.ACTIVE, c.state);
    }
}
