package org.rdma.modules.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.modules.internal.FeatureTable.Driver;

class FeatureTableTest {
    /** The features repository as the bundle carries it (copied from karaf-features by the build). */
    static FeatureTable platform() throws IOException {
        try (InputStream in = FeatureTableTest.class.getClassLoader().getResourceAsStream(FeatureTable.RESOURCE)) {
            assertNotNull(in, FeatureTable.RESOURCE + " is not on the class path");
            return FeatureTable.read(in);
        }
    }

    static FeatureTable of(String xml) throws IOException {
        return FeatureTable.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theFeaturesRepositoryGivesEachDriverItsBundlesAndDependencies() throws IOException {
        FeatureTable t = platform();
        assertEquals(new Driver("rxe", List.of("org.rdma.hca.rxe"), List.of("rvt")), t.get("rxe"));
        assertEquals(new Driver("ibsim", List.of("org.rdma.fabric.ibsim"), List.of("fabric")), t.get("ibsim"));
        assertEquals(List.of("rvt", "fabric", "mlx4sim"), t.closure("mlx4sim").stream().map(Driver::name).toList());
        assertNull(t.get("core"), "rdma-core carries the loader: not a driver");
        assertEquals(List.of("org.rdma.scsi", "org.rdma.target"), t.get("target").bundles(),
                "a library from elsewhere (Gson) is the runtime's, not the driver's");
        assertEquals(List.of("cm", "diags", "sm"), t.users("mad"));
    }

    @Test
    void everyBundleOfTheFeaturesIsInTheEmbeddedRuntime() throws IOException {
        String runtime = Files.readString(Path.of("..", "cnf", "rdma-runtime.bndrun"));
        for (Driver d : platform().drivers().values()) {
            for (String bsn : d.bundles()) {
                assertTrue(runtime.contains("\t" + bsn + ";"), "driver " + d.name() + ": bundle " + bsn
                        + " is not in cnf/rdma-runtime.bndrun's -runbundles");
            }
        }
    }

    @Test
    void dependenciesComeFirstAndOnce() throws IOException {
        FeatureTable t = of("""
                <features xmlns="http://karaf.apache.org/xmlns/features/v1.6.0">
                  <feature name="rdma-core"><bundle>mvn:org.rdma/org.rdma.core/1</bundle></feature>
                  <feature name="rdma-a"><feature>rdma-core</feature><bundle>mvn:g/a/1</bundle></feature>
                  <feature name="rdma-b"><feature>rdma-a</feature><feature>scr</feature><bundle>mvn:g/b/1</bundle></feature>
                  <feature name="rdma-c"><feature>rdma-b</feature><feature>rdma-a</feature><bundle>mvn:g/c1/1</bundle><bundle>mvn:g/c2/1</bundle></feature>
                  <feature name="other"><bundle>mvn:g/o/1</bundle></feature>
                </features>""");
        assertEquals(List.of("a", "b", "c"), List.copyOf(t.drivers().keySet()));
        assertEquals(List.of("a", "b", "c"), t.closure("c").stream().map(Driver::name).toList());
        assertEquals(List.of("c1", "c2"), t.get("c").bundles());
        assertEquals(List.of("b", "c"), t.users("a"));
    }

    @Test
    void malformedRepositoriesAreRefused() {
        assertThrows(IOException.class, () -> of("<features><feature name='rdma-a'><bundle>file:/x.jar</bundle></feature></features>"));
        assertThrows(IOException.class, () -> of("<bundles/>"));
        assertThrows(IOException.class, () -> of("<features>"));
        assertThrows(IllegalStateException.class, () -> of("""
                <features><feature name="rdma-a"><feature>rdma-b</feature></feature>
                <feature name="rdma-b"><feature>rdma-a</feature></feature></features>""").closure("a"));
    }
}
