package org.rdma.shell.internal.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rdma.verbs.Gid;
import org.rdma.verbs.Mtu;

/**
 * Writes the seed corpora of {@link OobMsgFuzzTest} with the encoders the tools use, plus
 * messages real peers do not send. Run from the module directory after {@code mvn test-compile}:
 * {@code java -cp target/test-classes:target/classes:<test classpath> org.rdma.shell.internal.perf.OobFuzzSeeds}.
 */
public final class OobFuzzSeeds {
    private static final Path ROOT = Path.of("src/test/resources/org/rdma/shell/internal/perf/OobMsgFuzzTestInputs");

    private OobFuzzSeeds() {
    }

    private static void write(String method, String name, byte[]... parts) throws IOException {
        Path dir = ROOT.resolve(method);
        Files.createDirectories(dir);
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.write(p);
        }
        Files.write(dir.resolve(name), b.toByteArray());
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    public static void main(String[] args) throws IOException {
        Gid roce = Gid.parse("::ffff:192.168.7.2");
        Gid ib = Gid.of(0xfe80_0000_0000_0000L, 0x0002_c903_00a1_b201L);
        write("pingpongAddress", "roce", PingpongMsg.encode(new RcPair.Dest(0, 0x11, 0x1a2b3c, roce)),
                PingpongMsg.done());
        write("pingpongAddress", "ib", PingpongMsg.encode(new RcPair.Dest(0x1f, 0x48, 0xabcdef, ib)),
                PingpongMsg.done());
        write("pingpongAddress", "lid-of-8-digits", ascii("00012345:000011:1a2b3c:00000000000000000000ffff7f00000"),
                new byte[] {0});
        write("pingpongAddress", "no-nul", ascii("0000:000011:1a2b3c:00000000000000000000ffff7f0000011234"));
        write("pingpongAddress", "signed-fields", ascii("+001:-00011:1a2b3c:+0000000000000000000ffff7f000001"),
                new byte[] {0});

        PerftestMsg.Keys k = new PerftestMsg.Keys(0x1f, 1, 0x48, 0x123456, 0x1234_5678, 0x7f00_0000_1000L, null, 0);
        write("perftestKeys", "no-gid", new byte[] {0}, PerftestMsg.encodeKeys(k));
        PerftestMsg.Keys g = new PerftestMsg.Keys(0, 1, 0x48, 0x123456, 0x1234_5678, 0x7f00_0000_1000L, roce, 0);
        write("perftestKeys", "gid", new byte[] {1}, PerftestMsg.encodeKeys(g));
        write("perftestKeys", "gid-byte-of-3-digits", new byte[] {1},
                ascii("0000:0001:000048:123456:12345678:00007f0000001000:00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:07:"
                        + "102:00000000:"));
        write("perftestKeys", "wide-lid", new byte[] {0}, ascii("12345:0001:000048:123456:12345678:00007f0000001000:0000"));

        write("perftestScalars", "peer-6.29", PerftestMsg.encodeVersion("6.29"), PerftestMsg.encodeInt(4096),
                PerftestMsg.encodeInt(64), new byte[] {'5', 0, 0, 0}, PerftestMsg.encodeLong(65536),
                PerftestMsg.encodeLong(5000), PerftestMsg.encodeDouble(11234.5), PerftestMsg.encodeDouble(11000.25),
                PerftestMsg.encodeDouble(0.175));
        write("perftestScalars", "peer-5.70-rc-64k-pages", PerftestMsg.encodeVersion("5.70-rc"),
                PerftestMsg.encodeInt(65536), PerftestMsg.encodeInt(128), PerftestMsg.encodeMtu(Mtu.MTU_1024),
                new byte[2], PerftestMsg.encodeLong(8), PerftestMsg.encodeInt(100), new byte[4],
                PerftestMsg.encodeDouble(Double.NaN), PerftestMsg.encodeDouble(-1), PerftestMsg.encodeDouble(1e308));
        write("perftestScalars", "page-of-1GiB", PerftestMsg.encodeVersion("6.29"), PerftestMsg.encodeInt(1 << 30));
        write("perftestScalars", "version-dots", PerftestMsg.encodeVersion("..5.."), PerftestMsg.encodeInt(-4096));
    }
}
