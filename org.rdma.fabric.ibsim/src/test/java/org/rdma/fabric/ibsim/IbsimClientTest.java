package org.rdma.fabric.ibsim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.wire.PortInfo;

/** The pure-Java ibsim client against a stand-in simulator on loopback. */
class IbsimClientTest {
    FakeIbsim sim;

    @BeforeEach
    void start() throws IOException {
        sim = new FakeIbsim();
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    void connectSendsTheDataPortAndUsesTheAssignedSlot() throws Exception {
        sim.nodeId = "H-java";
        sim.nextClient = 4;
        try (IbsimClient c = IbsimClient.connect(sim.address(), "java", true, 2000)) {
            SimCtl connect = sim.awaitCtl(SimCtl.SIM_CTL_CONNECT, 1000);
            assertNotNull(connect);
            assertEquals(0, connect.clientId);
            assertEquals(SimClientInfo.BYTES, connect.len);
            assertEquals(new SimClientInfo(c.dataPort(), 0, true, "java"), SimClientInfo.unpack(connect.data));
            assertEquals(4, c.clientId());
            assertEquals("H-java", c.nodeId());

            // frames go to control port + 1 + slot, and come back from there
            byte[] mad = new byte[256];
            mad[1] = 3;
            c.send(SimRequest.of(1, 0, 1, 1, mad));
            SimRequest got = sim.takeFrame(4, 2000);
            assertNotNull(got);
            assertEquals(1, got.dlid);
            assertEquals(3, got.mgmtClass());
            got.status = 0;
            got.mad[3] = (byte) 0x81;
            sim.sendFrame(4, got);
            assertEquals(got, c.receive());
            sim.sendRaw(4, new byte[100]);
            assertThrows(IllegalArgumentException.class, c::receive);

            // control requests carry the client index
            PortInfo pi = new PortInfo();
            pi.lid = 7;
            pi.portState = PortInfo.PORT_STATE_ACTIVE;
            pi.localPortNum = 1;
            sim.portInfo = pi;
            assertEquals(pi, c.getPortInfo(0));
            SimCtl req = sim.awaitCtl(SimCtl.SIM_CTL_GET_PORTINFO, 1000);
            assertEquals(4, req.clientId);
            assertEquals(0, req.data[0]);
        }
        SimCtl bye = sim.awaitCtl(SimCtl.SIM_CTL_DISCONNECT, 1000);
        assertNotNull(bye, "close() sends SIM_CTL_DISCONNECT");
        assertEquals(4, bye.clientId);
    }

    @Test
    void typedRepliesDecodeInHostOrder() throws Exception {
        try (IbsimClient c = IbsimClient.connect(sim.address(), "", false, 2000)) {
            // the stand-in echoes the request data: zeros decode as zeros, the layouts as ibsim's
            assertEquals(new IbsimClient.SimPort(0, 0), c.getPort());
            assertEquals(new IbsimClient.SimVendor(0, 0, 0, 0), c.getVendor());
            assertEquals(0L, c.getGuid());
            assertArrayEquals(new byte[16], c.getGid());
            assertEquals(32, c.getPkeys().length);
            c.setIsSm(true);
            SimCtl set = sim.awaitCtl(SimCtl.SIM_CTL_SET_ISSM, 1000);
            assertEquals(1, set.dataBuffer().getInt(0));
        }
    }

    @Test
    void refusedConnectIsEnodevAndOtherRefusalsEio() throws Exception {
        sim.refuse.add(SimCtl.SIM_CTL_CONNECT);
        RdmaException e = assertThrows(RdmaException.class, () -> IbsimClient.connect(sim.address(), "nope", false, 2000));
        assertEquals(Errno.ENODEV, e.errno());
        assertTrue(e.getMessage().contains("\"nope\""), e.getMessage());
        sim.refuse.clear();
        sim.refuse.add(SimCtl.SIM_CTL_GET_PORTINFO);
        try (IbsimClient c = IbsimClient.connect(sim.address(), "x", false, 2000)) {
            assertEquals(Errno.EIO, assertThrows(RdmaException.class, () -> c.getPortInfo(0)).errno());
        }
    }

    @Test
    void silenceTimesOutAndNobodyListeningIsRefused() throws Exception {
        try (IbsimClient c = IbsimClient.connect(sim.address(), "x", false, 200)) {
            sim.ignore.add(SimCtl.SIM_CTL_GET_PORTINFO);
            assertEquals(Errno.ETIMEDOUT, assertThrows(RdmaException.class, () -> c.getPortInfo(0)).errno());
            sim.ignore.clear();
            // the late answer of an earlier request is skipped, the right one taken
            assertEquals(new PortInfo(), c.getPortInfo(0));
        }
        int free;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            free = s.getLocalPort();
        }
        RdmaException e = assertThrows(RdmaException.class, () -> IbsimClient.connect(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), free), "x", false, 2000));
        assertEquals(Errno.ECONNREFUSED, e.errno(), e.getMessage());
    }

    @Test
    void badArgumentsAreEinval() {
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> IbsimClient.connect(
                new InetSocketAddress(InetAddress.getByName("::1"), 7070), "x", false, 100)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class, () -> IbsimClient.connect(
                InetSocketAddress.createUnresolved("ibsim.invalid", 7070), "x", false, 100)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> IbsimClient.connect(sim.address(), "x".repeat(32), false, 100)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaException.class,
                () -> IbsimClient.connect(sim.address(), "x", false, 0)).errno());
    }

    @Test
    void closeUnblocksAReceiverAndLaterUseIsEnotconn() throws Exception {
        IbsimClient c = IbsimClient.connect(sim.address(), "x", false, 1000);
        CompletableFuture<Throwable> rx = CompletableFuture.supplyAsync(() -> {
            try {
                c.receive();
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        c.close();
        c.close();
        assertTrue(rx.get(5, TimeUnit.SECONDS) instanceof IOException);
        assertEquals(Errno.ENOTCONN, assertThrows(RdmaException.class, () -> c.getPortInfo(0)).errno());
        assertEquals(Errno.ENOTCONN, assertThrows(RdmaException.class,
                () -> c.send(SimRequest.of(1, 1, 1, 1, new byte[256]))).errno());
    }
}
