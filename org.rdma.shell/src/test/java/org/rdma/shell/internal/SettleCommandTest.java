package org.rdma.shell.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

class SettleCommandTest {
    private static String run(SettleCommand c, String... args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        c.settle(new PrintStream(b, true, StandardCharsets.UTF_8), args);
        return b.toString(StandardCharsets.UTF_8).trim();
    }

    @Test
    void returnsOnceEnoughDevicesAreRegistered() throws Exception {
        SettleCommand c = new SettleCommand();
        c.addDevice(null);
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> run(c, "-n", "2", "-t", "30"));
        c.addDevice(null);
        assertEquals("2 RDMA devices registered", waiting.get(30, TimeUnit.SECONDS));
        assertEquals("2 RDMA devices registered", run(c));
    }

    @Test
    void timesOutWithEtimedout() {
        SettleCommand c = new SettleCommand();
        RdmaException e = assertThrows(RdmaException.class, () -> run(c, "-n", "1", "-t", "0"));
        assertEquals(Errno.ETIMEDOUT, e.errno());
        assertEquals("ETIMEDOUT: 0 of 1 RDMA devices after 0 s", e.getMessage());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> run(c, "-n", "x")).errno());
    }
}
