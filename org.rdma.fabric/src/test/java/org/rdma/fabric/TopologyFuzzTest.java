package org.rdma.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.verbs.RdmaException;
import org.rdma.verbs.fuzz.FuzzSeeds;

/**
 * Fuzzing of the topology file parser ({@link Topology#parse(String)}, ibnetdiscover's format,
 * which a fabric configuration points to): bad text may only be refused with an
 * {@link RdmaException} naming its errno, and whatever parses must be written back by
 * {@link Topology#format()} into text that parses to an equal topology.
 */
class TopologyFuzzTest {
    @FuzzTest
    void parse(byte[] input) {
        Topology t;
        try {
            t = Topology.parse(new String(input, StandardCharsets.UTF_8));
        } catch (RdmaException e) {
            return;
        }
        String text = t.format();
        assertEquals(t, Topology.parse(text), () -> "format() of a parsed topology parses back:\n" + text);
    }

    /** The test topologies (ibnetdiscover files), and a formatted one with an Ethernet segment. */
    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        for (String name : new String[] {"three-switches.topo", "ibsim-style.net"}) {
            s.put(name, Nets.resource(name).getBytes(StandardCharsets.UTF_8));
        }
        Topology eth = Topology.builder()
                .addSwitch("sw", 4, 0x0002c90300f00000L)
                .addCa("h1", 2, 0x0002c90300a10000L)
                .addEthernet("eth", 3)
                .link("h1", 1, "sw", 1)
                .link("h1", 2, "eth", 1)
                .lid("h1", 1, 10, 0)
                .build();
        s.put("formatted-ib-and-ethernet.topo", eth.format().getBytes(StandardCharsets.UTF_8));
        return s;
    }

    @Test
    void seedsAreCommitted() throws IOException {
        FuzzSeeds.check(TopologyFuzzTest.class, "parse", seeds());
    }
}
