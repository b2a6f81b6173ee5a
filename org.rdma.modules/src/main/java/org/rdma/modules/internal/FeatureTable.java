package org.rdma.modules.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.rdma.verbs.runtime.DriverLoader;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The drivers of the platform and their bundles, read from the Karaf features repository
 * ({@code karaf-features/features/src/main/feature/feature.xml}, which this bundle carries as
 * {@value #RESOURCE}), so that Karaf and the embedded runtime load the same bundles for a
 * driver from one table. Driver {@code NAME} is feature {@code rdma-NAME} (never
 * {@code rdma-core}); its bundles are the feature's {@code mvn:GROUP/ARTIFACT/VERSION} entries,
 * whose symbolic name is the artifact id (the platform's rule, {@code bnd.bnd}), except
 * libraries marked {@code dependency="true"} (Gson in {@code rdma-target}): those are not a
 * driver's to start or stop, the runtime's resolver put them in {@code cnf/rdma-runtime.bndrun}
 * and they are active from boot; the
 * {@code rdma-*} features it names are its dependencies, the others (Karaf's {@code scr},
 * {@code shell}, ...) are the runtime's business.
 */
final class FeatureTable {
    /** Where the bundle carries the features repository. */
    static final String RESOURCE = "OSGI-INF/rdma/feature.xml";

    /** One driver: its own bundles' symbolic names and the drivers it stands on, in file order. */
    record Driver(String name, List<String> bundles, List<String> requires) {
    }

    private final Map<String, Driver> drivers;

    private FeatureTable(Map<String, Driver> drivers) {
        this.drivers = Collections.unmodifiableMap(drivers);
    }

    /** @return every driver by name, sorted */
    Map<String, Driver> drivers() {
        return drivers;
    }

    /** @return the driver, or {@code null} */
    Driver get(String name) {
        return drivers.get(name);
    }

    /**
     * The drivers {@code name} needs, itself last, each once, dependencies before the drivers
     * that need them (the order modprobe loads a module's dependencies in).
     */
    List<Driver> closure(String name) {
        Set<String> order = new LinkedHashSet<>();
        visit(name, order, new LinkedHashSet<>());
        List<Driver> out = new ArrayList<>();
        for (String n : order) {
            out.add(drivers.get(n));
        }
        return out;
    }

    private void visit(String name, Set<String> done, Set<String> path) {
        if (done.contains(name) || !drivers.containsKey(name)) {
            return;
        }
        if (!path.add(name)) {
            throw new IllegalStateException("feature rdma-" + name + " depends on itself through " + path);
        }
        for (String r : drivers.get(name).requires()) {
            visit(r, done, path);
        }
        path.remove(name);
        done.add(name);
    }

    /** @return the drivers that name {@code name} as a dependency */
    List<String> users(String name) {
        List<String> out = new ArrayList<>();
        for (Driver d : drivers.values()) {
            if (d.requires().contains(name)) {
                out.add(d.name());
            }
        }
        return out;
    }

    /**
     * Reads a features repository.
     *
     * @throws IOException when it cannot be read or is not a features repository
     */
    static FeatureTable read(InputStream in) throws IOException {
        Element root;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new DefaultHandler() {
                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e; // reported through the IOException, not printed
                }
            });
            root = b.parse(in).getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("not a features repository: " + e.getMessage(), e);
        }
        if (!"features".equals(root.getLocalName())) {
            throw new IOException("not a features repository: root element " + root.getLocalName());
        }
        String core = DriverLoader.FEATURE_PREFIX + DriverLoader.CORE;
        Map<String, Driver> drivers = new TreeMap<>();
        for (Element feature : children(root, "feature")) {
            String name = feature.getAttribute("name");
            if (!name.startsWith(DriverLoader.FEATURE_PREFIX) || name.equals(core)) {
                continue;
            }
            List<String> bundles = new ArrayList<>();
            List<String> requires = new ArrayList<>();
            for (Element e : children(feature, "bundle")) {
                if (!"true".equals(e.getAttribute("dependency"))) {
                    bundles.add(symbolicName(e.getTextContent().strip()));
                }
            }
            for (Element e : children(feature, "feature")) {
                String dep = e.getTextContent().strip();
                if (dep.startsWith(DriverLoader.FEATURE_PREFIX) && !dep.equals(core)) {
                    requires.add(dep.substring(DriverLoader.FEATURE_PREFIX.length()));
                }
            }
            String driver = name.substring(DriverLoader.FEATURE_PREFIX.length());
            drivers.put(driver, new Driver(driver, List.copyOf(bundles), List.copyOf(requires)));
        }
        return new FeatureTable(drivers);
    }

    /** {@code mvn:org.rdma/org.rdma.hca.rxe/${project.version}} is bundle {@code org.rdma.hca.rxe}. */
    static String symbolicName(String url) throws IOException {
        String[] parts = url.startsWith("mvn:") ? url.substring(4).split("/") : new String[0];
        if (parts.length < 3 || parts[1].isEmpty()) {
            throw new IOException("bundle " + url + " is not mvn:GROUP/ARTIFACT/VERSION");
        }
        return parts[1];
    }

    private static List<Element> children(Element parent, String localName) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && localName.equals(e.getLocalName())) {
                out.add(e);
            }
        }
        return out;
    }
}
