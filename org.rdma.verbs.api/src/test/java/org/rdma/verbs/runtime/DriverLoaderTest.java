package org.rdma.verbs.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

class DriverLoaderTest {
    @Test
    void driverAndFeatureNamesMapToOneName() {
        assertEquals("fabric", DriverLoader.driverName("fabric"));
        assertEquals("fabric", DriverLoader.driverName("rdma-fabric"));
        assertEquals("mlx4sim", DriverLoader.driverName(" mlx4sim "));
    }

    @Test
    void malformedNamesAndTheCoreAreEinval() {
        for (String bad : new String[] {"", " ", "a b", "Rxe", "rdma-", "-x", "core", "rdma-core"}) {
            assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> DriverLoader.driverName(bad)).errno(), bad);
        }
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> DriverLoader.driverName(null)).errno());
    }
}
