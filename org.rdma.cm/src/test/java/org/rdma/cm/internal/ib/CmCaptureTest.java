package org.rdma.cm.internal.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rdma.cm.ib.IbCmEventType;
import org.rdma.cm.ib.IbCmId;
import org.rdma.cm.ib.IbCmState;
import org.rdma.fabric.Capture;
import org.rdma.rvt.testkit.Peers;

/** A capture of connection setup and teardown on the wire decodes in tshark as the CM messages. */
class CmCaptureTest {
    @TempDir
    Path dir;

    private static String tshark(Path f, String... args) throws Exception {
        String[] cmd = new String[4 + args.length];
        cmd[0] = "tshark";
        cmd[1] = "-n";
        cmd[2] = "-r";
        cmd[3] = f.toString();
        System.arraycopy(args, 0, cmd, 4, args.length);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "tshark finished");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static int count(String text, String word) {
        int n = 0;
        for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length())) {
            n++;
        }
        return n;
    }

    @Test
    void setupAndTeardownDecodeAsConnectRequestReplyReadyToUseAndDisconnect() throws Exception {
        Path f = dir.resolve("cm.pcap");
        try (CmNet cn = CmNet.ib()) {
            Peer a = new Peer(cn, cn.a);
            Peer b = new Peer(cn, cn.b);
            b.listen();
            IbCmId id;
            try (Capture c = cn.port(cn.a).link().capture(f)) {
                id = a.connect(cn.b, Peer.SID, "hello".getBytes(StandardCharsets.US_ASCII));
                cn.advance(10);
                assertEquals(IbCmState.ESTABLISHED, id.state());
                cn.cm.sendCmDreq(id, null);
                cn.advance(10);
                b.only(IbCmEventType.DREQ_RECEIVED);
                assertEquals(IbCmState.TIMEWAIT, id.state());
            }
        }
        Peers.requireTshark();
        Files.copy(f, Path.of("target", "ib-cm.pcap"), StandardCopyOption.REPLACE_EXISTING);
        String v = tshark(f, "-V", "-Y", "infiniband.mad.mgmtclass == 0x07");
        assertEquals(1, count(v, "ConnectRequest"), v);
        assertEquals(1, count(v, "ConnectReply"), v);
        assertEquals(1, count(v, "ReadyToUse"), v);
        assertEquals(1, count(v, "DisconnectRequest"), v);
        assertEquals(1, count(v, "DisconnectReply"), v);
        assertEquals("", tshark(f, "-Y", "_ws.malformed || _ws.expert.severity >= error").strip(), "malformed packets");
    }
}
