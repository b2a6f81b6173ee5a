package org.rdma.shell.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.osgi.framework.Bundle;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The attributes {@code rdma:link-add NAME type TYPE [KEY VALUE]...} takes: the configuration
 * keys of the driver's factory PID, read from the Metatype its bundle carries
 * ({@code OSGI-INF/metatype/*.xml}; every driver of the platform declares one with
 * {@code @ObjectClassDefinition}), so that a key the driver does not know is refused instead
 * of being stored and silently ignored. A component property type maps method
 * {@code udp_port()} to key {@code udp.port}; users type the method's spelling (and Linux's
 * {@code rdma link} options use underscores too), so a key that is unknown as typed but known
 * with each {@code _} read as {@code .} is taken as that key. Values of numeric and boolean
 * attributes are checked against the attribute's type and range, as DS would only fail later.
 */
final class LinkAttributes {
    /** One attribute definition: its Metatype type and range. */
    record Attribute(String type, String min, String max) {
    }

    private final String type;
    /** By key, in the Metatype's order; {@code null} when the driver declares no Metatype. */
    private final Map<String, Attribute> attributes;

    LinkAttributes(String type, Map<String, Attribute> attributes) {
        this.type = type;
        this.attributes = attributes;
    }

    /** The attributes of {@code factoryPid} as the Metatype of {@code driver} declares them. */
    static LinkAttributes of(String type, Bundle driver, String factoryPid) {
        Enumeration<URL> files = driver.findEntries("OSGI-INF/metatype", "*.xml", false);
        while (files != null && files.hasMoreElements()) {
            URL url = files.nextElement();
            try (InputStream in = url.openStream()) {
                Map<String, Attribute> found = read(in, factoryPid);
                if (found != null) {
                    return new LinkAttributes(type, found);
                }
            } catch (IOException e) {
                throw new RdmaException(Errno.EIO, "cannot read " + url + " of " + driver.getSymbolicName() + ": "
                        + e.getMessage(), e);
            }
        }
        return new LinkAttributes(type, null);
    }

    /**
     * The attribute definitions the Metatype document designates for {@code factoryPid}.
     *
     * @return by key, or {@code null} if the document does not designate it
     */
    static Map<String, Attribute> read(InputStream in, String factoryPid) throws IOException {
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
            throw new IOException(e.getMessage(), e);
        }
        String ocd = null;
        for (Element d : elements(root, "Designate")) {
            if (factoryPid.equals(d.getAttribute("factoryPid")) || factoryPid.equals(d.getAttribute("pid"))) {
                List<Element> objects = elements(d, "Object");
                ocd = objects.isEmpty() ? null : objects.get(0).getAttribute("ocdref");
            }
        }
        for (Element o : elements(root, "OCD")) {
            if (o.getAttribute("id").equals(ocd)) {
                Map<String, Attribute> out = new LinkedHashMap<>();
                for (Element ad : elements(o, "AD")) {
                    out.put(ad.getAttribute("id"), new Attribute(ad.getAttribute("type"), ad.getAttribute("min"),
                            ad.getAttribute("max")));
                }
                return out;
            }
        }
        return null;
    }

    private static List<Element> elements(Element parent, String localName) {
        NodeList nodes = parent.getElementsByTagNameNS("*", localName);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    /**
     * The configuration key a user's {@code key} names, its value checked.
     *
     * @param key      as typed: {@code udp.port} or {@code udp_port}
     * @param value    as typed
     * @param reserved keys set by the command itself ({@code name.template} from NAME)
     * @return the key to store
     * @throws RdmaException {@code EINVAL} for a key the driver does not declare (naming the
     *                       ones it does), a reserved key, or a value its type refuses
     */
    String key(String key, String value, String reserved) {
        RdmaException.check(key.matches("[a-z][a-z0-9._-]*"), Errno.EINVAL, "bad attribute '" + key + "'");
        String k = key;
        if (attributes != null && !attributes.containsKey(k) && attributes.containsKey(key.replace('_', '.'))) {
            k = key.replace('_', '.');
        }
        RdmaException.check(!k.equals(reserved), Errno.EINVAL,
                "attribute " + reserved + " is set from the link NAME, not as an attribute");
        if (attributes == null) {
            return k; // a driver without Metatype: its keys are unknown here
        }
        Attribute a = attributes.get(k);
        if (a == null) {
            List<String> known = new ArrayList<>(attributes.keySet());
            known.remove(reserved);
            throw new RdmaException(Errno.EINVAL, "unknown attribute '" + key + "' for link type " + type
                    + " (known: " + String.join(", ", known) + "; an '_' may stand for each '.')");
        }
        for (String v : value.split(",", -1)) {
            check(k, a, v);
        }
        return k;
    }

    private static void check(String key, Attribute a, String v) {
        try {
            switch (a.type()) {
                case "Integer", "Long", "Short", "Byte" -> range(key, a, Long.parseLong(v));
                case "Double", "Float" -> range(key, a, Double.parseDouble(v));
                case "Boolean" -> RdmaException.check(v.equals("true") || v.equals("false"), Errno.EINVAL,
                        "attribute " + key + " is true or false, not '" + v + "'");
                default -> {
                    // String, Char, Password: any text
                }
            }
        } catch (NumberFormatException e) {
            throw new RdmaException(Errno.EINVAL, "attribute " + key + " is a number (" + a.type() + "), not '" + v + "'");
        }
    }

    private static void range(String key, Attribute a, double v) {
        RdmaException.check((a.min().isEmpty() || v >= Double.parseDouble(a.min()))
                && (a.max().isEmpty() || v <= Double.parseDouble(a.max())), Errno.EINVAL, "attribute " + key + " is "
                + (a.min().isEmpty() ? "" : "at least " + a.min()) + (a.min().isEmpty() || a.max().isEmpty() ? "" : " and ")
                + (a.max().isEmpty() ? "" : "at most " + a.max()) + ", not " + fmt(v));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
