package org.rdma.cm.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rdma.cm.internal.tools.Cmatose;
import org.rdma.cm.internal.tools.McKey;
import org.rdma.cm.internal.tools.Rping;
import org.rdma.verbs.QpType;

/** rping and ucmatose, the real tools' protocols and transcripts, on the simulated fabric in virtual time. */
class ToolsTest {
    private CmaNet cn;

    @AfterEach
    void close() {
        if (cn != null) {
            cn.close();
        }
    }

    private static PrintStream stream(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    private <T> T await(CompletableFuture<T> f) {
        for (int i = 0; i < 100_000 && !f.isDone(); i++) {
            cn.advance(1);
        }
        assertTrue(f.isDone(), "the tool did not finish in 100 s of virtual time");
        return f.join();
    }

    private Rping.Options rpingOptions(SocketAddress server, int count, boolean verbose, ByteArrayOutputStream out) {
        Rping.Options o = new Rping.Options();
        o.addr = server;
        o.count = count;
        o.validate = true;
        o.verbose = verbose;
        o.out = stream(out);
        return o;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ib,false", "roce-ipv4,false", "roce-ipv6,true"})
    void rpingThousandValidatedPings(String fabric, boolean v6) {
        cn = fabric.equals("ib") ? CmaNet.ib() : CmaNet.roce();
        ByteArrayOutputStream sout = new ByteArrayOutputStream();
        ByteArrayOutputStream cout = new ByteArrayOutputStream();
        SocketAddress server = cn.addr(cn.b, Rping.PORT, v6);
        Rping.Options so = rpingOptions(server, 0, false, sout);
        so.validate = false;
        Rping.Session s = Rping.server(cn.cm, so);
        Rping.Options co = rpingOptions(server, 1000, false, cout);
        co.src = cn.addr(cn.a, 0, v6);
        Rping.Session c = Rping.client(cn.cm, co);
        Rping.Result cr = await(c.done());
        Rping.Result sr = await(s.done());
        assertTrue(cr.ok(), cr.error() + "\n" + cout);
        assertTrue(sr.ok(), sr.error() + "\n" + sout);
        assertEquals(1000, cr.pings());
        assertEquals(1000, cr.validated(), "every echo compared byte for byte with what was sent");
        assertEquals(1000, sr.pings(), "the server read every ping");
        assertEquals("client DISCONNECT EVENT...\n", cout.toString(StandardCharsets.UTF_8));
        assertEquals("server DISCONNECT EVENT...\n", sout.toString(StandardCharsets.UTF_8));
        c.close();
        s.close();
        cn.assertNoLeaks();
    }

    @Test
    void rpingVerboseLinesAreTheToolsOwn() {
        cn = CmaNet.roce();
        ByteArrayOutputStream sout = new ByteArrayOutputStream();
        ByteArrayOutputStream cout = new ByteArrayOutputStream();
        SocketAddress server = cn.addr(cn.b, 7175);
        Rping.Options so = rpingOptions(server, 0, true, sout);
        Rping.Session s = Rping.server(cn.cm, so);
        Rping.Options co = rpingOptions(server, 3, true, cout);
        co.src = cn.addr(cn.a, 0);
        co.size = 40;
        so.size = 40;
        Rping.Session c = Rping.client(cn.cm, co);
        assertTrue(await(c.done()).ok());
        assertTrue(await(s.done()).ok());
        // 40 bytes: "rdma-ping-N: " then letters from 'A' + N, wrapping after 'z', NUL-terminated
        assertEquals(List.of(
                "ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                "ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[",
                "ping data: rdma-ping-2: CDEFGHIJKLMNOPQRSTUVWXYZ[\\",
                "client DISCONNECT EVENT..."), lines(cout));
        assertEquals(List.of(
                "server ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                "server ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[",
                "server ping data: rdma-ping-2: CDEFGHIJKLMNOPQRSTUVWXYZ[\\",
                "server DISCONNECT EVENT..."), lines(sout));
        c.close();
        s.close();
        cn.assertNoLeaks();
    }

    @Test
    void rpingToNoServerIsRefused() {
        cn = CmaNet.ib();
        ByteArrayOutputStream cout = new ByteArrayOutputStream();
        Rping.Options co = rpingOptions(cn.addr(cn.b, 7999), 5, false, cout);
        co.src = cn.addr(cn.a, 0);
        Rping.Session c = Rping.client(cn.cm, co);
        Rping.Result r = await(c.done());
        assertTrue(!r.ok());
        assertEquals(org.rdma.verbs.Errno.ECONNREFUSED, r.errno());
        assertEquals("cma event RDMA_CM_EVENT_REJECTED, error 8\n", cout.toString(StandardCharsets.UTF_8));
        c.close();
        cn.assertNoLeaks();
    }

    private static List<String> lines(ByteArrayOutputStream b) {
        return Arrays.asList(b.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void ucmatoseTranscriptsAndData() {
        cn = CmaNet.roce();
        ByteArrayOutputStream sout = new ByteArrayOutputStream();
        ByteArrayOutputStream cout = new ByteArrayOutputStream();
        Cmatose.Options so = new Cmatose.Options();
        so.src = cn.addr(cn.b, Cmatose.PORT);
        so.connections = 20;
        so.out = stream(sout);
        Cmatose server = Cmatose.start(cn.cm, cn.net.clock, so);
        Cmatose.Options co = new Cmatose.Options();
        co.dst = so.src;
        co.src = cn.addr(cn.a, 0);
        co.connections = 20;
        co.out = stream(cout);
        Cmatose client = Cmatose.start(cn.cm, cn.net.clock, co);
        assertEquals(0, await(client.done()));
        assertEquals(0, await(server.done()));
        assertEquals(List.of("cmatose: starting server", "initiating data transfers", "completing sends",
                "receiving data transfers", "data transfers complete", "cmatose: disconnecting", "disconnected"),
                lines(sout));
        assertEquals(List.of("cmatose: starting client", "cmatose: connecting", "receiving data transfers",
                "sending replies", "data transfers complete"), lines(cout));
        assertTrue(server.timings().startsWith("step "), server.timings());
        assertEquals(4, server.timings().split("\n").length);
        client.close();
        server.close();
        cn.assertNoLeaks();
    }

    @Test
    void mckeyReceiverGetsEverySenderDatagram() {
        cn = CmaNet.roce();
        ByteArrayOutputStream rout = new ByteArrayOutputStream();
        ByteArrayOutputStream sout = new ByteArrayOutputStream();
        SocketAddress group = new InetSocketAddress(CmaNet.inet("224.5.6.7"), 0);
        McKey.Options ro = new McKey.Options();
        ro.dst = group;
        ro.src = cn.addr(cn.b, 0);
        ro.messageCount = 5;
        ro.messageSize = 200;
        ro.out = stream(rout);
        McKey receiver = McKey.start(cn.cm, cn.net.clock, ro);
        McKey.Options so = new McKey.Options();
        so.dst = group;
        so.src = cn.addr(cn.a, 0);
        so.sender = true;
        so.messageCount = 5;
        so.messageSize = 200;
        so.out = stream(sout);
        McKey sender = McKey.start(cn.cm, cn.net.clock, so);
        assertEquals(0, await(sender.done()));
        assertEquals(0, await(receiver.done()));
        String joined = "mckey: joined dgid: ::ffff:224.5.6.7 mlid 0x0 sl 0";
        assertEquals(List.of("mckey: starting server", "mckey: joining", joined, "receiving data transfers",
                "data transfers complete"), lines(rout));
        assertEquals(List.of("mckey: starting client", "mckey: joining", joined, "initiating data transfers",
                "data transfers complete"), lines(sout));
        List<org.rdma.verbs.Wc> got = receiver.received();
        assertEquals(5, got.size());
        for (org.rdma.verbs.Wc w : got) {
            assertEquals(200 + McKey.GRH, w.byteLen, "the message and the GRH");
            assertTrue((w.wcFlags & org.rdma.verbs.WcFlags.WITH_IMM) != 0, "SEND with immediate data");
        }
        assertEquals(0, cn.cm.groupsJoined(), "both left the group");
        receiver.close();
        sender.close();
        cn.assertNoLeaks();
    }

    @Test
    void cmListingShowsStates() {
        cn = CmaNet.roce();
        Ep ep = new Ep(cn);
        RdmaCmId listen = ep.create(RdmaPortSpace.TCP, QpType.RC);
        cn.cm.bindAddr(listen, cn.addr(cn.b, 7474));
        cn.cm.listen(listen, 0);
        RdmaCmIdDTO d = cn.cm.ids().get(0);
        assertEquals(RdmaCmState.LISTEN, d.state);
        assertEquals("192.168.7.2:7474", d.srcAddr);
        assertEquals(cn.dev(cn.b).name(), d.device);
        cn.cm.destroyId(listen);
        cn.assertNoLeaks();
    }
}
