package org.rdma.diags.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commands against the real tools: each sample is what infiniband-diags 44 printed for MADs
 * it received from ibsim and OpenSM (src/test/resources/samples/README.txt). The same MADs,
 * replayed, must make the command print the same lines, and the command must have sent the
 * same MADs (TIDs aside).
 */
class SampleFormatTest {
    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("smp-nodeinfo-sw", "smpquery", new String[] {"nodeinfo", "2"}),
                Arguments.of("smp-nodeinfo-ca", "smpquery", new String[] {"nodeinfo", "5"}),
                Arguments.of("smp-nodedesc", "smpquery", new String[] {"nodedesc", "2"}),
                Arguments.of("smp-portinfo-ca", "smpquery", new String[] {"portinfo", "5", "1"}),
                Arguments.of("smp-portinfo-sw1", "smpquery", new String[] {"portinfo", "2", "1"}),
                Arguments.of("smp-portinfo-sw0", "smpquery", new String[] {"portinfo", "2", "0"}),
                Arguments.of("smp-switchinfo", "smpquery", new String[] {"switchinfo", "2"}),
                Arguments.of("smp-dr-nodeinfo", "smpquery", new String[] {"-D", "nodeinfo", "0,1"}),
                Arguments.of("smp-dr-portinfo", "smpquery", new String[] {"-D", "portinfo", "0,1", "1"}),
                Arguments.of("smp-dr-nodedesc", "smpquery", new String[] {"-D", "nodedesc", "0,1,1"}),
                Arguments.of("smp-dr-switchinfo", "smpquery", new String[] {"-D", "switchinfo", "0,1"}),
                Arguments.of("smp-pkeys", "smpquery", new String[] {"pkeys", "5", "1"}),
                Arguments.of("smp-sl2vl", "smpquery", new String[] {"sl2vl", "2"}),
                Arguments.of("pq-pc", "perfquery", new String[] {"5", "1"}),
                Arguments.of("pq-pcx", "perfquery", new String[] {"-x", "5", "1"}),
                Arguments.of("pq-sw-all", "perfquery", new String[] {"2", "255"}),
                Arguments.of("pq-reset", "perfquery", new String[] {"-r", "5", "1"}),
                Arguments.of("pq-xreset", "perfquery", new String[] {"-x", "-r", "5", "1"}),
                Arguments.of("sa-nr", "saquery", new String[] {"NR", "8"}),
                Arguments.of("sa-pir", "saquery", new String[] {"PIR", "5"}),
                Arguments.of("sa-pr", "saquery", new String[] {"--src-to-dst", "5:8"}),
                Arguments.of("sa-mcmr-g", "saquery", new String[] {"-g"}),
                Arguments.of("sa-mcmr-m", "saquery", new String[] {"-m"}),
                Arguments.of("sa-mcmr", "saquery", new String[] {"MCMR"}),
                Arguments.of("sa-cpi", "saquery", new String[] {"-c"}),
                Arguments.of("sa-sm", "saquery", new String[] {"-s"}));
    }

    static DiagNet.Cmd command(String tool, Replay r) {
        return switch (tool) {
            case "smpquery" -> new SmpqueryCommand(r)::run;
            case "perfquery" -> new PerfqueryCommand(r)::run;
            default -> new SaqueryCommand(r)::run;
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void printsWhatTheRealToolPrintedAndSendsWhatItSent(String name, String tool, String[] args) {
        Replay r = Replay.of(name);
        assertEquals(Replay.text(name + ".txt"), DiagNet.lines(command(tool, r), args), name);
        List<byte[]> want = Replay.mads(name + ".req");
        assertEquals(want.size(), r.sent.size(), name + ": MADs sent");
        for (int i = 0; i < want.size(); i++) {
            byte[] w = want.get(i);
            byte[] got = Arrays.copyOf(r.sent.get(i), w.length);
            // the TID is the tool's own; every other byte is the wire format, except the data of
            // an SMP Get, where libibmad sends whatever its buffer held from the last reply
            Arrays.fill(w, 8, 16, (byte) 0);
            Arrays.fill(got, 8, 16, (byte) 0);
            boolean smpGet = ((w[1] & 0xff) == 0x01 || (w[1] & 0xff) == 0x81) && w[3] == 1;
            if (smpGet) {
                Arrays.fill(w, 64, 128, (byte) 0);
                Arrays.fill(got, 64, 128, (byte) 0);
            }
            assertArrayEquals(w, got, name + ": MAD " + i + " sent");
        }
    }

    @Test
    void ibstatPrintsWhatTheRealIbstatPrinted() {
        Replay r = new Replay(List.of());
        DiagNet.Cmd ibstat = new IbstatCommand(r)::run;
        assertEquals(Replay.text("ibstat.txt"), DiagNet.lines(ibstat));
        assertEquals(Replay.text("ibstat-l.txt"), DiagNet.lines(ibstat, "-l"));
        assertEquals(Replay.text("ibstat-p.txt"), DiagNet.lines(ibstat, "-p"));
        assertEquals(Replay.text("ibstat-s.txt"), DiagNet.lines(ibstat, "-s"));
        assertEquals(Replay.text("ibstat-port.txt"), DiagNet.lines(ibstat, "ibsim0", "1"));
    }
}
